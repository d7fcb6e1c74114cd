import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client as Pg } from 'pg';
import { makeDataDir } from './data-dir';
import { Client } from './http';
import { freePort } from './ports';

const main = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
/** The secret of startTestApp's apps: their tokens and signed links work on these processes too. */
const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

export interface ServiceProcess {
  child: ChildProcess;
  http: Client;
  output: () => string;
}

/** Reads `read` until `done` holds or `ms` pass; the last value read. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** One statement on the database, with a connection of its own. */
export async function sqlOn<T = Record<string, unknown>>(
  databaseUrl: string,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Pg({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The built service (npm run build) as a child process on `databaseUrl`, its output kept; `env` adds or overrides settings. */
export async function startServiceProcess(
  databaseUrl: string,
  env: Record<string, string>,
  children: ChildProcess[],
): Promise<ServiceProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      PORT: String(port),
      DATA_DIR: makeDataDir('lp-service-'),
      PUBLIC_URL: 'https://learn.example',
      CODELAB_PREWARM: 'false',
      RATE_LIMIT_DEFAULT: '100000',
      RATE_LIMIT_AUTH: '100000',
      JOBS_PROCESS_EVERY_MS: '200',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout!.on('data', (c) => (output += c));
  child.stderr!.on('data', (c) => (output += c));
  const started = await until(
    async () => output,
    (o) => o.includes('Listening') || child.exitCode !== null,
  );
  if (!started.includes('Listening')) throw new Error(`service did not start:\n${output}`);
  return { child, http: new Client(`http://127.0.0.1:${port}`), output: () => output };
}

/** kill -9, resolved once the process is gone. */
export const killHard = (child: ChildProcess) =>
  new Promise<void>((resolve) =>
    child.exitCode !== null || child.signalCode !== null
      ? resolve()
      : (child.once('exit', () => resolve()), child.kill('SIGKILL')),
  );

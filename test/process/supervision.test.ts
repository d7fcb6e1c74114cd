import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '../support/data-dir';
import { freePort } from '../support/ports';

/**
 * The service as `npm start` runs it (as root when the tests run as root, CodeLab warmed), past
 * the moments a short test never reaches: a checkpoint, a postmaster that dies, a SIGTERM while the
 * database is dead.
 */
const main = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const running: ChildProcess[] = [];
const dirs: string[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface Service {
  child: ChildProcess;
  base: string;
  dataDir: string;
  pgPort: number;
  output: () => string;
  exited: Promise<number | null>;
}

async function startService(env: Record<string, string> = {}): Promise<Service> {
  const dataDir = makeDataDir('lp-supervision-');
  dirs.push(dataDir);
  const [port, pgPort] = [await freePort(), await freePort()];
  let output = '';
  const child = spawn(process.execPath, [main], {
    // CodeLab warms only where a test asks for it: a warm-up costs a dozen seconds of CPU on a shared machine.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(port),
      EMBEDDED_PG_PORT: String(pgPort),
      CODELAB_PREWARM: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await until(
    () => output.includes('Listening') || child.exitCode !== null,
    // A start on a loaded machine (initdb, migrations) may take a minute: these tests are not about its speed.
    120_000,
    () => `service did not start:\n${output}`,
  );
  return { child, base: `http://127.0.0.1:${port}`, dataDir, pgPort, output: () => output, exited };
}

async function until(done: () => boolean | Promise<boolean>, ms: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(what());
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A statement on the embedded server as its superuser (the password the service generated). */
async function sql(service: Service, text: string): Promise<unknown[]> {
  const password = readFileSync(join(service.dataDir, 'postgres-password'), 'utf8').trim();
  const client = new Client({
    host: '127.0.0.1',
    port: service.pgPort,
    user: 'postgres',
    password,
    database: 'learning_platform',
    connectionTimeoutMillis: 2000,
  });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

const postmasterPid = (service: Service) =>
  Number.parseInt(readFileSync(join(service.dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0], 10);
const healthy = async (service: Service) => (await fetch(`${service.base}/health`).catch(() => null))?.status === 200;

describe('the embedded database under npm start', () => {
  it('stays up past a checkpoint with CodeLab warmed, and the service leaves DATA_DIR’s mode as it found it', async () => {
    const service = await startService({ CODELAB_PREWARM: 'true' });
    const modeBefore = statSync(service.dataDir).mode & 0o777;
    await until(
      () => service.output().includes('CodeLab Python workers warm'),
      90_000,
      () => `CodeLab did not warm:\n${service.output()}`,
    );
    await sql(service, 'checkpoint');
    expect(await sql(service, 'select 1 as up')).toEqual([{ up: 1 }]);
    expect(await healthy(service)).toBe(true);
    expect(statSync(service.dataDir).mode & 0o777).toBe(modeBefore);
    // The folders the sandboxed user must not read are private on their own.
    for (const dir of ['outbox', 'gdpr-exports']) expect(statSync(join(service.dataDir, dir)).mode & 0o077).toBe(0);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 300_000);

  it('starts the postmaster again when it is killed, and health answers 200 again within 60 s', async () => {
    const service = await startService();
    const first = postmasterPid(service);
    process.kill(first, 'SIGKILL');
    await until(
      async () => !(await healthy(service)),
      10_000,
      () => 'health never noticed the database was gone',
    );
    const killedAt = Date.now();
    await until(
      () => healthy(service),
      60_000,
      () => `health did not come back:\n${service.output()}`,
    );
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    expect(postmasterPid(service)).not.toBe(first);
    expect(service.output()).toContain('the embedded PostgreSQL stopped');
    expect(service.output()).toContain('the embedded PostgreSQL is running again');
    // And the service works on it: a sign-up is stored.
    const signup = await fetch(`${service.base}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: `back-${Date.now()}@example.com`,
        password: 'a long enough passphrase',
        displayName: 'Back',
        role: 'guardian',
        country: 'US',
      }),
    });
    expect(signup.status).toBe(201);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 240_000);

  it('ends within its grace period on SIGTERM while the database is dead', async () => {
    const service = await startService({ SHUTDOWN_GRACE_MS: '10000' });
    process.kill(postmasterPid(service), 'SIGKILL');
    // A request under way against the dead database, then the signal.
    const pending = fetch(`${service.base}/auth/me`, { headers: { authorization: 'Bearer x' } }).catch(() => null);
    service.child.kill('SIGTERM');
    const sentAt = Date.now();
    const code = await Promise.race([service.exited, new Promise<'hung'>((r) => setTimeout(() => r('hung'), 20_000))]);
    expect(code).not.toBe('hung');
    expect(Date.now() - sentAt).toBeLessThan(12_000);
    await pending;
  }, 240_000);
});

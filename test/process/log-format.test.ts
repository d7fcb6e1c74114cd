import { makeDataDir } from '../support/data-dir';
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/app';
import { freePort } from '../support/ports';

const main = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const dataDir = makeDataDir('lp-log-format-');
const running: ChildProcess[] = [];
let databaseUrl: string;

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});
afterAll(() => {
  for (const child of running) {
    // A group whose leader has exited may be gone already: there is nothing left to kill then.
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The built service until it listens, then SIGTERM: what it wrote on stdout. `tty` runs it under
 * script(1), so that its stdout is a terminal as when someone starts it by hand (script ends with the
 * signal, so the lines of the shutdown may not reach us).
 */
async function startAndStop(env: Record<string, string>, tty = false): Promise<string> {
  const port = await freePort();
  const command = tty
    ? ['script', ['-qfec', `${JSON.stringify(process.execPath)} ${JSON.stringify(main)}`, '/dev/null']]
    : [process.execPath, [main]];
  const child = spawn(command[0] as string, command[1] as string[], {
    // A group of its own, so that the service under script(1) gets the signal too.
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      CODELAB_PREWARM: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors += chunk));
  const exited = new Promise<string>((resolve) =>
    child.once('exit', (code, signal) => resolve(`exit code ${code}, signal ${signal}`)),
  );
  const deadline = Date.now() + 45_000;
  while (!output.includes('Listening') && child.exitCode === null) {
    if (Date.now() > deadline) throw new Error(`service did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  process.kill(-child.pid!, 'SIGTERM');
  const exit = await exited;
  // script(1) ends with the signal; the service itself stops cleanly, and says so.
  if (!tty) expect({ exit, errors }).toEqual({ exit: 'exit code 0, signal null', errors: '' });
  return output;
}

const stripColours = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

describe('log format', () => {
  it('writes JSON lines when stdout is not a terminal', async () => {
    const lines = (await startAndStop({})).split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(2);
    const records = lines.map((line) => JSON.parse(line) as { level: number; time: number; msg: string });
    expect(records.find((r) => r.msg.startsWith('JWT_SECRET is not set'))).toMatchObject({
      level: 40,
      time: expect.any(Number),
    });
    expect(records.some((r) => r.msg.startsWith('Listening'))).toBe(true);
    expect(records.at(-1)?.msg).toBe('stopped');
  }, 90_000);

  it('writes readable lines with LOG_FORMAT=pretty, and on a terminal by default', async () => {
    const piped = await startAndStop({ LOG_FORMAT: 'pretty' });
    expect(piped).toMatch(/INFO: stopped/);
    for (const output of [piped, stripColours(await startAndStop({}, true))]) {
      const lines = output.split('\n').filter((line) => line.trim());
      expect(lines.some((line) => line.trim().startsWith('{'))).toBe(false);
      expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: JWT_SECRET is not set/m);
      expect(output).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Listening: GraphQL/m);
    }
  }, 120_000);

  it('keeps JSON lines on a terminal with LOG_FORMAT=json', async () => {
    // script(1) ends with the signal and may take the last lines along: the start is what is checked.
    const lines = (await startAndStop({ LOG_FORMAT: 'json' }, true)).split(/\r?\n/).filter(Boolean);
    expect(lines.map((line) => (JSON.parse(line) as { msg: string }).msg.split(':')[0])).toEqual(
      expect.arrayContaining(['JWT_SECRET is not set', 'Listening']),
    );
  }, 90_000);
});

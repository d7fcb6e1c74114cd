import { makeDataDir } from '../support/data-dir';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';

/** The built service, as `npm start` runs it (vitest's pretest builds it; `npm run build` before npx vitest). */
const main = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
const dataDir = makeDataDir('lp-stale-');
const pidFile = join(dataDir, 'postgres', 'postmaster.pid');
const running: ChildProcess[] = [];
const leftPids: number[] = [];

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  for (const pid of leftPids) if (alive(pid)) process.kill(pid, 'SIGQUIT');
  rmSync(dataDir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const postmaster = () => Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0], 10);

async function start(pgPort: string) {
  let output = '';
  const child = spawn(process.execPath, [main], {
    // No CodeLab warm-up: the database's start is what this test watches, and a warm-up costs a dozen seconds of CPU.
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: pgPort,
      LOG_LEVEL: 'debug',
      CODELAB_PREWARM: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 60_000;
  while (!output.includes('Listening') && child.exitCode === null) {
    if (Date.now() > deadline) throw new Error(`service did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (child.exitCode !== null) throw new Error(`service exited:\n${output}`);
  return { child, exited, output: () => output };
}

describe('a PostgreSQL left running by kill -9', () => {
  it('is taken over at the next start, and a normal stop then stops it', { timeout: 180_000 }, async () => {
    const pgPort = String(await freePort());
    const first = await start(pgPort);
    const orphan = postmaster();
    leftPids.push(orphan);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(alive(orphan)).toBe(true);

    const second = await start(pgPort);
    const own = postmaster();
    leftPids.push(own);
    expect(own).not.toBe(orphan);
    expect(alive(orphan)).toBe(false);
    expect(second.output()).toContain('taking over');

    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await expect.poll(() => alive(own), { timeout: 15_000 }).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
  });
});

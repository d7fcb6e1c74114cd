import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '../support/data-dir';
import { freePort } from '../support/ports';
import { allGone, groupOf, members, signalGroup } from '../support/process-groups';

/**
 * `npm start` as a user runs it, in a process group of its own as a terminal's job is, signalled
 * as a process manager (SIGTERM to npm) or a terminal's Ctrl-C (SIGINT to the whole group) does.
 */
const root = join(__dirname, '..', '..');
const dataDir = makeDataDir('lp-signals-');
/** SHUTDOWN_GRACE_MS's default: the whole stop fits in it. */
const GRACE_MS = 25_000;
const started: ChildProcess[] = [];

afterAll(() => {
  for (const npm of started) if (npm.pid) signalGroup(npm.pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

async function npmStart(pgPort: number): Promise<{ npm: ChildProcess; output: () => string; postmaster: number }> {
  let output = '';
  const npm = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_PG_PORT: String(pgPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(npm);
  npm.stdout!.on('data', (chunk) => (output += chunk));
  npm.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 120_000;
  while (!output.includes('Listening') && npm.exitCode === null) {
    if (Date.now() > deadline) throw new Error(`npm start did not start the service:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!output.includes('Listening')) throw new Error(`npm start ended:\n${output}`);
  const postmaster = Number.parseInt(
    readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0],
    10,
  );
  return { npm, output: () => output, postmaster };
}

/** The environment a live process was started with, from /proc. */
function environmentOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

describe('npm start', () => {
  it('runs the service with two malloc arenas and a heap of 512 MiB, as the image does', async () => {
    const { npm } = await npmStart(await freePort());
    const service = members(npm.pid!).find((pid) =>
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('dist/src/main.js'),
    );
    expect(service).toBeDefined();
    expect(environmentOf(service!).MALLOC_ARENA_MAX).toBe('2');
    expect(environmentOf(service!).NODE_OPTIONS?.trim()).toBe('--max-old-space-size=512');
    const exited = new Promise((resolve) => npm.once('exit', resolve));
    npm.kill('SIGTERM');
    await exited;
  }, 240_000);
});

describe('signals to npm start', () => {
  it.each([
    ['SIGTERM to the npm process', 'SIGTERM', 'npm'],
    ['SIGINT to its process group (Ctrl-C)', 'SIGINT', 'group'],
  ] as const)(
    '%s stops the service and its database in order, and nothing is left',
    async (_name, signal, target) => {
      const pgPort = await freePort();
      const { npm, output, postmaster } = await npmStart(pgPort);
      const group = npm.pid!;
      // The database is out of the terminal's reach: a Ctrl-C goes to the service, which stops it last.
      expect(groupOf(postmaster)).toBe(postmaster);
      expect(members(group).length).toBeGreaterThanOrEqual(2);

      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      if (target === 'npm') npm.kill(signal);
      else signalGroup(group, signal);
      const took = await allGone(
        () => [...members(group), ...(groupOf(postmaster) === null ? [] : [postmaster])],
        GRACE_MS,
      );
      console.log(`${signal} to ${target}: every process gone after ${took} ms`);
      expect(took, `still running: ${members(group).join(', ')}\n${output()}`).not.toBeNull();
      expect(await exited).toBe(0);
      expect(output()).toContain(`${signal}: finishing requests under way`);
      expect(output()).toContain('"stopped"');
      expect(output()).not.toContain('starting it again');
    },
    240_000,
  );
});

import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeDataDir } from '../support/data-dir';
import { allGone, descendants, groupOf, signalGroup } from '../support/process-groups';

/**
 * `npm run fleet` as a user runs it in a terminal: its members (the database, Redis when installed,
 * the instances, nginx) lead process groups of their own, so a Ctrl-C reaches the command alone,
 * and the command must stop each of them before it exits.
 */
const root = join(__dirname, '..', '..');
const dataDir = makeDataDir('lp-fleet-command-');
let npm: ChildProcess | undefined;
/** What the command started: left behind (by a failure) it no longer descends from npm. */
let started: number[] = [];

afterAll(() => {
  if (npm?.pid) for (const pid of [npm.pid, ...started, ...descendants(npm.pid)]) signalGroup(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run fleet', () => {
  it('stops every process it started when Ctrl-C reaches its process group', async () => {
    let output = '';
    npm = spawn('npm', ['run', 'fleet', '--', '--instances', '1', '--data-dir', dataDir], {
      cwd: root,
      detached: true,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    npm.stdout!.on('data', (chunk) => (output += chunk));
    npm.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => npm!.once('exit', resolve));
    const deadline = Date.now() + 180_000;
    while (!/answers at (\S+)/.test(output) && npm.exitCode === null && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    const url = /answers at (\S+)/.exec(output)?.[1];
    expect(url, output).toBeDefined();
    expect((await fetch(`${url}/health`)).status).toBe(200);

    const group = npm.pid!;
    started = descendants(group);
    // The embedded PostgreSQL, the instance and nginx at least, each out of the terminal's group.
    expect(new Set(started.map(groupOf).filter((g) => g !== group)).size).toBeGreaterThanOrEqual(3);

    signalGroup(group, 'SIGINT');
    const took = await allGone(() => started.filter((pid) => groupOf(pid) !== null), 60_000);
    console.log(`Ctrl-C to npm run fleet: every process gone after ${took} ms`);
    expect(
      took,
      `still running: ${started.filter((pid) => groupOf(pid) !== null).join(', ')}\n${output}`,
    ).not.toBeNull();
    // npm itself ends by the signal, as in a terminal; what it ran has stopped its members first.
    await exited;
    expect(output).toContain('SIGINT: stopping nginx, the instances, then the databases');
    await expect(fetch(`${url}/health`)).rejects.toThrow();
  }, 240_000);
});

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A port of 127.0.0.1 that nothing listens on at the moment of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** What a fleet's process writes goes to `onOutput`, line by line, with its name. */
export type OutputSink = (name: string, line: string) => void;

export interface Member {
  name: string;
  child: ChildProcess;
  /** The last lines it wrote (stdout and stderr), for a start that failed. */
  recent(): string;
  /** Resolves when the process has exited (at once if it already has). */
  exited(): Promise<void>;
}

const RECENT_LINES = 60;

/**
 * Starts a program in a process group of its own: a terminal's Ctrl-C (SIGINT to the foreground
 * group) reaches the fleet alone, which then stops each member in order, the database last.
 */
export function spawnMember(
  name: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  onOutput: OutputSink,
): Member {
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('error', (error) => lines.push(`could not start ${command}: ${error.message}`));
  for (const stream of [child.stdout!, child.stderr!]) {
    let partial = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop()!;
      for (const line of parts) {
        lines.push(line);
        if (lines.length > RECENT_LINES) lines.shift();
        onOutput(name, line);
      }
    });
  }
  return { name, child, recent: () => lines.join('\n'), exited: () => exit };
}

export function isRunning(member: Member): boolean {
  return member.child.exitCode === null && member.child.signalCode === null;
}

/**
 * Sends `signal` to the member's own process and waits up to `graceMs` for it to exit; then its
 * whole group is killed, so that nothing it started outlives it.
 */
export async function stopMember(member: Member, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (isRunning(member)) {
    member.child.kill(signal);
    const late = await Promise.race([member.exited().then(() => false), delay(graceMs).then(() => true)]);
    if (late) killGroup(member, 'SIGKILL');
    await member.exited();
  }
  killGroup(member, 'SIGKILL');
}

/**
 * SIGINT (a terminal's Ctrl-C) or SIGTERM (a process manager) to the program that started a fleet:
 * `stop` runs once, however many signals come, then the program exits with `exitCode`, or 1 when
 * `stop` failed. The members are in process groups of their own, so the signal reaches this program
 * alone: without this they would outlive it, the database and nginx with them.
 */
export function stopOnSignals(stop: (signal: NodeJS.Signals) => Promise<void>, exitCode = 0): void {
  let stopping: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stopping ??= stop(signal).then(
      () => process.exit(exitCode),
      (error: unknown) => {
        console.error(`the fleet did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** `kill -<signal> -<pid>`: the member and everything in its group. */
export function killGroup(member: Member, signal: NodeJS.Signals): void {
  try {
    process.kill(-member.child.pid!, signal);
  } catch {
    // the group is already empty
  }
}

/** Polls `check` every 100 ms until it holds; fails with `failure()` after `timeoutMs` or when `member` exits. */
export async function waitUntil(
  check: () => Promise<boolean>,
  timeoutMs: number,
  member: Member,
  failure: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (!isRunning(member) || Date.now() > deadline) throw new Error(failure());
    await delay(100);
  }
}

export const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

import type { ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { firstChildPid, processCpuMs, threadCpuMs } from './cpu-time';
import { type Job, type RunResult, type RunStatus, runStatuses } from './types';

/*
 * The service's side of one Python worker process (python-worker.source.ts is the process's own):
 * it reads the process's lines, enforces the limits of a run by killing the process, and says when
 * it has exited. Which process serves which run is python-pool.ts's business.
 */

/**
 * The wall-clock backstop for a program that waits instead of computing: five times the limit and
 * five seconds, so that on a busy machine a program still gets its CPU time.
 */
const START_MARGIN_MS = 5000;
const WALL_FACTOR = 5;
const WATCH_INTERVAL_MS = 20;
export const READY_TIMEOUT_MS = 120_000;
const MAX_LINE_BYTES = 1 << 20;

interface Message {
  t?: unknown;
  d?: unknown;
  status?: unknown;
  timeMs?: unknown;
  next?: unknown;
}

/** One process, one person's code. Speaks the line protocol of python-worker.source.ts. */
export class PythonWorker {
  readonly ready: Promise<void>;
  /** Settles when the process has exited, for whatever reason. */
  readonly gone: Promise<void>;
  private onMessage: (m: Message) => void = () => {};
  private onExit: (code: number | null, signal: NodeJS.Signals | null) => void = () => {};
  private pending = '';
  private stderrTail = '';
  exited = false;
  private killed = false;
  private nodePid: number | null | undefined;
  /** CPU time the process took to get ready, all its threads; null where /proc does not answer. */
  startCpuMs: number | null = null;

  constructor(
    private readonly child: ChildProcess,
    private readonly isolated: boolean,
  ) {
    child.stdin!.on('error', () => {});
    // Workers never keep the service's event loop alive; they exit when their stdin closes.
    child.unref();
    for (const stream of [child.stdin, child.stdout, child.stderr])
      (stream as unknown as { unref?: () => void } | null)?.unref?.();
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.receive(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4096);
    });
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.kill();
        reject(new Error('the Python worker did not start in time'));
      }, READY_TIMEOUT_MS);
      this.onMessage = (m) => {
        if (m.t === 'ready') {
          clearTimeout(timer);
          const pid = this.hostPid();
          this.startCpuMs = pid ? processCpuMs(pid) : null;
          resolve();
        }
      };
      this.onExit = (code, signal) => {
        clearTimeout(timer);
        reject(
          new Error(
            `the Python worker exited before it was ready (${signal ?? code}): ${this.stderrTail.trim().slice(-500)}`,
          ),
        );
      };
    });
    let markGone: () => void = () => {};
    this.gone = new Promise<void>((resolve) => (markGone = resolve));
    // 'close', not 'exit': the last lines of output may still be in the pipe when the process exits.
    child.on('close', (code, signal) => {
      this.exited = true;
      this.onExit(code, signal);
      markGone();
    });
    child.on('error', () => {
      this.exited = true;
      this.onExit(null, null);
      markGone();
    });
  }

  /** Anything that is not a line of JSON under the size cap ends the worker. */
  private receive(chunk: string): void {
    this.pending += chunk;
    let nl: number;
    while ((nl = this.pending.indexOf('\n')) >= 0) {
      const line = this.pending.slice(0, nl);
      this.pending = this.pending.slice(nl + 1);
      let message: Message;
      try {
        message = JSON.parse(line) as Message;
      } catch {
        this.kill();
        return;
      }
      if (message && typeof message === 'object') this.onMessage(message);
    }
    if (this.pending.length > MAX_LINE_BYTES) this.kill();
  }

  /** The sandboxed node's pid as the host sees it (under unshare it is unshare's child). */
  private hostPid(): number | null {
    if (this.nodePid === undefined)
      this.nodePid = this.isolated ? firstChildPid(this.child.pid!) : (this.child.pid ?? null);
    return this.nodePid;
  }

  /** Whether the process can take another program: it is alive and ended the last one cleanly. */
  get open(): boolean {
    return !this.killed && !this.exited;
  }

  /**
   * One program. The process is killed when the program ends any way but cleanly (over a limit,
   * crashed); after a clean end it stays for the next program of the same person, or for kill().
   */
  run(job: Job): Promise<RunResult> {
    return new Promise<RunResult>((resolve) => {
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let bytes = 0;
      let settled = false;
      const pid = this.hostPid();
      // A run gets its full priority back; loading happens at a lower one.
      if (pid && this.isolated) {
        try {
          setPriority(pid, 0);
        } catch {
          /* not ours to change: the run just competes with loads */
        }
      }
      const started = performance.now();
      const cpuAtStart = pid ? threadCpuMs(pid) : null;
      /** CPU time of the run's thread when /proc answers, else wall time. */
      const elapsed = () => {
        const now = pid && cpuAtStart !== null ? threadCpuMs(pid) : null;
        return now !== null && cpuAtStart !== null ? now - cpuAtStart : Math.round(performance.now() - started);
      };
      /** `next`: the process ended the program cleanly and waits for another of the same person's. */
      const settle = (status: RunStatus, timeMs: number, note?: string, next = false) => {
        if (settled) return;
        settled = true;
        clearInterval(watch);
        if (!next) this.kill();
        if (note) err.push(Buffer.from(note));
        resolve({
          status,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
          timeMs,
        });
      };
      const timeLimitExceeded = () =>
        settle(
          'time_limit_exceeded',
          job.timeLimitMs,
          `Time limit exceeded: the program ran longer than ${job.timeLimitMs} ms.\n`,
        );
      this.onMessage = (m) => {
        if (settled) return;
        if ((m.t === 'o' || m.t === 'e') && typeof m.d === 'string') {
          const data = Buffer.from(m.d, 'base64');
          const room = job.outputLimitBytes - bytes;
          (m.t === 'o' ? out : err).push(data.subarray(0, Math.max(0, room)));
          bytes += Math.min(data.length, Math.max(0, room));
          if (data.length > room) settle('output_limit_exceeded', elapsed());
        } else if (m.t === 'done') {
          const status = runStatuses.includes(m.status as RunStatus) ? (m.status as RunStatus) : 'runtime_error';
          const used = elapsed();
          if (used > job.timeLimitMs) timeLimitExceeded();
          else settle(status, used, undefined, m.next === true);
        }
      };
      this.onExit = (code, signal) => {
        const tail = this.stderrTail;
        const used = elapsed();
        const outOfMemory =
          /out of memory|heap limit|allocation failed|Cannot enlarge memory|RangeError: Array buffer allocation/i.test(
            tail,
          );
        if (outOfMemory)
          settle('memory_limit_exceeded', used, 'MemoryError: the program used more memory than allowed\n');
        else settle('runtime_error', used, `The program crashed the interpreter (${signal ?? `exit ${code}`}).\n`);
      };
      // The limit is CPU time; the wall-clock backstop catches a program that blocks without using any.
      const wallBackstop = job.timeLimitMs * WALL_FACTOR + START_MARGIN_MS;
      const watch = setInterval(() => {
        if (elapsed() > job.timeLimitMs || performance.now() - started > wallBackstop) timeLimitExceeded();
      }, WATCH_INTERVAL_MS);
      this.child.stdin!.write(`${JSON.stringify(job)}\n`);
    });
  }

  /** SIGKILL to unshare: --kill-child takes the sandboxed node with it, and the PID namespace everything it started. */
  kill(): void {
    this.killed = true;
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

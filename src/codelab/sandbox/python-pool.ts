import type { ChildProcess } from 'node:child_process';
import { closeSync, realpathSync } from 'node:fs';
import { setPriority } from 'node:os';
import { dirname } from 'node:path';
import { firstChildPid, processCpuMs, threadCpuMs } from './cpu-time';
import { pythonDriverSource } from './python-driver.source';
import { pythonWorkerSource } from './python-worker.source';
import { type IsolationMode, isolationMode, spawnSandboxed } from './sandbox-process';
import { SnapshotFile } from './snapshot-file';
import {
  type Job,
  type Pool,
  type PoolStats,
  type RunResult,
  type RunStatus,
  runStatuses,
  type SandboxLogger,
} from './types';

/**
 * The layers inside a Python worker process, all on by default. Turning one off is for tests
 * that prove the layers beneath it hold on their own; the service never does.
 */
export interface PythonLayers {
  /** Python holds no reference to Pyodide's JavaScript side and cannot import js, pyodide_js, pyodide.*, _pyodide*. */
  importGuard: boolean;
  /** The interpreter's `js` module is an empty object instead of the worker's globalThis. */
  emptyJsGlobals: boolean;
  /** node --disallow-code-generation-from-strings: the Function-constructor escape throws. */
  noCodeGeneration: boolean;
  /** Node's permission model: reads only of the Pyodide package, no writes, no child processes, no workers. */
  permissionModel: boolean;
}

export const allPythonLayers: PythonLayers = {
  importGuard: true,
  emptyJsGlobals: true,
  noCodeGeneration: true,
  permissionModel: true,
};

export interface PythonPoolOptions {
  /** Runs at once. */
  workers: number;
  /** Warm processes kept beyond `workers`, so a burst does not wait for replacements. */
  spares: number;
  /** What a program may allocate on the wasm heap beyond the interpreter's own. */
  memoryLimitMb: number;
  logger: SandboxLogger;
  layers?: Partial<PythonLayers>;
}

/**
 * The wall-clock backstop for a program that waits instead of computing: five times the limit and
 * five seconds, so that on a busy machine a program still gets its CPU time.
 */
const START_MARGIN_MS = 5000;
const WALL_FACTOR = 5;
const WATCH_INTERVAL_MS = 20;
const READY_TIMEOUT_MS = 120_000;
const MAX_LINE_BYTES = 1 << 20;
/** Room for the interpreter beyond its snapshot: what the driver keeps of its state, caches. */
const HEAP_HEADROOM = 32 << 20;
const WASM_PAGE = 64 * 1024;

/** Where the interpreter's files are: the one folder a Python worker may read. */
export function pyodideDir(): string {
  return realpathSync(dirname(require.resolve('pyodide/package.json')));
}

interface Message {
  t?: unknown;
  d?: unknown;
  status?: unknown;
  timeMs?: unknown;
}

/** One process, one run. Speaks the line protocol of python-worker.source.ts. */
class PythonWorker {
  readonly ready: Promise<void>;
  /** Settles when the process has exited, for whatever reason. */
  readonly gone: Promise<void>;
  private onMessage: (m: Message) => void = () => {};
  private onExit: (code: number | null, signal: NodeJS.Signals | null) => void = () => {};
  private pending = '';
  private stderrTail = '';
  exited = false;
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

  /** The process's one run; it is killed when the run ends, however it ends. */
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
      const settle = (status: RunStatus, timeMs: number, note?: string) => {
        if (settled) return;
        settled = true;
        clearInterval(watch);
        this.kill();
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
          else settle(status, used);
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
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** Memory snapshots of a loaded interpreter, by whether its `js` module is empty. */
const snapshots = new Map<string, Promise<SnapshotFile>>();

interface Waiting {
  job: Job;
  resolve: (r: RunResult) => void;
  reject: (e: Error) => void;
}

/**
 * Warm Python processes, loaded from a memory snapshot made once at start-up (about 1.7 s of CPU
 * each on the two-core test machines).
 * Every run gets a process that has run nothing before and is killed after it: an interpreter
 * holds state no reset can vouch for (codec registries, reconfigured streams, the wasm heap with
 * earlier programs' data), so none is ever handed on. Speed comes from the processes started
 * ahead: the pool keeps `workers + spares` of them ready (refilled in the background, at a lower
 * priority than runs) and at most `workers` runs go at once; the rest queue.
 */
export class PythonPool implements Pool {
  private readonly layers: PythonLayers;
  private mode: IsolationMode = 'none';
  private snapshot: SnapshotFile | null = null;
  private readonly idle: PythonWorker[] = [];
  private readonly queue: Waiting[] = [];
  private starting = 0;
  private busy = 0;
  private runs = 0;
  private spawned = 0;
  private replaced = 0;
  private failures = 0;
  private startCpuTotal = 0;
  private startCpuCount = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly everyone = new Set<PythonWorker>();
  /** The snapshot's build while it runs: a stop kills it too, or it outlived the service by seconds. */
  private builder: ChildProcess | null = null;

  constructor(private readonly options: PythonPoolOptions) {
    this.layers = { ...allPythonLayers, ...options.layers };
  }

  async start(): Promise<void> {
    this.mode = isolationMode(this.options.logger);
    const started = Date.now();
    try {
      // One snapshot per process and kind of interpreter: every pool (and every app in tests) shares it.
      const key = String(this.layers.emptyJsGlobals);
      let snapshot = snapshots.get(key);
      if (!snapshot) {
        snapshot = this.buildSnapshot().then((bytes) => SnapshotFile.write(bytes));
        snapshots.set(key, snapshot);
        snapshot.catch(() => snapshots.delete(key));
      }
      this.snapshot = await snapshot;
    } catch (error) {
      if (!this.stopped)
        this.options.logger.warn(
          { err: String(error) },
          'CodeLab: no Pyodide snapshot; Python workers load from scratch (about 3 s each)',
        );
    }
    // Stopped while the snapshot was built: no workers for a pool that is gone.
    if (this.stopped) return;
    const first: Promise<void>[] = [];
    while (this.warm < this.target) first.push(this.spawnWorker());
    await Promise.allSettled(first);
    this.options.logger.info(
      { ms: Date.now() - started, workers: this.idle.length, isolation: this.mode },
      'CodeLab Python workers warm',
    );
  }

  run(job: Job): Promise<RunResult> {
    if (this.stopped) return Promise.reject(new Error('the Python pool is stopped'));
    return new Promise<RunResult>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    for (const w of this.everyone) w.kill();
    this.builder?.kill('SIGKILL');
    for (const waiting of this.queue.splice(0)) waiting.reject(new Error('the Python pool is stopped'));
  }

  stats(): PoolStats {
    const startCpuMs = this.startCpuCount ? Math.round(this.startCpuTotal / this.startCpuCount) : undefined;
    return {
      workers: this.alive,
      ready: this.idle.length,
      busy: this.busy,
      queued: this.queue.length,
      runs: this.runs,
      replaced: this.replaced,
      spawned: this.spawned,
      startCpuMs,
    };
  }

  private get alive(): number {
    return this.idle.length + this.starting + this.busy;
  }

  /** Processes ready or on their way: a busy one never comes back. */
  private get warm(): number {
    return this.idle.length + this.starting;
  }

  private get target(): number {
    return this.options.workers + this.options.spares;
  }

  /**
   * Processes to have ready or starting. While runs are going, `workers` of them, or as many as
   * the queue lacks: a replacement loading then takes CPU from the runs of the same burst (a class
   * pressing Run together), even at its lower priority. The spares are topped up once no run is going.
   */
  private get wanted(): number {
    if (this.busy === 0 && this.queue.length === 0) return this.target;
    return Math.min(this.target, Math.max(this.options.workers, this.queue.length));
  }

  private nodeArgs(settings: object, heapBytes: number): string[] {
    const args: string[] = [];
    if (this.layers.permissionModel) args.push('--permission', `--allow-fs-read=${pyodideDir()}/`);
    if (this.layers.noCodeGeneration) args.push('--disallow-code-generation-from-strings');
    // No helper threads: the process lives for one short run, and V8's background compilers and
    // collectors cost a loading process about a third more CPU than doing the same work on its
    // one thread (0.40 s instead of 0.58 s here; the code it runs is the same).
    args.push('--single-threaded');
    args.push(`--wasm-max-mem-pages=${Math.ceil(heapBytes / WASM_PAGE)}`, '--max-old-space-size=192', '--no-warnings');
    args.push('-e', pythonWorkerSource, JSON.stringify(settings));
    return args;
  }

  /** Loads Pyodide once, in the same sandbox, and keeps the interpreter's memory as the starting point of every worker. */
  private buildSnapshot(): Promise<Buffer> {
    const settings = { mode: 'build', indexURL: `${pyodideDir()}/`, jsGlobals: !this.layers.emptyJsGlobals };
    const child = spawnSandboxed(this.nodeArgs(settings, 256 << 20), this.mode, pyodideDir());
    this.builder = child;
    child.stdin!.end();
    return new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let stderr = '';
      child.stdout!.on('data', (c: Buffer) => {
        chunks.push(c);
        size += c.length;
        if (size > 256 << 20) child.kill('SIGKILL');
      });
      child.stderr!.on('data', (c: Buffer) => {
        stderr = (stderr + c.toString()).slice(-2000);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), READY_TIMEOUT_MS);
      child.on('error', reject);
      child.on('exit', (code) => {
        clearTimeout(timer);
        this.builder = null;
        if (code === 0 && size > 0) resolve(Buffer.concat(chunks));
        else reject(new Error(`snapshot build failed (${code}): ${stderr.trim()}`));
      });
    });
  }

  private spawnWorker(): Promise<void> {
    const settings = {
      mode: 'run',
      indexURL: `${pyodideDir()}/`,
      snapshot: Boolean(this.snapshot),
      importGuard: this.layers.importGuard,
      jsGlobals: !this.layers.emptyJsGlobals,
      driver: pythonDriverSource,
    };
    const heap = (this.snapshot?.bytes ?? 32 << 20) + HEAP_HEADROOM + this.options.memoryLimitMb * (1 << 20);
    const input = this.snapshot?.open();
    let child: ChildProcess;
    try {
      child = spawnSandboxed(this.nodeArgs(settings, heap), this.mode, pyodideDir(), input);
    } finally {
      if (input !== undefined) closeSync(input);
    }
    const worker = new PythonWorker(child, this.mode === 'namespaces');
    this.everyone.add(worker);
    this.starting++;
    this.spawned++;
    return worker.ready.then(
      () => {
        this.starting--;
        this.failures = 0;
        if (worker.startCpuMs !== null) {
          this.startCpuTotal += worker.startCpuMs;
          this.startCpuCount++;
        }
        if (this.stopped) return worker.kill();
        this.idle.push(worker);
        // A worker that dies while idle (it should not) leaves the pool and is replaced.
        void worker.gone.then(() => {
          const at = this.idle.indexOf(worker);
          if (at < 0) return;
          this.idle.splice(at, 1);
          this.everyone.delete(worker);
          this.replaced++;
          this.refill();
        });
        this.dispatch();
      },
      (error: Error) => {
        this.starting--;
        this.everyone.delete(worker);
        this.failures++;
        this.options.logger.error(
          { err: error.message, failures: this.failures },
          'CodeLab: a Python worker failed to start',
        );
        if (this.failures >= 3 && this.idle.length === 0 && this.starting === 0) {
          for (const waiting of this.queue.splice(0)) waiting.reject(new Error('Python workers cannot start'));
        }
        this.scheduleRefill();
      },
    );
  }

  private scheduleRefill(): void {
    if (this.stopped || this.retryTimer) return;
    const delay = Math.min(30_000, 250 * 2 ** Math.min(this.failures, 7));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.refill();
    }, delay);
  }

  private refill(): void {
    if (this.stopped) return;
    if (this.failures > 0 && this.starting > 0) return;
    while (this.warm < this.wanted) {
      void this.spawnWorker();
      if (this.failures > 0) break;
    }
  }

  private dispatch(): void {
    while (this.queue.length && this.busy < this.options.workers) {
      const worker = this.takeIdle();
      if (!worker) break;
      const waiting = this.queue.shift()!;
      this.busy++;
      void worker.run(waiting.job).then((result) => {
        this.busy--;
        this.runs++;
        this.replaced++;
        worker.kill();
        this.everyone.delete(worker);
        waiting.resolve(result);
        this.dispatch();
      });
    }
    if (this.failures === 0) this.refill();
  }

  private takeIdle(): PythonWorker | undefined {
    while (this.idle.length) {
      const worker = this.idle.shift()!;
      if (!worker.exited) return worker;
      this.everyone.delete(worker);
    }
    return undefined;
  }
}

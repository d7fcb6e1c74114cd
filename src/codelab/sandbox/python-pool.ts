import type { ChildProcess } from 'node:child_process';
import { closeSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { pythonDriverSource } from './python-driver.source';
import { PythonWorker, READY_TIMEOUT_MS } from './python-worker';
import { pythonWorkerSource } from './python-worker.source';
import { type IsolationMode, isolationMode, spawnSandboxed } from './sandbox-process';
import { SnapshotFile } from './snapshot-file';
import { type Job, type Pool, type PoolStats, type RunResult, type SandboxLogger } from './types';

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

/** Room for the interpreter beyond its snapshot: what the driver keeps of its state, caches. */
const HEAP_HEADROOM = 32 << 20;
const WASM_PAGE = 64 * 1024;

/** Where the interpreter's files are: the one folder a Python worker may read. */
export function pyodideDir(): string {
  return realpathSync(dirname(require.resolve('pyodide/package.json')));
}

/** Memory snapshots of a loaded interpreter, by whether its `js` module is empty. */
const snapshots = new Map<string, Promise<SnapshotFile>>();

/**
 * One person's programs, run one after another in one process. Once a program has ended a process
 * (over a limit, crashed), the rest are `spread`: each gets a fresh process of its own, so a
 * submission whose every test loops forever waits for its time limits side by side, as separate
 * runs would, not one after another.
 */
interface Waiting {
  jobs: Job[];
  results: RunResult[];
  /** Programs handed to a process so far, and answered. */
  taken: number;
  done: number;
  spread: boolean;
  resolve: (r: RunResult[]) => void;
  reject: (e: Error) => void;
}

/**
 * Warm Python processes, loaded from a memory snapshot made once at start-up (about 1.7 s of CPU
 * each on the two-core test machines).
 * Every run, and every submission's tests together, get a process that has run nothing before and
 * is killed after them: an interpreter holds state no reset can vouch for (codec registries,
 * reconfigured streams, the wasm heap with earlier programs' data), so none is ever handed to
 * another person's code. Speed comes from the processes started ahead: the pool keeps
 * `workers + spares` of them ready (refilled in the background, at a lower priority than runs)
 * and at most `workers` processes serve at once; the rest queue.
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

  async run(job: Job): Promise<RunResult> {
    const [result] = await this.runAll([job]);
    return result;
  }

  /**
   * The programs of one person's one piece of code (the tests of a submission), one after another
   * in one process that nothing else ran in: each in a fresh namespace, with only its own input
   * sent when its turn comes. A program that ends over a limit or crashes ends the process; each
   * of the rest then runs in a fresh process of its own.
   */
  runAll(jobs: Job[]): Promise<RunResult[]> {
    if (this.stopped) return Promise.reject(new Error('the Python pool is stopped'));
    return new Promise<RunResult[]>((resolve, reject) => {
      this.queue.push({ jobs, results: [], taken: 0, done: 0, spread: false, resolve, reject });
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

  /** Processes the queue asks for: one per entry, one per program left of a spread one. */
  private get processesAsked(): number {
    let asked = 0;
    for (const waiting of this.queue) asked += waiting.spread ? waiting.jobs.length - waiting.taken : 1;
    return asked;
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
    return Math.min(this.target, Math.max(this.options.workers, this.processesAsked));
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
      const waiting = this.queue[0];
      // A spread entry stays at the head until its last program has a process.
      if (!waiting.spread || waiting.taken + 1 >= waiting.jobs.length) this.queue.shift();
      this.busy++;
      void this.serve(worker, waiting);
    }
    if (this.failures === 0) this.refill();
  }

  /** Runs the waiting programs in the worker while it stays open (one only, once they are spread). */
  private async serve(worker: PythonWorker, waiting: Waiting): Promise<void> {
    const { jobs, results } = waiting;
    const one = waiting.spread;
    while (waiting.taken < jobs.length && worker.open) {
      const at = waiting.taken++;
      results[at] = await worker.run(jobs[at]);
      waiting.done++;
      this.runs++;
      if (one) break;
    }
    this.busy--;
    this.replaced++;
    worker.kill();
    this.everyone.delete(worker);
    if (waiting.done === jobs.length) waiting.resolve(results);
    else if (this.stopped) waiting.reject(new Error('the Python pool is stopped'));
    else if (!waiting.spread && waiting.taken < jobs.length) {
      waiting.spread = true;
      this.queue.unshift(waiting);
    }
    this.dispatch();
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

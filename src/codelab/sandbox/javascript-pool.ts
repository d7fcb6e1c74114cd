import { Worker } from 'node:worker_threads';
import { quickjsWorkerSource } from './quickjs-worker.source';
import { type Job, type Pool, type PoolStats, type RunResult, type SandboxLogger } from './types';

export interface JavaScriptPoolOptions {
  workers: number;
  memoryLimitMb: number;
  logger: SandboxLogger;
}

/**
 * QuickJS stops itself through its interrupt handler (CPU time); this wall-clock stop is for an
 * engine stuck in native code, generous enough for a busy machine.
 */
const hardStopMs = (limitMs: number) => limitMs * 10 + 5000;

interface Waiting {
  job: Job;
  resolve: (r: RunResult) => void;
  reject: (e: Error) => void;
}

interface Done {
  t: 'done';
  result: RunResult & { broken?: boolean };
}

class QuickJsThread {
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private settle: ((outcome: Done | Error) => void) | null = null;
  dead = false;

  constructor(onDeath: (thread: QuickJsThread) => void, memoryLimitMb: number) {
    this.worker = new Worker(quickjsWorkerSource, {
      eval: true,
      workerData: { quickjsPath: require.resolve('quickjs-emscripten'), memoryLimitBytes: memoryLimitMb * 1024 * 1024 },
      env: {},
      // The thread's own JavaScript heap; QuickJS's memory is a wasm buffer bounded per run. A run
      // leaves a few KiB of messages and strings here: with a young generation of 16 MiB the
      // thread's heap doubled to 26 MiB whenever runs came fast and kept it (13 MiB at 4, as fast).
      resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    this.worker.unref();
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.once('message', (m: { t?: string }) =>
        m?.t === 'ready' ? resolve() : reject(new Error('unexpected first message')),
      );
      this.worker.once('error', reject);
    });
    this.worker.on('message', (m: Done) => {
      if (m?.t === 'done') this.settle?.(m);
    });
    this.worker.on('error', (e) => this.settle?.(e));
    this.worker.on('exit', () => {
      this.dead = true;
      this.settle?.(new Error('the JavaScript worker exited'));
      onDeath(this);
    });
  }

  run(job: Job): Promise<{ result: RunResult; replace: boolean }> {
    return new Promise((resolve) => {
      const started = performance.now();
      const timer = setTimeout(() => {
        this.settle = null;
        void this.worker.terminate();
        resolve({
          result: {
            status: 'time_limit_exceeded',
            stdout: '',
            stderr: `Time limit exceeded: the program ran longer than ${job.timeLimitMs} ms.\n`,
            timeMs: job.timeLimitMs,
          },
          replace: true,
        });
      }, hardStopMs(job.timeLimitMs));
      this.settle = (outcome) => {
        this.settle = null;
        clearTimeout(timer);
        if (outcome instanceof Error) {
          const memory = (outcome as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
          resolve({
            result: {
              status: memory ? 'memory_limit_exceeded' : 'runtime_error',
              stdout: '',
              stderr: memory ? 'InternalError: out of memory\n' : 'InternalError: the interpreter failed\n',
              timeMs: Math.round(performance.now() - started),
            },
            replace: true,
          });
          return;
        }
        const { broken, ...result } = outcome.result;
        // A run's QuickJS runtime is disposed whatever happened; the thread is replaced when the run
        // timed out (the engine was interrupted mid-flight) or the engine itself failed.
        const replace = Boolean(broken) || result.status === 'time_limit_exceeded';
        resolve({ result, replace });
      };
      this.worker.postMessage(job);
    });
  }

  terminate(): void {
    void this.worker.terminate();
  }
}

/**
 * Worker threads each holding a QuickJS WebAssembly module. Every run gets a QuickJS runtime and
 * context of its own, created for it and disposed after it (quickjs-worker.source.ts), so the engine
 * a program runs in has run nothing before, as docs/codelab.md asks. The thread around it may serve
 * again because nothing of one run's engine survives into the next: the program's objects, atoms,
 * globals, prototypes and job queue live in the runtime, which is freed; QuickJS code has no way
 * to read the wasm memory itself (no pointers, and every buffer it allocates is zeroed), so the
 * freed bytes are unreachable; the one host function, the output writer, is made per run; and
 * the thread's Node side holds nothing a program can reach. A thread is replaced after a run that
 * hit the time limit or broke the engine (interrupted mid-flight, it may hold a half-freed
 * runtime), and when it dies. At most `workers` runs at once; the rest queue.
 */
export class JavaScriptPool implements Pool {
  private readonly idle: QuickJsThread[] = [];
  private readonly queue: Waiting[] = [];
  private readonly threads = new Set<QuickJsThread>();
  private busy = 0;
  private runs = 0;
  private replaced = 0;
  private spawned = 0;
  private stopped = false;

  constructor(private readonly options: JavaScriptPoolOptions) {}

  async start(): Promise<void> {
    const first: Promise<void>[] = [];
    for (let i = 0; i < this.options.workers; i++) first.push(this.spawn());
    await Promise.all(first);
  }

  run(job: Job): Promise<RunResult> {
    if (this.stopped) return Promise.reject(new Error('the JavaScript pool is stopped'));
    return new Promise<RunResult>((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  /** Each program in a context of its own, as a run: a fresh QuickJS context costs next to nothing. */
  runAll(jobs: Job[]): Promise<RunResult[]> {
    return Promise.all(jobs.map((job) => this.run(job)));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const thread of this.threads) thread.terminate();
    for (const waiting of this.queue.splice(0)) waiting.reject(new Error('the JavaScript pool is stopped'));
  }

  stats(): PoolStats {
    return {
      workers: this.threads.size,
      ready: this.idle.length,
      busy: this.busy,
      queued: this.queue.length,
      runs: this.runs,
      replaced: this.replaced,
      spawned: this.spawned,
    };
  }

  private spawn(): Promise<void> {
    const thread = new QuickJsThread((dead) => this.forget(dead), this.options.memoryLimitMb);
    this.threads.add(thread);
    this.spawned++;
    return thread.ready.then(
      () => {
        if (this.stopped) return thread.terminate();
        this.idle.push(thread);
        this.dispatch();
      },
      (error: Error) => {
        this.options.logger.error({ err: error.message }, 'CodeLab: a JavaScript worker failed to start');
        this.threads.delete(thread);
        thread.terminate();
        if (!this.stopped) setTimeout(() => void this.spawn(), 1000).unref();
      },
    );
  }

  /** A thread we throw away, or that died, leaves every list at once; a replacement starts. */
  private forget(thread: QuickJsThread): void {
    thread.terminate();
    if (!this.threads.delete(thread)) return;
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
    this.replaced++;
    if (!this.stopped) void this.spawn();
  }

  private dispatch(): void {
    while (this.queue.length && this.idle.length) {
      const thread = this.idle.shift()!;
      if (thread.dead) continue;
      const waiting = this.queue.shift()!;
      this.busy++;
      void thread.run(waiting.job).then(({ result, replace }) => {
        this.busy--;
        this.runs++;
        if (replace) this.forget(thread);
        else if (!thread.dead) this.idle.push(thread);
        waiting.resolve(result);
        this.dispatch();
      });
    }
  }
}

import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { invalidRunRequest } from '../codelab.errors';
import { JavaScriptPool } from './javascript-pool';
import { type PythonLayers, PythonPool } from './python-pool';
import {
  type Job,
  type Language,
  languages,
  type PoolStats,
  type RunRequest,
  type RunResult,
  type SandboxLogger,
  silentLogger,
} from './types';

export interface CodeRunnerOptions {
  /** Runs at once per language (CODELAB_WORKERS); default: the number of cores. */
  workers: number;
  /** Warm Python processes beyond `workers` (CODELAB_PYTHON_SPARES); default: `workers`. */
  pythonSpares: number;
  timeLimitMs: number;
  memoryLimitMb: number;
  outputLimitBytes: number;
  codeLimitBytes: number;
  stdinLimitBytes: number;
  /**
   * Directories the sandboxed user must not read (the mail outbox, the privacy exports): start()
   * makes them (0700) or takes the bits of group and others away from any that have them. Never
   * DATA_DIR itself, which PostgreSQL's own user must be able to enter.
   */
  privateDirs: string[];
  logger: SandboxLogger;
  /** Tests only: switch layers inside the Python worker off to prove the ones beneath. */
  pythonLayers?: Partial<PythonLayers>;
}

export const codeRunnerDefaults = {
  timeLimitMs: 2000,
  memoryLimitMb: 64,
  outputLimitBytes: 64 * 1024,
  codeLimitBytes: 64 * 1024,
  stdinLimitBytes: 64 * 1024,
};

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Runs learners' Python and JavaScript with the limits of docs/codelab.md, each language in its own
 * warm pool (see python-pool.ts and javascript-pool.ts for how each is confined). Start it at
 * boot: runCode() waits for start() but never loads an interpreter itself.
 */
export class CodeRunner {
  readonly options: CodeRunnerOptions;
  private readonly pools: Record<Language, PythonPool | JavaScriptPool>;
  private starting: Promise<void> | null = null;
  private readonly request;

  constructor(options: Partial<CodeRunnerOptions> = {}) {
    const workers = options.workers ?? Math.max(1, availableParallelism());
    this.options = {
      ...codeRunnerDefaults,
      workers,
      pythonSpares: workers,
      privateDirs: [],
      logger: silentLogger,
      ...options,
    };
    const o = this.options;
    this.pools = {
      python: new PythonPool({
        workers: o.workers,
        spares: o.pythonSpares,
        memoryLimitMb: o.memoryLimitMb,
        logger: o.logger,
        layers: o.pythonLayers,
      }),
      javascript: new JavaScriptPool({ workers: o.workers, memoryLimitMb: o.memoryLimitMb, logger: o.logger }),
    };
    this.request = z.object({
      language: z.enum(languages),
      code: z.string().refine((s) => bytes(s) <= o.codeLimitBytes, `must be at most ${o.codeLimitBytes} bytes`),
      stdin: z
        .string()
        .refine((s) => bytes(s) <= o.stdinLimitBytes, `must be at most ${o.stdinLimitBytes} bytes`)
        .optional(),
      timeLimitMs: z.number().int().positive().optional(),
      memoryLimitMb: z.number().int().positive().optional(),
    });
  }

  /** Protects the private directories, then warms both pools. Safe to call more than once. */
  start(): Promise<void> {
    this.starting ??= (async () => {
      for (const dir of this.options.privateDirs) this.protect(dir);
      await Promise.all([this.pools.python.start(), this.pools.javascript.start()]);
    })();
    return this.starting;
  }

  /** Throws validation_failed for a bad request; every outcome of the program itself is a status. */
  async runCode(request: RunRequest): Promise<RunResult> {
    const job = this.job(request);
    await this.start();
    return this.pools[request.language].run(job);
  }

  /**
   * The tests of one submission: one person's programs, in the order given, answered in that
   * order. In Python they share one fresh process, each program in a fresh namespace and seeing
   * its own input only when its turn comes (python-pool.ts); a program that ends over a limit
   * leaves each of the rest to a fresh process of its own.
   */
  async runAll(language: Language, programs: { code: string; stdin: string }[]): Promise<RunResult[]> {
    const jobs = programs.map((program) => this.job({ language, ...program }));
    await this.start();
    return this.pools[language].runAll(jobs);
  }

  private job(request: RunRequest): Job {
    const parsed = this.request.safeParse(request);
    if (!parsed.success) {
      throw invalidRunRequest(
        parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'request', message: i.message })),
      );
    }
    const r = parsed.data;
    const o = this.options;
    return {
      code: r.code,
      stdin: r.stdin ?? '',
      timeLimitMs: Math.min(r.timeLimitMs ?? o.timeLimitMs, o.timeLimitMs),
      memoryLimitBytes: Math.min(r.memoryLimitMb ?? o.memoryLimitMb, o.memoryLimitMb) * 1024 * 1024,
      outputLimitBytes: o.outputLimitBytes,
    };
  }

  async stop(): Promise<void> {
    await Promise.all([this.pools.python.stop(), this.pools.javascript.stop()]);
  }

  stats(): Record<Language, PoolStats> {
    return { python: this.pools.python.stats(), javascript: this.pools.javascript.stats() };
  }

  private protect(dir: string): void {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const mode = statSync(dir).mode & 0o777;
    if (mode & 0o077) {
      chmodSync(dir, mode & 0o700);
      this.options.logger.warn(
        { dir, was: mode.toString(8) },
        'CodeLab: made a private directory unreadable to other users',
      );
    }
  }
}

/** The runner's settings from the environment (CODELAB_* of docs/codelab.md). */
export function codeRunnerSettings(env: {
  CODELAB_WORKERS?: number;
  CODELAB_PYTHON_SPARES?: number;
  CODELAB_TIME_LIMIT_MS: number;
  CODELAB_MEMORY_LIMIT_MB: number;
  DATA_DIR: string;
}): Partial<CodeRunnerOptions> {
  const workers = env.CODELAB_WORKERS ?? Math.max(1, availableParallelism());
  return {
    workers,
    pythonSpares: env.CODELAB_PYTHON_SPARES ?? workers,
    timeLimitMs: env.CODELAB_TIME_LIMIT_MS,
    memoryLimitMb: env.CODELAB_MEMORY_LIMIT_MB,
    privateDirs: [join(env.DATA_DIR, 'outbox'), join(env.DATA_DIR, 'gdpr-exports')],
  };
}

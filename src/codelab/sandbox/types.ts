/** What a run of learner code can end as (docs/codelab.md). */
export const runStatuses = [
  'ok',
  'runtime_error',
  'syntax_error',
  'time_limit_exceeded',
  'memory_limit_exceeded',
  'output_limit_exceeded',
] as const;
export type RunStatus = (typeof runStatuses)[number];

export const languages = ['python', 'javascript'] as const;
export type Language = (typeof languages)[number];

export interface RunRequest {
  language: Language;
  code: string;
  stdin?: string;
  /** At most the runner's time limit; lower values are honoured. */
  timeLimitMs?: number;
  /** At most the runner's memory limit; lower values are honoured. */
  memoryLimitMb?: number;
}

export interface RunResult {
  status: RunStatus;
  stdout: string;
  stderr: string;
  timeMs: number;
}

/** One run as a pool receives it: every limit resolved, in bytes and milliseconds. */
export interface Job {
  code: string;
  stdin: string;
  timeLimitMs: number;
  memoryLimitBytes: number;
  outputLimitBytes: number;
}

export interface PoolStats {
  /** Workers alive (ready, busy or starting). */
  workers: number;
  ready: number;
  busy: number;
  queued: number;
  runs: number;
  /** Workers thrown away: (Python) after every run, (JavaScript) threads after a run that broke the engine, or that died. */
  replaced: number;
  /** Workers started since the pool started, the first ones included. */
  spawned: number;
  /** Mean CPU time (ms) a fresh worker took to get ready, every thread of its process counted; where measured. */
  startCpuMs?: number;
}

export interface Pool {
  start(): Promise<void>;
  run(job: Job): Promise<RunResult>;
  /** One person's programs (a submission's tests), in order; what may be shared between them is the pool's to say. */
  runAll(jobs: Job[]): Promise<RunResult[]>;
  stop(): Promise<void>;
  stats(): PoolStats;
}

/** The smallest logger the sandbox needs; pino's fits. */
export interface SandboxLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: SandboxLogger = { info() {}, warn() {}, error() {} };

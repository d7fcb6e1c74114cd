import type { EventEmitter } from 'node:events';
import { MongoBackend } from '@agendajs/mongo-backend';
import { PostgresBackend } from '@agendajs/postgres-backend';
import { Agenda, type Job } from 'agenda';
import { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { pgPoolStats, type PoolStats } from '../db/plain-sql';
import { foldRepeats } from '../logger';
import { holdingLock } from './lock';

type DefineOptions = NonNullable<Parameters<Agenda['define']>[2]>;

/** Agenda's own default: the runs of one job name at once on an instance. */
const DEFAULT_CONCURRENCY = 5;
/** Jobs an instance locks for each it may run: the next ones ready when a run ends, no hoard. */
const LOCKED_PER_RUNNING = 2;

/** A minute of the scheduler's failures in one line after the first: enough to see an outage last, not each poll of it. */
const SCHEDULER_ERRORS_FOLDED_MS = 60_000;

export interface Jobs {
  agenda: Agenda;
  /**
   * Defines a job whose runs hold its lock for JOBS_LOCK_LIFETIME_MS, renewed while they run (an
   * instance that dies gives its jobs up that soon), and come back later when they find their work
   * claimed by another run (holdingLock). An instance locks at most twice the runs of it that its
   * concurrency allows.
   */
  define<T>(
    name: string,
    run: (job: Job<T>) => Promise<unknown>,
    options?: Omit<DefineOptions, 'lockLifetime' | 'lockLimit'>,
  ): void;
  /** The connections of the PostgreSQL backend (none on MongoDB), for /metrics. */
  poolStats(): PoolStats | undefined;
  /** Starts taking jobs, once every area has defined its own. */
  start(): Promise<void>;
  /** Lets running jobs finish (up to the drain timeout), hands the rest back, closes connections. */
  close(): Promise<void>;
}

/**
 * Agenda on MongoDB when MONGODB_URL is set (deployments as designed), otherwise on our own
 * PostgreSQL, in the table the migrations create: the embedded default and what tests run on.
 */
export function createJobs(config: Config, databaseUrl: string, log: Logger): Jobs {
  const pool = config.MONGODB_URL ? undefined : new Pool({ connectionString: databaseUrl, max: 4 });
  pool?.on('error', (error) => log.warn({ err: error }, 'job pool connection lost'));
  const backend = config.MONGODB_URL
    ? new MongoBackend({ address: config.MONGODB_URL })
    : new PostgresBackend({ pool, ensureSchema: false });
  // The LISTEN connection reconnects by itself, but reports each loss as an 'error' event, which
  // would end the process without a listener (seen when the database restarts).
  const channel = backend.notificationChannel as unknown as EventEmitter | undefined;
  channel?.on?.('error', (error: Error) => log.warn({ err: error }, 'job notification connection lost; reconnecting'));
  const agenda = new Agenda({
    backend,
    name: `api-${process.pid}`,
    processEvery: config.JOBS_PROCESS_EVERY_MS,
    defaultLockLifetime: config.JOBS_LOCK_LIFETIME_MS,
    defaultConcurrency: DEFAULT_CONCURRENCY,
  });
  agenda.on('error', foldRepeats(log, 'job scheduler error', SCHEDULER_ERRORS_FOLDED_MS));
  return {
    agenda,
    define: (name, run, options) =>
      agenda.define(name, (job) => holdingLock(job, config.JOBS_LOCK_LIFETIME_MS, () => run(job)).then(() => {}), {
        ...options,
        lockLifetime: config.JOBS_LOCK_LIFETIME_MS,
        // No more than it will start soon: under a backlog of exports an instance locked every due
        // one, they waited in its queue past their lock lifetime, and each that expired was taken
        // again by the next scan while the instance kept the one it had given up.
        lockLimit: LOCKED_PER_RUNNING * (options?.concurrency ?? DEFAULT_CONCURRENCY),
      }),
    start: () => agenda.start(),
    poolStats: () => pool && pgPoolStats(pool),
    // Both are no-ops on an Agenda that never started.
    async close() {
      const drained = await agenda.drain({ timeout: config.JOBS_DRAIN_TIMEOUT_MS });
      if (drained.timedOut)
        log.warn(
          { running: drained.running },
          'jobs still running at shutdown: another instance takes them over when their lock expires',
        );
      await agenda.stop().catch(() => {});
      await pool?.end();
    },
  };
}

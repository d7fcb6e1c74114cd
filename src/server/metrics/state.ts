import type { Knex } from '@mikro-orm/postgresql';
import type { PoolStats } from '../../db/plain-sql';
import type { Deps } from '../../kernel/deps';
import { type Metrics, metricsOf } from './registry';
import { watchReplication } from './replication';

/** Rows counted at most per scrape: the counts stay cheap however large a backlog grows. */
export const COUNT_CAP = 10_000;

/** What the WebSocket server holds open, read at each scrape. */
export interface WebSocketStats {
  sockets: number;
  subscriptions: number;
}

/**
 * The gauges read at each scrape: the database pools, the job queue and the outbox (two bounded
 * statements), the regions' replication, the WebSockets, and what the areas report (the CodeLab pools). A statement that fails
 * (the database down) leaves its gauges empty for that scrape; the rest are still answered.
 */
export function watchState(deps: Deps, webSockets: () => WebSocketStats): void {
  const metrics = metricsOf(deps);
  watchPools(deps, metrics);
  watchQueues(deps, metrics);
  watchReplication(deps, metrics);
  const sockets = metrics.gauge('websocket_connections', 'WebSocket connections open on this instance');
  const subscriptions = metrics.gauge('graphql_subscriptions', 'GraphQL subscriptions running on this instance');
  metrics.beforeScrape.push(() => {
    const stats = webSockets();
    sockets.set(stats.sockets);
    subscriptions.set(stats.subscriptions);
  });
  for (const area of deps.areas) {
    for (const source of area.gauges?.(deps) ?? []) {
      const gauge = metrics.gauge(source.name, source.help, source.labelNames);
      metrics.beforeScrape.push(() => {
        gauge.reset();
        for (const { labels, value } of source.read()) gauge.set(labels, value);
      });
    }
  }
}

function watchPools(deps: Deps, metrics: Metrics): void {
  const connections = metrics.gauge(
    'db_pool_connections',
    'Database connections of each pool: used (lent out), idle (open, free), waiting (callers queued for one)',
    ['pool', 'state'],
  );
  const knex = deps.orm.em.getConnection().getKnex() as Knex & { client: { pool?: TarnPool } };
  const pools: Record<string, () => PoolStats | undefined> = {
    orm: () => {
      const pool = knex.client.pool;
      return pool && { used: pool.numUsed(), idle: pool.numFree(), waiting: pool.numPendingAcquires() };
    },
    plain_sql: () => deps.sql.poolStats(),
    jobs: () => deps.jobs.poolStats(),
  };
  metrics.beforeScrape.push(() => {
    connections.reset();
    for (const [pool, read] of Object.entries(pools)) {
      const stats = read();
      if (stats)
        for (const state of ['used', 'idle', 'waiting'] as const) connections.set({ pool, state }, stats[state]);
    }
  });
}

/** knex's pool (tarn), as far as it is read here. */
interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** Each region's database has its own job queue and outbox: each is counted there, labelled with its region. */
function watchQueues(deps: Deps, metrics: Metrics): void {
  const jobs = metrics.gauge(
    'job_queue',
    `Agenda jobs by region and state: due (their time has come, not taken) and running (locked by an instance); counted up to ${COUNT_CAP}`,
    ['region', 'state'],
  );
  const outboxRows = metrics.gauge(
    'outbox_rows',
    `Outbox rows by region and state: pending (to deliver or retry) and failed (set aside); counted up to ${COUNT_CAP}`,
    ['region', 'state'],
  );
  const outboxAge = metrics.gauge(
    'outbox_oldest_pending_age_seconds',
    'Age of the oldest pending outbox row of each region: how far delivery lags behind commits (0 when none)',
    ['region'],
  );
  const read = async <T>(view: Deps, sql: string): Promise<T | undefined> => {
    try {
      return (await view.sql.unlogged<T>(sql, [COUNT_CAP, COUNT_CAP]))[0];
    } catch (error) {
      deps.log.warn(
        { err: { message: (error as Error).message }, region: view.region },
        'metrics: the job queue or outbox could not be read',
      );
      return undefined;
    }
  };
  metrics.beforeScrape.push(async () => {
    const counted = await Promise.all(
      deps.regions.map(async (view) => {
        const [queue, outbox] = await Promise.all([
          // On MongoDB the queue is not in our database: no job gauges.
          deps.config.MONGODB_URL ? undefined : read<{ due: number; running: number }>(view, JOBS_SQL),
          read<{ pending: number; failed: number; age: number | null }>(view, OUTBOX_SQL),
        ]);
        return { region: view.region, queue, outbox };
      }),
    );
    jobs.reset();
    outboxRows.reset();
    outboxAge.reset();
    for (const { region, queue, outbox } of counted) {
      if (queue) for (const state of ['due', 'running'] as const) jobs.set({ region, state }, queue[state]);
      if (outbox) {
        for (const state of ['pending', 'failed'] as const) outboxRows.set({ region, state }, outbox[state]);
        outboxAge.set({ region }, outbox.age ?? 0);
      }
    }
  });
}

// Each count stops at the cap (LIMIT in a subquery), on the tables' partial indexes.
const JOBS_SQL = `select
  (select count(*) from (select 1 from agenda_jobs where disabled = false and locked_at is null and next_run_at <= now() limit ?) d)::int as due,
  (select count(*) from (select 1 from agenda_jobs where locked_at is not null limit ?) r)::int as running`;

const OUTBOX_SQL = `select
  (select count(*) from (select 1 from outbox where failed_at is null limit ?) p)::int as pending,
  (select count(*) from (select 1 from outbox where failed_at is not null limit ?) f)::int as failed,
  (select extract(epoch from now() - created_at) from outbox where failed_at is null order by id limit 1)::float8 as age`;

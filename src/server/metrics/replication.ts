import type { Deps } from '../../kernel/deps';
import { subscriptionName } from '../../db/replication';
import { GLOBAL_REGION } from '../../db/regions';
import type { Metrics } from './registry';

/**
 * How far each region's copy of the shared data is behind global's (docs/residency.md): the bytes of
 * WAL its slot has not confirmed, and whether its subscription's worker runs. A region that cannot be
 * read is left out of that scrape.
 */
export function watchReplication(deps: Deps, metrics: Metrics): void {
  const regions = [...deps.regionOrms].filter(([region]) => region !== GLOBAL_REGION);
  if (!regions.length) return;
  const lag = metrics.gauge(
    'replication_lag_bytes',
    "WAL of global's database that a region's subscription has not yet confirmed applying",
    ['region'],
  );
  const running = metrics.gauge(
    'replication_running',
    "1 when a region's subscription to the shared data has a worker applying it, else 0",
    ['region'],
  );
  const slots = regions.map(([region, orm]) => ({ region, orm, name: subscriptionName(orm.config.get('clientUrl')!) }));
  metrics.beforeScrape.push(async () => {
    lag.reset();
    running.reset();
    await Promise.all(
      slots.map(async ({ region, orm, name }) => {
        try {
          const [slot] = await deps.sql.unlogged<{ lag: number | null }>(
            'select pg_wal_lsn_diff(pg_current_wal_lsn(), confirmed_flush_lsn)::float8 as lag from pg_replication_slots where slot_name = $1',
            [name],
          );
          const [worker] = await orm.em
            .getConnection()
            .execute<{ running: boolean }[]>(
              'select bool_or(pid is not null) as running from pg_stat_subscription where subname = ?',
              [name],
            );
          if (slot?.lag != null) lag.set({ region }, slot.lag);
          running.set({ region }, worker?.running ? 1 : 0);
        } catch (error) {
          deps.log.warn(
            { err: { message: (error as Error).message }, region },
            'metrics: replication could not be read',
          );
        }
      }),
    );
  });
}

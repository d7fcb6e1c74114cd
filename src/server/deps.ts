import { join } from 'node:path';
import type { Logger } from 'pino';
import { areas } from '../areas';
import { openPlainSql } from '../db/plain-sql';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import { GLOBAL_REGION } from '../db/regions';
import { homeRegionOf } from './regions';
import { createJobs } from '../jobs/agenda';
import type { Deps } from '../kernel/deps';
import { createPostgresPubSub } from '../kernel/pubsub';
import { createRateLimits } from '../kernel/rate-limit';
import { openRateLimitStore, type RateLimitStore } from '../kernel/rate-limit-stores';
import { createMailer } from '../mail/mailer';

/** The rate limit store of each Deps, closed with it. */
const limitStores = new WeakMap<Deps, RateLimitStore>();

export async function createDeps(
  config: Config,
  log: Logger,
  orm: Orm,
  databaseUrl: string,
  regionOrms: ReadonlyMap<string, Orm> = new Map([[GLOBAL_REGION, orm]]),
): Promise<Deps> {
  // Shared counters (docs/conventions.md#rate-limits): Redis when REDIS_URL is set, else the service's own database.
  const limitStore = await openRateLimitStore({ redisUrl: config.REDIS_URL, databaseUrl, log });
  const sql = openPlainSql(orm, log);
  await sql.warm();
  const deps: Deps = {
    config,
    log,
    orm,
    regionOrms,
    homeRegionOf,
    sql,
    mailer: createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: join(config.DATA_DIR, 'outbox'),
    }),
    pubSub: await createPostgresPubSub(databaseUrl, log),
    limits: createRateLimits(
      config,
      limitStore,
      Object.assign({}, ...areas.map((area) => area.rateLimits?.(config) ?? {})),
    ),
    jobs: createJobs(config, databaseUrl, log),
    areas,
  };
  limitStores.set(deps, limitStore);
  return deps;
}

export async function closeDeps(deps: Deps): Promise<void> {
  // Jobs first: a stage finishing during the drain still stores its output and publishes.
  await deps.jobs.close();
  for (const area of deps.areas) {
    try {
      await area.close?.(deps);
    } catch (error) {
      deps.log.error({ err: error, area: area.name }, 'area did not close cleanly');
    }
  }
  deps.mailer.close();
  await deps.pubSub.close();
  await limitStores.get(deps)?.close();
  await deps.sql.close();
}

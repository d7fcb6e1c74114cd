import { join } from 'node:path';
import type { Logger } from 'pino';
import { areas } from '../areas';
import { openPlainSql, type PlainSql } from '../db/plain-sql';
import type { Config } from '../config';
import type { Orm } from '../db/orm';
import { GLOBAL_REGION } from '../db/regions';
import { homeRegionOf } from './regions';
import { openUnit } from './platform';
import { createJobs } from '../jobs/agenda';
import type { Deps } from '../kernel/deps';
import { createPostgresPubSub } from '../kernel/pubsub';
import { createRateLimits } from '../kernel/rate-limit';
import { openRateLimitStore, type RateLimitStore } from '../kernel/rate-limit-stores';
import { createMailer } from '../mail/mailer';

/** The rate limit store of each Deps, closed with it. */
const limitStores = new WeakMap<Deps, RateLimitStore>();

/** A region's database: the ORM on it and the connection string of the role the service runs as. */
export interface RegionDatabase {
  orm: Orm;
  url: string;
}

/**
 * The process's Deps, seen from global, and a view of it per region (`inRegion`): each view has the
 * region's database, plain pool and jobs and shares the rest (settings, mail, events, limits).
 */
export async function createDeps(
  config: Config,
  log: Logger,
  orm: Orm,
  databaseUrl: string,
  others: ReadonlyMap<string, RegionDatabase> = new Map(),
): Promise<Deps> {
  // Shared counters (docs/conventions.md#rate-limits): Redis when REDIS_URL is set, else global's database.
  const limitStore = await openRateLimitStore({ redisUrl: config.REDIS_URL, databaseUrl, log });
  const databases = new Map<string, RegionDatabase>([[GLOBAL_REGION, { orm, url: databaseUrl }], ...others]);
  const regionOrms = new Map([...databases].map(([region, database]) => [region, database.orm]));
  const views = new Map<string, Deps>();
  const root: Deps = {
    config,
    log,
    region: GLOBAL_REGION,
    orm,
    regionOrms,
    sql: await warmSql(orm, log),
    inRegion(region) {
      const view = views.get(region);
      if (!view) throw new Error(`no database is configured for region ${region}`);
      return view;
    },
    get regions() {
      return [...views.values()];
    },
    homeRegionOf,
    unit() {
      return openUnit(this);
    },
    mailer: createMailer({
      smtpUrl: config.SMTP_URL,
      from: config.MAIL_FROM,
      outboxDir: join(config.DATA_DIR, 'outbox'),
    }),
    pubSub: await createPostgresPubSub(
      databaseUrl,
      log,
      [...others.values()].map((database) => database.url),
    ),
    limits: createRateLimits(
      config,
      limitStore,
      Object.assign({}, ...areas.map((area) => area.rateLimits?.(config) ?? {})),
    ),
    jobs: createJobs(config, databaseUrl, log),
    areas,
  };
  views.set(GLOBAL_REGION, root);
  for (const [region, database] of others) views.set(region, await regionView(root, region, database));
  limitStores.set(root, limitStore);
  return root;
}

async function warmSql(orm: Orm, log: Logger): Promise<PlainSql> {
  const sql = openPlainSql(orm, log);
  await sql.warm();
  return sql;
}

/**
 * A region's view of the process: what it sets is its own (its database, its jobs and, once made,
 * its outbox relay); what it does not (a process leaving, the mailer) is read from global's.
 * Its jobs run on its own PostgreSQL whatever MONGODB_URL says: their data names its accounts.
 */
async function regionView(root: Deps, region: string, database: RegionDatabase): Promise<Deps> {
  const view = Object.create(root) as Deps;
  return Object.assign(view, {
    region,
    orm: database.orm,
    sql: await warmSql(database.orm, root.log),
    jobs: createJobs({ ...root.config, MONGODB_URL: undefined }, database.url, root.log),
  });
}

export async function closeDeps(deps: Deps): Promise<void> {
  // Jobs first: a stage finishing during the drain still stores its output and publishes.
  await Promise.all(deps.regions.map((view) => view.jobs.close()));
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
  await Promise.all(deps.regions.map((view) => view.sql.close()));
}

import type { Config } from '../config';
import { startEmbeddedPostgres } from '../db/embedded';
import type { Orm } from '../db/orm';
import { openAppDatabase } from '../server/platform';
import { migrateRegions, regionUrls, replicateSharedData } from '../server/regions';
import { GLOBAL_REGION } from '../db/regions';

/**
 * Runs a command-line task against the configured database: `DATABASE_URL`, or the embedded one
 * (joined if the service already runs it). Every region's database is migrated to the latest version
 * first, as at start-up, unless `migrated` is false (the migration commands themselves, which must see
 * the database as it is); the task itself runs on global's.
 */
export async function withDatabase<T>(
  config: Config,
  task: (orm: Orm, databaseUrl: string) => Promise<T>,
  { migrated = true } = {},
): Promise<T> {
  const embedded = config.DATABASE_URL
    ? undefined
    : await startEmbeddedPostgres(config.DATA_DIR, config.EMBEDDED_PG_PORT);
  const databaseUrl = config.DATABASE_URL ?? embedded!.url();
  try {
    if (migrated) await migrateRegions(await regionUrls(config, databaseUrl), () => {});
    const orm = await openAppDatabase(databaseUrl);
    try {
      return await task(orm, databaseUrl);
    } finally {
      await orm.close();
    }
  } finally {
    await embedded?.stop();
  }
}

/**
 * The same, with every region's database open beside global's (their shared data replicated): for a
 * task that writes accounts of any region, each in its own database. `others` maps a region to its
 * ORM and its owner's connection string.
 */
export async function withRegions<T>(
  config: Config,
  task: (orm: Orm, databaseUrl: string, others: Map<string, { orm: Orm; url: string }>) => Promise<T>,
): Promise<T> {
  return withDatabase(config, async (orm, databaseUrl) => {
    const urls = await regionUrls(config, databaseUrl);
    await replicateSharedData(urls);
    const others = new Map<string, { orm: Orm; url: string }>();
    try {
      for (const [region, url] of urls)
        if (region !== GLOBAL_REGION) others.set(region, { orm: await openAppDatabase(url), url });
      return await task(orm, databaseUrl, others);
    } finally {
      for (const other of others.values()) await other.orm.close();
    }
  });
}

import type { Config } from '../config';
import { startEmbeddedPostgres } from '../db/embedded';
import { migrate, type Orm } from '../db/orm';
import { openAppDatabase } from '../server/platform';

/**
 * Runs a command-line task against the configured database: `DATABASE_URL`, or the embedded one
 * (joined if the service already runs it), migrated to the latest version first unless `migrated`
 * is false (the migration commands themselves, which must see the database as it is).
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
  const orm = await openAppDatabase(databaseUrl);
  try {
    if (migrated) await migrate(orm);
    return await task(orm, databaseUrl);
  } finally {
    await orm.close();
    await embedded?.stop();
  }
}

import { Migrator } from '@mikro-orm/migrations';
import type { EntityClass, MigrationObject } from '@mikro-orm/core';
import { MikroORM, type Options } from '@mikro-orm/postgresql';
import { Client } from 'pg';

export type Orm = MikroORM;

/** What the database holds: the areas' entities and every migration, handed in by the composition root. */
export interface DatabaseModel {
  entities: EntityClass<any>[];
  migrations: MigrationObject[];
}

export function ormOptions(
  databaseUrl: string,
  model: DatabaseModel,
  log: (message: string) => void = () => {},
): Options {
  return {
    clientUrl: databaseUrl,
    logger: log,
    // Never on: MikroORM's query log prints every statement with its parameters (e-mails, birth
    // dates, password hashes). Failed statements reach our logs only through logger.ts's safeError.
    debug: false,
    entities: model.entities,
    extensions: [Migrator],
    migrations: {
      migrationsList: model.migrations,
      path: 'src/db/migrations',
      pathTs: 'src/db/migrations',
      emit: 'ts',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
    },
    // Requests must not share an identity map: each request, job and subscription forks its own.
    allowGlobalContext: false,
    forceUtcTimezone: true,
    // A database that is down must answer fast, so health can report it and requests fail cleanly.
    pool: { min: 0, max: 10, acquireTimeoutMillis: 5000, idleTimeoutMillis: 10_000 },
    driverOptions: { connection: { connectionTimeoutMillis: 3000 } },
    discovery: { warnWhenNoEntities: false },
    // Agenda's job table belongs to Agenda (its migration copies the backend's schema), and the outbox
    // to the kernel's relay (plain SQL), and the directory of accounts' regions to auth's plain SQL:
    // none is an entity.
    schemaGenerator: { skipTables: ['agenda_jobs', 'outbox', 'account_regions'] },
  };
}

export async function openDatabase(
  databaseUrl: string,
  model: DatabaseModel,
  log?: (message: string) => void,
): Promise<Orm> {
  return MikroORM.init(ormOptions(databaseUrl, model, log));
}

/** Any constant: the key of the session lock that lets one instance at a time migrate a database. */
const MIGRATION_LOCK_KEY = 7_245_318_901;

/**
 * Instances of a fleet start together on one database: each would apply the same migrations, and
 * all but one fail on tables the first made. The first takes a session lock and migrates; the others
 * wait for it, then find nothing left to apply. The lock ends with its connection, so an instance
 * killed mid-migration leaves nothing held (its transaction rolls back: migrations are all or nothing).
 */
export async function migrate(orm: Orm): Promise<void> {
  const lock = new Client({ connectionString: orm.config.get('clientUrl') });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await orm.getMigrator().up();
  } finally {
    await lock.end();
  }
}

import { Migrator } from '@mikro-orm/migrations';
import type { EntityClass, MigrationObject } from '@mikro-orm/core';
import { MikroORM, type Options } from '@mikro-orm/postgresql';

export type Orm = MikroORM;

/** What the database holds: the areas' entities and every migration, handed in by the composition root. */
export interface DatabaseModel {
  entities: EntityClass<any>[];
  migrations: MigrationObject[];
}

export function ormOptions(databaseUrl: string, model: DatabaseModel, log: (message: string) => void = () => {}): Options {
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
    // to the kernel's relay (plain SQL): neither is an entity.
    schemaGenerator: { skipTables: ['agenda_jobs', 'outbox'] },
  };
}

export async function openDatabase(databaseUrl: string, model: DatabaseModel, log?: (message: string) => void): Promise<Orm> {
  return MikroORM.init(ormOptions(databaseUrl, model, log));
}

export async function migrate(orm: Orm): Promise<void> {
  await orm.getMigrator().up();
}

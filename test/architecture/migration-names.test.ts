import { describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/postgresql';
import { model, openAppDatabase } from '../../src/server/platform';
import { createTestDatabase } from '../support/app';

// Each area creates its tables in its own migrations folder. The migrations that created several
// areas' tables at once moved there: each keeps its recorded name in the area that holds most of
// it, and the other areas' tables went to parts named after it that add nothing where the original
// ran. A database migrated before the move must run nothing new and keep its schema.

/** The names a database migrated before the move has recorded for the migrations that moved. */
const recordedBefore = [
  'Migration20261122000000_accounts',
  'Migration20261122010000_notifications',
  'Migration20261122020000_guardians_consent',
  'Migration20261122030000_ai_usage',
  'Migration20261122040000_learning',
  'Migration20261122050000_notification_counters',
  'Migration20261123000000_course_factory',
  'Migration20261123100000_schema_as_declared',
];

const names = model.migrations.map((migration) => migration.name);
const splitParts = names.filter((name) => recordedBefore.some((old) => name.startsWith(`${old}_`)));

/** The schema as the database describes it: columns, constraints, indexes, triggers, functions and views. */
async function schemaOf(orm: MikroORM): Promise<string[]> {
  const rows = await orm.em.getConnection().execute<{ line: string }[]>(`
    select concat_ws(' ', table_name, column_name, data_type, is_nullable, column_default, ordinal_position) as line
      from information_schema.columns where table_schema = 'public' and table_name <> 'mikro_orm_migrations'
    union all select concat_ws(' ', conrelid::regclass::text, conname, pg_get_constraintdef(oid)) from pg_constraint
      where connamespace = 'public'::regnamespace and conrelid <> 'mikro_orm_migrations'::regclass
    union all select indexdef from pg_indexes where schemaname = 'public' and tablename <> 'mikro_orm_migrations'
    union all select concat_ws(' ', event_object_table, trigger_name, event_manipulation, action_statement)
      from information_schema.triggers where trigger_schema = 'public'
    union all select concat_ws(' ', proname, md5(prosrc)) from pg_proc where pronamespace = 'public'::regnamespace
    union all select concat_ws(' ', viewname, md5(definition)) from pg_views where schemaname = 'public'
    order by 1`);
  return rows.map((row) => row.line);
}

describe("the areas' migrations", () => {
  it('keep every name a database migrated before recorded, and name the split parts after their original', () => {
    expect(recordedBefore.filter((name) => !names.includes(name))).toEqual([]);
    expect(splitParts).toEqual([
      'Migration20261122000000_accounts_role_changes',
      'Migration20261122020000_guardians_consent_consent',
      'Migration20261122020000_guardians_consent_country_policy',
      'Migration20261122040000_learning_certificates',
      'Migration20261122040000_learning_progress',
    ]);
  });

  it('run on a database migrated before the move: only the split parts are new, they add nothing, and the schema stays the same', async () => {
    const orm = await openAppDatabase(await createTestDatabase());
    try {
      const migrator = orm.getMigrator();
      await migrator.up();
      const migrated = await schemaOf(orm);
      expect(migrated.length).toBeGreaterThan(300);
      // What such a database has recorded: the originals' names, none of the parts split out of them.
      await orm.em
        .getConnection()
        .execute(
          `delete from mikro_orm_migrations where name in (${splitParts.map(() => '?').join(', ')})`,
          splitParts,
        );
      expect((await migrator.getPendingMigrations()).map((m) => m.name)).toEqual(splitParts);
      await migrator.up();
      expect(await migrator.getPendingMigrations()).toEqual([]);
      expect(await schemaOf(orm)).toEqual(migrated);
    } finally {
      await orm.close();
    }
  });
});

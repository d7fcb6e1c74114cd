import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/orm';
import { openAppDatabase } from '../../src/server/platform';
import { createTestDatabase } from '../support/app';

describe('the migrations and the entities describe one schema', () => {
  it('leaves nothing for the schema generator to change on a freshly migrated database', async () => {
    const orm = await openAppDatabase(await createTestDatabase());
    try {
      await migrate(orm);
      const diff = await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
      expect(diff.trim()).toBe('');
    } finally {
      await orm.close();
    }
  });

  it('takes every migration back down and up again to the same schema', async () => {
    const orm = await openAppDatabase(await createTestDatabase());
    try {
      const migrator = orm.getMigrator();
      await migrator.up();
      await migrator.down({ to: 0 });
      const left = await orm.em
        .getConnection()
        .execute<{ n: number }[]>(
          `select count(*)::int as n from information_schema.tables where table_schema = 'public' and table_name <> 'mikro_orm_migrations'`,
        );
      expect(left[0].n).toBe(0);
      await migrator.up();
      expect((await orm.schema.getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true })).trim()).toBe('');
    } finally {
      await orm.close();
    }
  });
});

import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { migrate } from '../../src/db/orm';
import { openAppDatabase } from '../../src/server/platform';

async function emptyDatabase(): Promise<string> {
  const name = `empty_${randomUUID().replace(/-/g, '')}`;
  const admin = new Client({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  return inject('postgresUrlOf').replace('/DATABASE', `/${name}`);
}

describe('instances that start together on an empty database', () => {
  it('apply each migration once, and all of them start', async () => {
    const url = await emptyDatabase();
    const instances = await Promise.all([1, 2, 3].map(() => openAppDatabase(url)));
    try {
      const results = await Promise.allSettled(instances.map((orm) => migrate(orm)));
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
      const applied = await instances[0].em
        .getConnection()
        .execute<{ name: string; times: string }[]>(
          'select name, count(*) as times from mikro_orm_migrations group by name',
        );
      expect(applied.length).toBeGreaterThan(10);
      expect(applied.filter((row) => Number(row.times) !== 1)).toEqual([]);
      expect(await instances[1].getMigrator().getPendingMigrations()).toEqual([]);
    } finally {
      await Promise.all(instances.map((orm) => orm.close()));
    }
  });
});

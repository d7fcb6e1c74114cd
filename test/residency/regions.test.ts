import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { loadConfig, settingsSchema } from '../../src/config';
import { besideGlobal, regionUrlSetting } from '../../src/db/regions';
import { createLogger } from '../../src/logger';
import { createApp } from '../../src/server/app';
import { model } from '../../src/server/platform';
import { regions } from '../../src/server/regions';
import { createTestDatabase, startTestApp, TEST_SETTINGS, type TestApp } from '../support/app';
import { asOwner } from '../support/sql';

const migrationsIn = async (url: string) =>
  (await asOwner({ databaseUrl: url }, 'select name from mikro_orm_migrations order by name')).map(
    (row) => (row as { name: string }).name,
  );

describe('regions and their databases', () => {
  it('are global and the regions the country policies keep data in, each with a setting of its own', () => {
    expect(regions).toEqual(['global', 'vn']);
    for (const region of regions) expect(settingsSchema.shape).toHaveProperty(regionUrlSetting(region));
  });

  describe('a service given DATABASE_URL only, outside production', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(async () => t?.close());

    it("opens vn's database beside global's, migrated like it", async () => {
      const vnUrl = besideGlobal(t.databaseUrl, 'vn');
      expect(new URL(vnUrl).pathname).toBe(`${new URL(t.databaseUrl).pathname}_vn`);
      expect([...t.app.deps.regionOrms.keys()]).toEqual(['global', 'vn']);
      const [{ database }] = await t.app.deps.regionOrms
        .get('vn')!
        .em.getConnection()
        .execute('select current_database() as database');
      expect(database).toBe(new URL(vnUrl).pathname.slice(1));
      const all = model.migrations.map((m) => m.name).sort();
      expect(await migrationsIn(t.databaseUrl)).toEqual(all);
      expect(await migrationsIn(vnUrl)).toEqual(all);
    });
  });

  it("makes and migrates a region's database that is missing", async () => {
    const admin = new Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
    const name = `test_${randomUUID().replace(/-/g, '')}`;
    await admin.query(`create database "${name}"`);
    await admin.end();
    const t = await startTestApp({}, inject('postgresUrlOf').replace('/DATABASE', `/${name}`));
    try {
      expect(await migrationsIn(besideGlobal(t.databaseUrl, 'vn'))).toHaveLength(model.migrations.length);
    } finally {
      await t.close();
    }
  }, 120_000);

  it('refuses to start in production with DATABASE_URL set and DATABASE_URL_VN not, naming the setting', async () => {
    const config = loadConfig({
      ...TEST_SETTINGS,
      NODE_ENV: 'production',
      DATABASE_URL: await createTestDatabase(),
      LOG_LEVEL: 'silent',
    });
    await expect(createApp(config, createLogger('silent'))).rejects.toThrow(
      /^Invalid configuration: DATABASE_URL_VN must be set when DATABASE_URL is/,
    );
  });

  it('runs the embedded PostgreSQL with logical replication allowed', async () => {
    const client = new Client({ connectionString: inject('postgresAdminUrl') });
    await client.connect();
    try {
      expect((await client.query('show wal_level')).rows[0].wal_level).toBe('logical');
    } finally {
      await client.end();
    }
  });
});

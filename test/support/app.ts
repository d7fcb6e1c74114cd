import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as PgClient } from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { type App, createApp } from '../../src/server/app';
import { unsubscribeRegion } from '../../src/db/replication';
import { besideGlobal, regionDatabaseName, regionUrlSetting } from '../../src/db/regions';
import { regions } from '../../src/server/regions';
import { TEMPLATE_DATABASE } from './global-setup';
import { Client, type Http } from './http';

export interface TestApp {
  app: App;
  url: string;
  databaseUrl: string;
  http: Http;
  close(): Promise<void>;
}

/**
 * A database of its own for a test file (and one for each region beside it), copied from the
 * migrated templates file by file: the default strategy (WAL_LOG) writes every page of the template
 * through the WAL, four times as long. Its checkpoints cost nothing on the test cluster, which does
 * not fsync (global-setup.ts).
 */
export async function createTestDatabase(): Promise<string> {
  const name = `test_${randomUUID().replace(/-/g, '')}`;
  const admin = new PgClient({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  try {
    // Each region's beside it, as the service names them (test_…_vn), so that it finds them migrated.
    for (const region of regions) {
      await admin.query(
        `create database "${regionDatabaseName(name, region)}" template "${regionDatabaseName(TEMPLATE_DATABASE, region)}" strategy file_copy`,
      );
    }
  } finally {
    await admin.end();
  }
  return inject('postgresUrlOf').replace('/DATABASE', `/${name}`);
}

/**
 * The settings of every service a test starts (in this process, or a fleet's instances). Limits are
 * high unless a test sets them, so that only the tests about limits meet them.
 */
export const TEST_SETTINGS = {
  NODE_ENV: 'test',
  JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-signing',
  PUBLIC_URL: 'https://learn.example',
  WEB_ORIGIN: 'https://web.example',
  APP_ORIGIN: 'https://app.example',
  RATE_LIMIT_DEFAULT: '100000',
  RATE_LIMIT_AUTH: '100000',
  RATE_LIMIT_AI: '100000',
  RATE_LIMIT_LOGIN_FAILURES: '100000',
  RATE_LIMIT_LOGIN_FAILURES_IP: '100000',
  // Interpreters load when a test first runs code, not in every test file's app, and one at a
  // time: a warm Python process costs about 1.7 s of CPU, and a file that runs one program would
  // otherwise start four (two workers, two spares). The tests of concurrency ask for more.
  CODELAB_PREWARM: 'false',
  CODELAB_WORKERS: '1',
};

/** The real service on a loopback port with a real database. */
export async function startTestApp(
  env: Record<string, string | undefined> = {},
  databaseUrl?: string,
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lp-test-data-'));
  const url = databaseUrl ?? (await createTestDatabase());
  const config = loadConfig({
    ...TEST_SETTINGS,
    DATABASE_URL: url,
    // The regions' databases made beside it, named as a deployment names them (a production app refuses
    // to start without them); an app on a database of the test's own finds or makes them itself.
    ...(databaseUrl
      ? {}
      : Object.fromEntries(regions.slice(1).map((region) => [regionUrlSetting(region), besideGlobal(url, region)]))),
    DATA_DIR: dataDir,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // The suite signs up thousands: 1 MiB hashes, not production's 19 (test/auth/password-hashing
    // checks that default). Only NODE_ENV=test may have them, so not an app a test runs as production.
    ...(env.NODE_ENV && env.NODE_ENV !== 'test' ? {} : { PASSWORD_HASH_MEMORY_KIB: '1024' }),
    ...env,
  });
  const app = await createApp(config, createLogger(config.LOG_LEVEL));
  const address = await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${address.port}`;
  return {
    app,
    url: base,
    databaseUrl: url,
    http: new Client(base),
    async close() {
      await app.close();
      // Its databases are left behind, not their replication: a subscription keeps two processes of
      // the test cluster running, and its slot keeps WAL, until it is dropped.
      if (!databaseUrl) for (const region of regions.slice(1)) await unsubscribeRegion(url, besideGlobal(url, region));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

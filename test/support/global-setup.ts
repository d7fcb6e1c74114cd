import { makeDataDir } from './data-dir';
import { rmSync } from 'node:fs';
import { Client } from 'pg';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { ensureDatabase, startEmbeddedPostgres } from '../../src/db/embedded';
import { besideGlobal, databaseOf } from '../../src/db/regions';
import { migrateRegions, regions } from '../../src/server/regions';
import { freePort } from './ports';

export const TEMPLATE_DATABASE = 'lp_template';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    postgresUrlOf: string;
  }
}

/**
 * One real PostgreSQL for the whole run (the embedded one), with a migrated template database for
 * each region; every test file copies them into databases of its own.
 */
export default async function setup(project: TestProject) {
  const dataDir = makeDataDir('lp-test-pg-');
  const port = await freePort();
  const first = await startEmbeddedPostgres(dataDir, port);
  await forTests(first.url('postgres'));
  // Started again: max_connections and the replication settings are read only at start.
  await first.stop();
  const postgres = await startEmbeddedPostgres(dataDir, port);
  const templateOf = (region: string) => besideGlobal(postgres.url(TEMPLATE_DATABASE), region);
  // A template for every region's database too (lp_template_vn), named as the service names them.
  for (const region of regions) await ensureDatabase(postgres.url('postgres'), databaseOf(templateOf(region)));
  await migrateRegions(new Map(regions.map((region) => [region, templateOf(region)])), () => {});
  project.provide('postgresAdminUrl', postgres.url('postgres'));
  project.provide('postgresUrlOf', postgres.url('DATABASE'));
  return async () => {
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

/**
 * This cluster lives for one run and is deleted after it: it need not survive the machine
 * crashing, so commits and the checkpoints of each template copy (app.ts) do not wait for a disk
 * shared with other work. A crash of PostgreSQL itself (the supervision tests) still loses nothing.
 */
async function forTests(adminUrl: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes'])
      await client.query(`alter system set ${setting} = off`);
    // Two test files at once, each with up to a few applications of a dozen connections, and the
    // spawned services of the process tests: PostgreSQL's 100 ran out in a run.
    await client.query('alter system set max_connections = 300');
    // Each application subscribes its regions' databases to its global one (a slot, a sender and an
    // apply worker while it runs, dropped when it closes): PostgreSQL's defaults allow four at once.
    for (const [setting, value] of [
      ['max_replication_slots', 100],
      ['max_wal_senders', 100],
      ['max_logical_replication_workers', 64],
      ['max_worker_processes', 96],
    ] as const)
      await client.query(`alter system set ${setting} = ${value}`);
    await client.query('select pg_reload_conf()');
  } finally {
    await client.end();
  }
}

import { makeDataDir } from './data-dir';
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node' with { 'resolution-mode': 'import' };
import { ensureDatabase, startEmbeddedPostgres } from '../../src/db/embedded';
import { migrate } from '../../src/db/orm';
import { openAppDatabase } from '../../src/server/platform';
import { freePort } from './ports';

export const TEMPLATE_DATABASE = 'lp_template';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string;
    postgresUrlOf: string;
  }
}

/**
 * One real PostgreSQL for the whole run (the embedded one), with a migrated template database;
 * every test file copies the template into a database of its own.
 */
export default async function setup(project: TestProject) {
  const dataDir = makeDataDir('lp-test-pg-');
  const port = await freePort();
  const postgres = await startEmbeddedPostgres(dataDir, port);
  await ensureDatabase(postgres.url('postgres'), TEMPLATE_DATABASE);
  const orm = await openAppDatabase(postgres.url(TEMPLATE_DATABASE));
  await migrate(orm);
  await orm.close();
  project.provide('postgresAdminUrl', postgres.url('postgres'));
  project.provide('postgresUrlOf', postgres.url('DATABASE'));
  return async () => {
    await postgres.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { MigrationRefused, migrationStatus, revertMigrations } from '../db/migration-commands';
import { model } from '../server/platform';
import { withDatabase } from './database';

const { migrations } = model;

const usage = 'Usage: npm run db:migrate [-- --status | --down | --to <migration name>]';

/**
 * Migrates the configured database (DATABASE_URL, or the embedded one) to the latest version, or
 * lists what is applied (`--status`), or reverts the last migration (`--down`) or every migration
 * after a named one (`--to`). It runs as the database's owner, like the migrations at start-up:
 * the service's own role (src/db/app-role.ts) may not alter tables.
 */
async function main() {
  const { values } = parseArgs({
    options: { status: { type: 'boolean' }, down: { type: 'boolean' }, to: { type: 'string' } },
  });
  if ([values.status, values.down, values.to !== undefined].filter(Boolean).length > 1) throw new ConfigError(usage);
  const config = loadConfig();
  if (values.status) {
    const states = await withDatabase(config, (orm) => migrationStatus(orm, migrations), { migrated: false });
    for (const state of states) {
      const known = migrations.some((m) => m.name === state.name);
      console.log(
        `${state.applied ? 'applied' : 'pending'}  ${state.name}${state.executedAt ? `  ${state.executedAt.toISOString()}` : ''}${known ? '' : '  (unknown to this build)'}`,
      );
    }
    const pending = states.filter((s) => !s.applied).length;
    console.log(pending ? `${pending} pending: npm run db:migrate applies them.` : 'Up to date.');
  } else if (values.down || values.to !== undefined) {
    const reverted = await withDatabase(config, (orm) => revertMigrations(orm, migrations, values.to), {
      migrated: false,
    });
    for (const name of reverted) console.log(`reverted  ${name}`);
    console.log(
      reverted.length
        ? `Reverted ${reverted.length} migration${reverted.length > 1 ? 's' : ''}.`
        : `Nothing to revert: ${values.to} is the last applied migration.`,
    );
  } else {
    await withDatabase(config, async () => console.log('Database migrated.'));
  }
}

main().catch((error) => {
  if (error instanceof ConfigError || error instanceof MigrationRefused) console.error(error.message);
  else console.error(`db:migrate failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});

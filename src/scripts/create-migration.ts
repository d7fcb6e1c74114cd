import 'reflect-metadata';
import { loadConfig } from '../config';
import { withDatabase } from './database';

/** Writes a migration for the difference between the entities and the migrated database. */
async function main() {
  const config = loadConfig();
  await withDatabase(config, async (orm) => {
    const result = await orm.getMigrator().createMigration(undefined, false, process.argv.includes('--initial'));
    if (!result.fileName) {
      console.log('No changes: the entities match the database.');
      return;
    }
    console.log(`Wrote src/db/migrations/${result.fileName}; add it to src/db/migrations/index.ts.`);
  });
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

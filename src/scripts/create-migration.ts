import 'reflect-metadata';
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { areas } from '../areas';
import { loadConfig } from '../config';
import type { Orm } from '../db/orm';
import { withDatabase } from './database';

const FOUNDATION = join('src', 'db', 'migrations');

/** The area whose entities own each table; tables of no area are the foundation's (src/db). */
function tableOwners(orm: Orm): Map<string, string> {
  const owners = new Map<string, string>();
  for (const area of areas) {
    for (const entity of area.entities ?? []) {
      const meta = orm.getMetadata().find((entity as { name: string }).name);
      if (meta?.tableName) owners.set(meta.tableName, area.name);
    }
  }
  return owners;
}

/** Areas whose tables the statements name; `db` for the foundation's. */
function areasOf(statements: string[], owners: Map<string, string>): Set<string> {
  const found = new Set<string>();
  for (const statement of statements) {
    for (const [, table] of statement.matchAll(/(?:table|on|references|into|from)\s+"?(\w+)"?/gi)) {
      const owner = owners.get(table);
      if (owner) found.add(owner);
    }
  }
  return found.size ? found : new Set(['db']);
}

/**
 * Writes a migration for the difference between the entities and the migrated database, into the
 * folder of the area that owns the changed tables (`--area <name>` when they belong to several).
 */
async function main() {
  const config = loadConfig();
  const asked = process.argv.includes('--area') ? process.argv[process.argv.indexOf('--area') + 1] : undefined;
  if (asked && asked !== 'db' && !areas.some((a) => a.name === asked)) throw new Error(`No area is named ${asked}.`);
  await withDatabase(config, async (orm) => {
    // Written where the foundation's migrations live, then moved to the area that owns them.
    const result = await orm.getMigrator().createMigration(undefined, false, process.argv.includes('--initial'));
    if (!result.fileName) {
      console.log('No changes: the entities match the database.');
      return;
    }
    const owners = areasOf(result.diff.up, tableOwners(orm));
    const area = asked ?? (owners.size === 1 ? [...owners][0] : 'db');
    const written = join(FOUNDATION, result.fileName);
    if (area !== 'db') {
      mkdirSync(join('src', area, 'migrations'), { recursive: true });
      renameSync(written, join('src', area, 'migrations', result.fileName));
    }
    const file = area === 'db' ? written : join('src', area, 'migrations', result.fileName);
    const list = area === 'db' ? 'src/db/migrations/index.ts' : `the migrations of src/${area}/index.ts`;
    console.log(`Wrote ${file}; add it to ${list}.`);
    if (!asked && owners.size > 1)
      console.log(
        `It changes the tables of ${[...owners].join(', ')}: move it to the area that owns the change (or say --area <name>).`,
      );
  });
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

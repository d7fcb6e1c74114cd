import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Migration } from '@mikro-orm/migrations';
import { Client } from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { MigrationRefused, migrationStatus, revertMigrations } from '../../src/db/migration-commands';
import { openDatabase } from '../../src/db/orm';
import { model } from '../../src/server/platform';
import { createTestDatabase } from '../support/app';

const { migrations } = model;

const run = promisify(execFile);
const script = 'dist/src/scripts/migrate.js';
const names = migrations.map((m) => m.name);
const last = names.at(-1)!;
/** Each run starts a node that loads the whole service: seconds each on a loaded machine. */
const SLOW = { timeout: 240_000 };

let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});

const migrate = (...args: string[]) =>
  run('node', [script, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' } });
const failing = (...args: string[]) =>
  migrate(...args).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => error,
  );

/** What the database's owner sees: the rows of the migrations table, and whether a table (or a table's column) exists. */
async function database(table: string, column?: string): Promise<{ applied: string[]; exists: boolean }> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const applied = (
      await client.query<{ name: string }>('select name from mikro_orm_migrations order by id')
    ).rows.map((r) => r.name);
    const found = await client.query(
      'select 1 from information_schema.columns where table_schema = $1 and table_name = $2 and ($3::text is null or column_name = $3) limit 1',
      ['public', table, column ?? null],
    );
    return { applied, exists: found.rowCount === 1 };
  } finally {
    await client.end();
  }
}

/** The `applied`/`pending` word `--status` prints for each migration. */
function statusOf(stdout: string): Record<string, string> {
  return Object.fromEntries(
    [...stdout.matchAll(/^(applied|pending) +(\S+)/gm)].map(([, state, name]) => [name, state]),
  );
}

describe('npm run db:migrate', () => {
  it('--status lists every migration as applied on a migrated database, and exits 0', SLOW, async () => {
    const { stdout } = await migrate('--status');
    expect(statusOf(stdout)).toEqual(Object.fromEntries(names.map((n) => [n, 'applied'])));
    expect(stdout).toContain('Up to date.');
  });

  it(
    '--down reverts the last migration only, --status shows it pending, and a plain run applies it again',
    SLOW,
    async () => {
      const { stdout } = await migrate('--down');
      expect(stdout).toContain(`reverted  ${last}`);
      expect((await database('users')).applied).toEqual(names.slice(0, -1));
      const status = statusOf((await migrate('--status')).stdout);
      expect(status[last]).toBe('pending');
      expect(Object.values(status).filter((s) => s === 'pending')).toHaveLength(1);

      await migrate();
      expect((await database('users')).applied).toEqual(names);
    },
  );

  it('--to <name> reverts every migration after it, leaving it applied', SLOW, async () => {
    // The migration after it adds entitlements.revoked_reason.
    const target = 'Migration20261125100000_audit_append_only';
    expect((await database('entitlements', 'revoked_reason')).exists).toBe(true);
    const { stdout } = await migrate('--to', target);
    const after = names.slice(names.indexOf(target) + 1);
    expect(stdout.match(/^reverted {2}\S+/gm)).toEqual(after.reverse().map((n) => `reverted  ${n}`));
    expect(await database('entitlements', 'revoked_reason')).toEqual({
      applied: names.slice(0, names.indexOf(target) + 1),
      exists: false,
    });

    await migrate();
    expect(await database('entitlements', 'revoked_reason')).toEqual({ applied: names, exists: true });
  });

  it('refuses an unknown name or conflicting options with one line and exit 1, changing nothing', SLOW, async () => {
    for (const args of [['--to', 'Migration20990101000000_nothing'], ['--down', '--status'], ['--sideways']]) {
      const failure = await failing(...args);
      expect(failure.code, args.join(' ')).toBe(1);
      expect(failure.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect((await database('users')).applied).toEqual(names);
  });
});

/** A migration as `npm run migration:create` writes one when the change cannot be undone. */
class Migration20991231000000_irreversible extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table "irreversible_probe" ("id" int primary key);');
  }
}

/** A reversible one above it: reverting to before the irreversible one must not revert this one alone either. */
class Migration20991231000001_reversible extends Migration {
  override async up(): Promise<void> {
    this.addSql('create table "reversible_probe" ("id" int primary key);');
  }
  override async down(): Promise<void> {
    this.addSql('drop table "reversible_probe";');
  }
}

describe('a migration without down()', () => {
  it('refuses the revert before any SQL runs, so nothing is half-reverted', SLOW, async () => {
    const list = [
      ...migrations,
      { name: 'Migration20991231000000_irreversible', class: Migration20991231000000_irreversible },
      { name: 'Migration20991231000001_reversible', class: Migration20991231000001_reversible },
    ];
    const orm = await openDatabase(databaseUrl, { entities: [], migrations: list });
    try {
      await orm.getMigrator().up();
      const error = await revertMigrations(orm, list, last).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationRefused);
      expect((error as Error).message).toBe(
        'Migration20991231000000_irreversible has no down(): it cannot be reverted, and nothing was reverted.',
      );
      expect((await migrationStatus(orm, list)).every((s) => s.applied)).toBe(true);
      expect((await database('reversible_probe')).exists).toBe(true);

      // The reversible one above it still reverts on its own.
      expect(await revertMigrations(orm, list)).toEqual(['Migration20991231000001_reversible']);
      expect((await database('reversible_probe')).exists).toBe(false);
    } finally {
      await orm.close();
    }
  });
});

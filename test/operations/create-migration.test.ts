import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/app';

const run = promisify(execFile);
const script = resolve('dist/src/scripts/create-migration.js');
// The script writes under its working directory's src/: a folder of the test's own stands in for the project.
const project = mkdtempSync(join(tmpdir(), 'lp-migration-create-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

async function asOwner(databaseUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

describe('npm run migration:create', () => {
  it('writes the migration into the folder of the area whose table changed', { timeout: 240_000 }, async () => {
    const databaseUrl = await createTestDatabase();
    mkdirSync(join(project, 'src', 'db', 'migrations'), { recursive: true });
    // The database as an older version left it: the contact area's entity has a column its table lacks.
    await asOwner(databaseUrl, 'alter table contact_messages drop column resolved_at');

    const { stdout } = await run('node', [script], {
      cwd: project,
      env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: project, LOG_LEVEL: 'silent' },
    });

    const written = readdirSync(join(project, 'src', 'contact', 'migrations'));
    expect(written).toHaveLength(1);
    expect(stdout).toContain(
      `Wrote src/contact/migrations/${written[0]}; add it to the migrations of src/contact/index.ts.`,
    );
    expect(readFileSync(join(project, 'src', 'contact', 'migrations', written[0]), 'utf8')).toMatch(
      /alter table "contact_messages" add column "resolved_at" timestamptz null/,
    );
    expect(readdirSync(join(project, 'src', 'db', 'migrations'))).toEqual([]);
  });
});

import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { model } from '../../src/server/platform';
import { createTestDatabase } from '../support/app';

const run = promisify(execFile);
const READDRESSED = 'Migration20261129000500_outbox_reactions_readdressed';

let databaseUrl: string;
beforeAll(async () => {
  databaseUrl = await createTestDatabase();
});

const migrate = (...args: string[]) =>
  run('node', ['dist/src/scripts/migrate.js', ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' },
  });

async function asOwner<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

it(
  'hands the reactions waiting for commerce and CodeLab to the areas that react now, so none is lost on the upgrade',
  { timeout: 240_000 },
  async () => {
    const names = model.migrations.map((m) => m.name);
    const beforeReaddressed = names[names.indexOf(READDRESSED) - 1];
    await migrate('--to', beforeReaddressed);
    // Written before the split: a payment's sales count for commerce, a revoked consent's reaction for CodeLab (one due, one given up).
    await asOwner((db) =>
      db.query(`insert into outbox (kind, name, payload, failed_at) values
      ('event', 'commerce', '{"type": "payment.succeeded", "productId": "p1"}', null),
      ('event', 'codelab', '{"type": "consentRevoked", "subjectId": "s1", "consentType": "progress_sharing"}', null),
      ('event', 'codelab', '{"type": "consentRevoked", "subjectId": "s2", "consentType": "progress_sharing"}', now()),
      ('mail', 'mail', '{"to": "a@example.com"}', null)`),
    );
    await migrate();
    const rows = await asOwner(
      async (db) =>
        (
          await db.query(
            `select kind, name, payload ->> 'subjectId' as subject, failed_at is not null as failed from outbox order by kind, name, subject`,
          )
        ).rows,
    );
    expect(rows).toEqual([
      { kind: 'event', name: 'catalog', subject: null, failed: false },
      { kind: 'event', name: 'portfolio', subject: 's1', failed: false },
      { kind: 'event', name: 'portfolio', subject: 's2', failed: true },
      { kind: 'event', name: 'projects', subject: 's1', failed: false },
      { kind: 'event', name: 'projects', subject: 's2', failed: true },
      { kind: 'mail', name: 'mail', subject: null, failed: false },
    ]);
    // And back (with the migrations after it): the rows are commerce's and CodeLab's again, one each.
    await migrate('--to', beforeReaddressed);
    const before = await asOwner(
      async (db) =>
        (await db.query(`select name, count(*)::int as n from outbox where kind = 'event' group by name order by name`))
          .rows,
    );
    expect(before).toEqual([
      { name: 'codelab', n: 2 },
      { name: 'commerce', n: 1 },
    ]);
  },
);

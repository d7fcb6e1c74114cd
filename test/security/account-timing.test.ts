import { Client as PgClient } from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { ownerOf } from '../support/regions';
import { withMailAndApp } from '../support/setup';
import type { SmtpServer } from '../support/smtp';
import { type SignedIn, signUp, uniqueEmail } from '../support/users';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let account: SignedIn;
beforeAll(async () => {
  ({ t, smtp } = ctx);
  account = await signUp(t);
});

/** Every region's database, as its owner: an address's account is in one of them. */
const regionUrls = () => t.app.deps.regions.map((region) => ownerOf(t, region.region).databaseUrl);

/** The accounts' tables of every region's database, locked in a transaction of each. */
async function lockedAccounts(): Promise<PgClient[]> {
  const clients = regionUrls().map((url) => new PgClient({ connectionString: url }));
  for (const client of clients) {
    await client.connect();
    await client.query('begin');
    await client.query('lock table users, account_tokens in access exclusive mode');
  }
  return clients;
}

async function release(clients: PgClient[]): Promise<void> {
  for (const client of clients) {
    await client.query('rollback');
    await client.end();
  }
}

/** Times one request, in milliseconds. */
async function timed(run: () => Promise<{ status: number }>): Promise<{ ms: number; status: number }> {
  const start = performance.now();
  const { status } = await run();
  return { ms: performance.now() - start, status };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

describe('forgot-password and resend-verification', () => {
  it('answer before any work on the account: with its tables locked, both still answer at once', async () => {
    const pg = await lockedAccounts();
    try {
      for (const path of ['/auth/forgot-password', '/auth/resend-verification']) {
        for (const email of [account.email, uniqueEmail('nobody')]) {
          const reply = await timed(() => t.http.post(path, { email }));
          expect(reply.status, `${path} ${email}`).toBe(202);
          expect(reply.ms, `${path} waited for the database`).toBeLessThan(1000);
        }
      }
    } finally {
      await release(pg);
    }
    // The work is done once the tables are free.
    await smtp.waitFor(account.email, /reset|đặt lại/i, 10_000);
  });

  it('answer once the mail is certain: its outbox row is committed, for an address with an account and one without', async () => {
    const known = (await signUp(t)).email;
    const unknown = uniqueEmail('nobody');
    // The accounts are out of reach, so nothing past the answer's own commit can have happened yet.
    const pg = await lockedAccounts();
    const readers = regionUrls().map((url) => new PgClient({ connectionString: url }));
    await Promise.all(readers.map((reader) => reader.connect()));
    try {
      for (const path of ['/auth/forgot-password', '/auth/resend-verification']) {
        for (const email of [known, unknown])
          expect((await t.http.post(path, { email })).status, `${path} ${email}`).toBe(202);
      }
      // A relay holding a row in its transaction leaves it in sight of others until that commits.
      // Each in the outbox of the region that answers for the address: its account's, else global's.
      const rows = (
        await Promise.all(
          readers.map((reader) =>
            reader.query(
              `select payload->>'email' as email, payload->>'purpose' as purpose from outbox where payload->>'email' = any($1) order by id`,
              [[known, unknown]],
            ),
          ),
        )
      ).flatMap((result) => result.rows);
      expect(rows.map((row) => `${row.purpose} ${row.email}`).sort()).toEqual(
        [
          `reset_password ${known}`,
          `reset_password ${unknown}`,
          `verify_email ${known}`,
          `verify_email ${unknown}`,
        ].sort(),
      );
    } finally {
      await release(pg);
      await Promise.all(readers.map((reader) => reader.end()));
    }
    // Then each is sent once: the sign-up's confirmation and the one asked again, and the reset link.
    await smtp.waitFor(known, /reset|đặt lại/i, 10_000);
    const confirmations = () =>
      smtp.received.filter((m) => m.to.includes(known) && /confirm|xác nhận/i.test(m.subject)).length;
    for (let waited = 0; confirmations() < 2 && waited < 10_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    expect([
      confirmations(),
      smtp.received.filter((m) => m.to.includes(known) && /reset|đặt lại/i.test(m.subject)).length,
    ]).toEqual([2, 1]);
    expect(smtp.received.filter((m) => m.to.includes(unknown))).toHaveLength(0);
  });

  it('take about as long for an address with an account as for one without', async () => {
    const samples: Record<string, number[]> = { existing: [], missing: [] };
    for (let i = 0; i < 30; i++) {
      for (const [kind, email] of [
        ['existing', account.email],
        ['missing', uniqueEmail('nobody')],
      ] as const) {
        samples[kind].push(
          (await timed(() => t.http.post(i % 2 ? '/auth/forgot-password' : '/auth/resend-verification', { email }))).ms,
        );
      }
    }
    const [existing, missing] = [median(samples.existing), median(samples.missing)];
    console.log(`median answer: existing ${existing.toFixed(2)} ms, missing ${missing.toFixed(2)} ms`);
    expect(Math.abs(existing - missing)).toBeLessThan(Math.max(2, missing * 0.5));
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf, ownerOfAccount } from '../support/regions';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { adultSignup, signUp } from '../support/users';

/** Mail is an outbox row written with the change, retried with backoff: refused sends are tried again, and a restart loses nothing. */
let smtp: SmtpServer;
let t: TestApp;
const env = () => ({ SMTP_URL: smtp.url, MAIL_RETRY_DELAY_MS: '300', MAIL_RETRIES: '8' });
const resetMails = (to: string) => smtp.received.filter((m) => m.to.includes(to) && /reset|đặt lại/i.test(m.subject));
/** The mails queued to an account, in its home region's outbox: the relay of that region sends them. */
async function queued(app: TestApp, user: { id: string; email: string }): Promise<number> {
  const home = await homeOf(app, user.id);
  const [row] = await home.sql.unlogged<{ n: number }>(
    `select count(*)::int as n from outbox where kind = 'mail' and payload->>'to' = ?`,
    [user.email],
  );
  return row.n;
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp(env());
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('the mail queue', () => {
  it('tries a refused mail again with growing delays, and it arrives once; its row is then removed', async () => {
    const user = await signUp(t, adultSignup());
    await smtp.waitFor(user.email);
    smtp.attempts.length = 0;
    smtp.refuseNext(2);
    expect((await t.http.post('/auth/forgot-password', { email: user.email })).status).toBe(202);
    await smtp.waitFor(user.email, /reset|đặt lại/i, 15_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(resetMails(user.email)).toHaveLength(1);
    expect(smtp.attempts.map((a) => a.refused)).toEqual([true, true, false]);
    const [a, b, c] = smtp.attempts.map((x) => x.at);
    expect(b - a).toBeGreaterThanOrEqual(250);
    expect(c - b).toBeGreaterThan(b - a);
    expect(await queued(t, user)).toBe(0);
  });

  it('keeps a mail that could not be sent across a restart: the next process sends it, once', async () => {
    const user = await signUp(t, adultSignup());
    await smtp.waitFor(user.email);
    smtp.attempts.length = 0;
    smtp.refuseNext(1_000);
    expect((await t.http.post('/auth/forgot-password', { email: user.email })).status).toBe(202);
    for (let waited = 0; smtp.attempts.length < 2 && waited < 10_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    expect(smtp.attempts.length).toBeGreaterThanOrEqual(2);
    const databaseUrl = t.databaseUrl;
    const home = await ownerOfAccount(t, user.id);
    await t.close();
    expect(await queuedIn(home.databaseUrl, user.email)).toBe(1);
    expect(resetMails(user.email)).toHaveLength(0);

    smtp.refuseNext(0);
    t = await startTestApp(env(), databaseUrl);
    await smtp.waitFor(user.email, /reset|đặt lại/i, 20_000);
    await new Promise((r) => setTimeout(r, 1500));
    expect(resetMails(user.email)).toHaveLength(1);
    expect(await queued(t, user)).toBe(0);
  });
});

describe('a mail server slower than the outbox lease', () => {
  it('gets the mail once, though two relays share the queue: the relay sending it renews its lease', async () => {
    // A lease of 900 ms, swept every 200 ms: without renewals the other relay takes the row back mid-send.
    const fast = { ...env(), OUTBOX_LEASE_MS: '900', OUTBOX_SWEEP_MS: '200' };
    const first = await startTestApp(fast);
    const second = await startTestApp(fast, first.databaseUrl);
    try {
      const user = await signUp(first, adultSignup());
      await smtp.waitFor(user.email);
      smtp.answerAfter(3000);
      expect((await first.http.post('/auth/forgot-password', { email: user.email })).status).toBe(202);
      await smtp.waitFor(user.email, /reset|đặt lại/i, 15_000);
      await new Promise((r) => setTimeout(r, 3500));
      expect(resetMails(user.email)).toHaveLength(1);
      expect(await queued(first, user)).toBe(0);
    } finally {
      smtp.answerAfter(0);
      await Promise.all([first.close(), second.close()]);
    }
  });
});

/** The queue as stored, read with a connection of its own while no service runs. */
async function queuedIn(databaseUrl: string, to: string): Promise<number> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from outbox where kind = 'mail' and payload->>'to' = $1`,
      [to],
    );
    return rows[0].n;
  } finally {
    await client.end();
  }
}

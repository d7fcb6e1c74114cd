import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, startTestApp } from '../support/app';
import { killHard, sqlOn, startServiceProcess, until } from '../support/service-process';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { adultSignup, type SignedIn, signUpVerified } from '../support/users';

/**
 * Two service processes on one database; the relay of the first claims a mail and then stalls past
 * its lease without dying: its statements other than claims (the renewals of its lease, and whatever
 * else it asks before sending) wait five seconds before they reach the outbox, as they do when an
 * instance is paused or its database connections are starved. The second takes the mail over when
 * the lease ends and sends it; the first, going on, must not send it too.
 */
const LEASE_MS = 900;
const STALL_S = 5;
const resetSubject = /reset|đặt lại/i;
let smtp: SmtpServer;
let databaseUrl: string;
let account: SignedIn;
const children: ChildProcess[] = [];

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sqlOn<T>(databaseUrl, text, params);

const service = (name: string) =>
  startServiceProcess(
    databaseUrl,
    { PGAPPNAME: name, SMTP_URL: smtp.url, OUTBOX_LEASE_MS: String(LEASE_MS), OUTBOX_SWEEP_MS: '200' },
    children,
  );

beforeAll(async () => {
  smtp = await startSmtpServer();
  databaseUrl = await createTestDatabase();
  const setup = await startTestApp({ SMTP_URL: smtp.url }, databaseUrl);
  try {
    // An account of global's database, where the test holds back the stalled instance's statements.
    account = await signUpVerified(setup, smtp, adultSignup({ country: 'DE' }));
  } finally {
    await setup.close();
  }
}, 120_000);
afterAll(async () => {
  await Promise.all(children.map((child) => killHard(child)));
  await smtp?.close();
});

describe('a relay that stalls past its lease after claiming a mail', () => {
  it('leaves it to the relay that took it over: the mail arrives once', async () => {
    // The stalled instance's statements on the outbox, claims aside, wait before touching a row (a
    // statement trigger runs before any row is locked, so the other relay's claims are not held up).
    await sql(`create function stall() returns trigger language plpgsql as $$
      begin
        if current_setting('application_name') = 'stalled' and position('set attempts' in current_query()) = 0 then
          perform pg_sleep(${STALL_S});
        end if;
        return null;
      end $$`);
    await sql('create trigger stall before update on outbox for each statement execute function stall()');
    // Until the stalled instance has claimed the mail, the other's claims are refused (released by a
    // row, not by dropping the trigger: that waits for the stalled statements' lock on the table).
    await sql('create table hold (held boolean)');
    await sql('insert into hold values (true)');
    await sql(
      `create function refuse_other() returns trigger language plpgsql security definer as $$ begin if exists (select 1 from hold) then raise exception 'held for the stalled instance by the test'; end if; return new; end $$`,
    );
    await sql(
      `create trigger hold_other before update on outbox for each row when (current_setting('application_name') = 'other') execute function refuse_other()`,
    );
    const stalled = await service('stalled');
    await service('other');
    // A slow mail server: a mail sent at once is still being answered when the lease runs out.
    smtp.answerAfter(STALL_S * 1000);
    try {
      expect((await stalled.http.post('/auth/forgot-password', { email: account.email })).status).toBe(202);
      const claimed = await until(
        () => sql<{ attempts: number }>(`select attempts from outbox where kind = 'mail'`),
        (rows) => rows.length === 1 && rows[0].attempts === 1,
        10_000,
      );
      expect(claimed).toEqual([{ attempts: 1 }]);
      await sql('delete from hold');

      // The other relay takes it over once the lease ends, and sends it.
      const takenOver = await until(
        () => sql(`select 1 from outbox where kind = 'mail' and attempts = 2`),
        (rows) => rows.length === 1,
        10_000,
      );
      expect(takenOver).toHaveLength(1);
      await until(
        () => sql(`select 1 from outbox where kind = 'mail'`),
        (rows) => rows.length === 0,
        20_000,
      );
      // Room for the stalled relay to go on and for its mail, if it sent one, to be answered.
      await new Promise((r) => setTimeout(r, (STALL_S + 2) * 1000));
      expect(smtp.received.filter((m) => m.to.includes(account.email) && resetSubject.test(m.subject))).toHaveLength(1);
    } finally {
      smtp.answerAfter(0);
    }
  }, 180_000);
});

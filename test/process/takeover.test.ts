import type { ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { Client as Pg } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout, publishedProduct, sandboxEvents } from '../support/commerce';
import { contentAdmin } from '../learning/support';
import { createTestDatabase, startTestApp, type TestApp } from '../support/app';
import { startModelServer } from '../support/model-server';
import { killHard, sqlOn, startServiceProcess, until } from '../support/service-process';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { adultSignup, type SignedIn, signInAdmin, signUp, signUpVerified } from '../support/users';

/**
 * Two service processes on one database. The first commits a mail, an export, a course generation
 * (a job) and a payment webhook's reaction, claims each and is killed (-9) in the middle of
 * delivering them; the second delivers each exactly once when its lease ends.
 *
 * What makes "in the middle" certain: until the kill, the survivor's claims are refused by triggers
 * that know it by its connections' application_name, and each of the first process's deliveries
 * waits on something the test holds: its mail server never answers, a table the export reads and
 * the product row the reaction counts a sale on are locked, the model answers after a minute.
 */
const LEASE_MS = 4000;
const SWEEP_MS = 500;
let smtp: SmtpServer;
let databaseUrl: string;
let models: Awaited<ReturnType<typeof startModelServer>>;
/** A mail server that takes connections and never answers a command. */
let silent: Server;
const held: Socket[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  models = await startModelServer();
  // It greets (a server that does not is given up after 30 s), then answers nothing.
  silent = createServer((socket) => {
    held.push(socket);
    socket.write('220 silent.test ESMTP\r\n');
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  databaseUrl = await createTestDatabase();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  for (const socket of held) socket.destroy();
  await new Promise((resolve) => silent?.close(resolve));
  await models?.close();
  await smtp?.close();
});

const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => sqlOn<T>(databaseUrl, text, params);

const service = (name: string, smtpUrl: string) =>
  startServiceProcess(
    databaseUrl,
    {
      PGAPPNAME: name,
      SMTP_URL: smtpUrl,
      OUTBOX_LEASE_MS: String(LEASE_MS),
      OUTBOX_SWEEP_MS: String(SWEEP_MS),
      JOBS_LOCK_LIFETIME_MS: String(LEASE_MS),
      FACTORY_PROVIDERS: 'research=open_weight',
      OPEN_WEIGHT_LLM_URL: models.url,
      LLM_MALFORMED_RETRIES: '0',
    },
    children,
  );

describe('an instance killed (-9) in the middle of delivering what it committed', () => {
  let owner: SignedIn;
  let editor: SignedIn;
  let buyer: SignedIn;
  let product: Awaited<ReturnType<typeof publishedProduct>>;
  let pay: { body: string; signature: string };

  beforeAll(async () => {
    const setup: TestApp = await startTestApp({ SMTP_URL: smtp.url }, databaseUrl);
    try {
      // Accounts of a global country: the test holds the outbox, the jobs and the tables the work
      // waits on in global's database, where their rows then are; which region is not what it tests.
      owner = await signUpVerified(setup, smtp, adultSignup({ country: 'DE' }));
      editor = await contentAdmin(setup);
      product = await publishedProduct(setup, await signInAdmin(setup));
      buyer = await signUp(setup, adultSignup({ country: 'DE' }));
      const started = await checkout(setup, buyer, { productId: product.id, priceId: product.prices[0].id });
      pay = (await sandboxEvents(setup, started.body.redirectUrl)).pay;
    } finally {
      await setup.close();
    }
  }, 120_000);

  it('has the other instance deliver each exactly once when its lease ends', async () => {
    await sql(
      `create function refuse_survivor() returns trigger language plpgsql as $$ begin raise exception 'held for the doomed instance by the test'; end $$`,
    );
    for (const table of ['outbox', 'agenda_jobs']) {
      await sql(
        `create trigger hold_survivor before update on ${table} for each row when (current_setting('application_name') = 'survivor') execute function refuse_survivor()`,
      );
    }
    models.state.delayMs = 60_000;
    models.state.chat = () => ({
      content: JSON.stringify({
        summary: { en: 'Loops', vi: 'Vòng lặp' },
        concepts: [{ name: { en: 'loops', vi: 'vòng lặp' }, explanation: { en: 'repeat', vi: 'lặp lại' } }],
      }),
    });

    const doomed = await service('doomed', `smtp://127.0.0.1:${(silent.address() as { port: number }).port}`);
    const survivor = await service('survivor', smtp.url);
    const holder = new Pg({ connectionString: databaseUrl });
    await holder.connect();
    await holder.query('begin');
    await holder.query('lock table guardian_reports in access exclusive mode');
    await holder.query('select 1 from products where id = $1 for update', [product.id]);
    try {
      // The mail first: its delivery hangs, and must not hold up the relay's claims of what follows.
      expect((await doomed.http.post('/auth/forgot-password', { email: owner.email })).status).toBe(202);
      const exported = await doomed.http.post('/gdpr/export', {}, { token: owner.accessToken });
      expect(exported.status).toBe(202);
      const generation = await doomed.http.post(
        '/factory/generate',
        { topic: 'Loops', level: 'beginner', ageRange: '9-12', lessonCount: 1 },
        { token: editor.accessToken },
      );
      expect(generation.status).toBe(202);
      const paid = await doomed.http.rest('POST', '/payments/webhooks/sandbox', {
        raw: pay.body,
        headers: { 'x-sandbox-signature': pay.signature },
      });
      expect(paid.status).toBe(200);

      // Each is claimed by the doomed instance and stuck in its delivery.
      const claimed = await until(
        async () => ({
          mailSending: held.length > 0,
          exportRunning:
            (await sql<{ status: string }>('select status from gdpr_requests where id = $1', [exported.body.id]))[0]
              ?.status === 'running',
          researching:
            (
              await sql(
                `select 1 from generation_stages where generation_id = $1 and name = 'research' and status = 'running'`,
                [generation.body.id],
              )
            ).length === 1,
          reactionClaimed:
            (await sql(`select 1 from outbox where kind = 'event' and name = 'catalog' and attempts > 0`)).length === 1,
        }),
        (state) => Object.values(state).every(Boolean),
        30_000,
      );
      expect(claimed).toEqual({ mailSending: true, exportRunning: true, researching: true, reactionClaimed: true });

      await killHard(doomed.child);
      const killedAt = Date.now();
      models.state.delayMs = 0;
      // First the locks: the dead instance's backends wait on them, and hold the tables the triggers are on.
      await holder.query('rollback');
      await sql('drop trigger hold_survivor on outbox');
      await sql('drop trigger hold_survivor on agenda_jobs');

      const resetSubject = /reset|đặt lại/i;
      const exportSubject = /export|xuất|dữ liệu|data/i;
      const after = (done: () => Promise<boolean>) =>
        until(
          async () => ((await done()) ? Date.now() - killedAt : null),
          (ms) => ms !== null,
          60_000,
        );
      const [mail, exportMail, course, sale] = await Promise.all([
        after(async () => smtp.received.some((m) => m.to.includes(owner.email) && resetSubject.test(m.subject))),
        after(async () => smtp.received.some((m) => m.to.includes(owner.email) && exportSubject.test(m.subject))),
        after(
          async () =>
            (await survivor.http.get(`/factory/generations/${generation.body.id}`, { token: editor.accessToken })).body
              .status === 'awaiting_approval',
        ),
        after(
          async () =>
            (await sql<{ sales: number }>('select sales from products where id = $1', [product.id]))[0].sales === 1,
        ),
      ]);
      console.log(
        `after the kill, delivered by the other instance in: mail ${mail} ms, export (and its mail) ${exportMail} ms, course generation ${course} ms, the webhook's reaction ${sale} ms (lease ${LEASE_MS} ms)`,
      );
      for (const ms of [mail, exportMail, course, sale]) {
        expect(ms).not.toBeNull();
        // Within the lease, the sweep that finds it over, and the work itself.
        expect(ms!).toBeLessThan(LEASE_MS * 2 + 5000);
      }

      // Exactly once: nothing more arrives once the outbox is empty.
      await until(
        () => sql('select 1 from outbox where failed_at is null'),
        (rows) => rows.length === 0,
      );
      await new Promise((r) => setTimeout(r, LEASE_MS));
      const to = (subject: RegExp) =>
        smtp.received.filter((m) => m.to.includes(owner.email) && subject.test(m.subject));
      expect(to(resetSubject)).toHaveLength(1);
      expect(to(exportSubject)).toHaveLength(1);
      expect((await sql<{ sales: number }>('select sales from products where id = $1', [product.id]))[0].sales).toBe(1);
      const stages = (
        await survivor.http.get(`/factory/generations/${generation.body.id}`, { token: editor.accessToken })
      ).body.stages as { name: string; status: string }[];
      expect(stages.every((s) => s.status === 'done')).toBe(true);
      expect(
        (await survivor.http.get(`/gdpr/requests/${exported.body.id}`, { token: owner.accessToken })).body.status,
      ).toBe('ready');
    } finally {
      await holder.end().catch(() => {});
      await killHard(survivor.child);
    }
  }, 240_000);
});

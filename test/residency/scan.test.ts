import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eraseDue } from '../../src/gdpr';
import { waitForRequest } from '../gdpr/support';
import { contentAdmin, publishedCourse } from '../learning/support';
import { type AiBackendFake, startAiBackend } from '../support/ai-backend';
import { startTestApp, type TestApp } from '../support/app';
import { buy, publishedProduct, waitFor } from '../support/commerce';
import { ownerOf } from '../support/regions';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { learnerOfAge, PASSWORD, type SignedIn, signInAdmin } from '../support/users';

vi.setConfig({ testTimeout: 240_000 });

let t: TestApp;
let smtp: SmtpServer;
let ai: AiBackendFake;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ai = await startAiBackend();
  t = await startTestApp({
    SMTP_URL: smtp.url,
    AI_BACKEND_URL: ai.url,
    AI_BACKEND_SECRET: 'a-secret-of-sixteen-chars',
    JOBS_PROCESS_EVERY_MS: '200',
    GDPR_SWEEP_EVERY: '1 day',
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await ai?.close();
  await smtp?.close();
});

interface Scan {
  tables: number;
  /** `table.column` of each column holding a needle, with the needle's name. */
  found: string[];
}

/**
 * Every table of a region's database, read as its owner: each text, uuid, JSON or array column cast
 * to text and searched for each needle, case-insensitive.
 */
async function scan(region: string, needles: Record<string, string>): Promise<Scan> {
  const client = new Client({ connectionString: ownerOf(t, region).databaseUrl });
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    const { rows: columns } = await client.query<{ table_name: string; column_name: string }>(
      `select c.table_name, c.column_name from information_schema.columns c
         join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
        where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
          and c.data_type in ('text', 'uuid', 'character varying', 'character', 'jsonb', 'json', 'ARRAY')`,
    );
    const found: string[] = [];
    for (const { table_name, column_name } of columns)
      for (const [name, needle] of Object.entries(needles)) {
        const { rows } = await client.query<{ n: number }>(
          `select count(*)::int as n from "${table_name}" where "${column_name}"::text ilike $1`,
          [`%${needle}%`],
        );
        if (rows[0].n > 0) found.push(`${table_name}.${column_name} ${name}`);
      }
    return { tables: tables.length, found: found.sort() };
  } finally {
    await client.end();
  }
}

const needlesOf = (account: SignedIn) => ({ id: account.id, email: account.email });

/** A learner who does what learners do: enrolls, runs code, talks to the tutor, pays, and asks for an export. */
async function activeLearner(
  country: string,
  course: { id: string },
  product: Awaited<ReturnType<typeof publishedProduct>>,
) {
  const learner = await learnerOfAge(t, 20, { country });
  const token = { token: learner.accessToken };
  expect((await t.http.post(`/courses/${course.id}/enrollment`, undefined, token)).status).toBe(201);
  const run = await t.http.post('/codelab/run', { language: 'javascript', code: 'console.log(6 * 7)' }, token);
  expect(run.body).toMatchObject({ status: 'ok', stdout: '42\n' });
  expect((await t.http.post('/consent/grant', { consentTypeId: 'ai_conversation' }, token)).status).toBe(200);
  const chat = await t.http.post('/ai/chat', { message: 'What is a loop?' }, token);
  expect(chat.status).toBe(200);
  await buy(t, learner, product);
  const exported = await t.http.post('/gdpr/export', {}, token);
  expect(exported.status).toBe(202);
  expect((await waitForRequest(t, learner.accessToken, exported.body.id)).status).toBe('ready');
  // What the payment and the export set going after their commits tells the learner.
  const notifications = await waitFor(
    () => t.http.get('/notifications', token),
    (reply) => reply.status !== 200 || reply.body.items.length > 0,
    30_000,
  );
  expect(notifications.status).toBe(200);
  expect(notifications.body.items.length).toBeGreaterThan(0);
  return learner;
}

describe('a VN learner’s personal data is in vn’s database only', () => {
  let course: { id: string };
  let product: Awaited<ReturnType<typeof publishedProduct>>;

  beforeAll(async () => {
    const admin = await signInAdmin(t);
    course = await publishedCourse(t, await contentAdmin(t));
    product = await publishedProduct(t, admin);
  }, 120_000);

  it('after enrolling, running code, chatting, a notification, a payment and an export, global’s tables name them only in the directory', async () => {
    const learner = await activeLearner('VN', course, product);
    const german = await activeLearner('DE', course, product);
    expect([learner.user.region, german.user.region]).toEqual(['vn', 'global']);

    const global = await scan('global', needlesOf(learner));
    const vn = await scan('vn', needlesOf(learner));
    const germanInVn = await scan('vn', needlesOf(german));
    console.log(
      `residency scan: ${global.tables} tables of global's database, ${vn.tables} of vn's; VN learner found in global: ${global.found.join(', ')}; in vn: ${vn.found.length} columns; German learner in vn: ${germanInVn.found.length}`,
    );
    expect(global.tables).toBeGreaterThan(30);
    expect(global.found).toEqual(['account_regions.id id']);
    expect(vn.found).toEqual(
      expect.arrayContaining([
        'users.id id',
        'users.email email',
        'enrollments.learner_id id',
        'payments.payer_id id',
        'ai_usage.user_id id',
        'notifications.user_id id',
        'gdpr_requests.subject_id id',
      ]),
    );
    expect(germanInVn.found).toEqual([]);
    // The German learner's rows are at global's, as before regions.
    expect((await scan('global', needlesOf(german))).found).toEqual(
      expect.arrayContaining(['users.id id', 'users.email email', 'enrollments.learner_id id', 'payments.payer_id id']),
    );
  });

  it('the erasure of a VN account leaves neither its id nor its address in any database', async () => {
    const learner = await activeLearner('VN', course, product);
    const needles = needlesOf(learner);
    expect((await scan('vn', needles)).found).not.toEqual([]);
    expect((await t.http.post('/gdpr/delete', { password: PASSWORD }, { token: learner.accessToken })).status).toBe(
      202,
    );
    expect(await eraseDue(t.app.deps.inRegion('vn'), new Date(Date.now() + 8 * 86_400_000))).toBe(1);

    const scans = { global: await scan('global', needles), vn: await scan('vn', needles) };
    console.log(
      `erasure scan: ${scans.global.tables} tables of global's database, ${scans.vn.tables} of vn's; found: ${[...scans.global.found, ...scans.vn.found].length}`,
    );
    expect(scans).toMatchObject({ global: { found: [] }, vn: { found: [] } });
  });
});

import { asOwner } from '../support/sql';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { eraseDue } from '../../src/gdpr';
import { pseudonymOf } from '../../src/gdpr/gdpr.links';
import type { Deps } from '../../src/kernel/deps';
import { openUnit } from '../../src/server/platform';
import { startTestApp, type TestApp } from '../support/app';
import { ownerOf } from '../support/regions';
import { linkFamily, withBasicData } from '../support/family';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { learnerOfAge, PASSWORD, signInAdmin, verifiedGuardian } from '../support/users';
import { buy, publishedProduct } from '../support/commerce';
import { learningData } from './support';

/** A real HTTP server in the AI backend's place that fails the first `failures` erasures of each user with 500. */
async function aiBackend(failures: number) {
  const seen: { method: string; path: string; at: number }[] = [];
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, at: Date.now() });
      const n = (counts.get(req.url!) ?? 0) + 1;
      counts.set(req.url!, n);
      if (req.method === 'DELETE' && req.url!.startsWith('/users/'))
        return res.writeHead(n <= failures ? 500 : 204).end();
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

let t: TestApp;
let smtp: SmtpServer;
let ai: Awaited<ReturnType<typeof aiBackend>>;
/** Statements on one region's database: the test's accounts are VN's (test sign-ups' default country), so vn's. */
const sqlIn =
  (region: Deps) =>
  (query: string, params: unknown[] = []) =>
    openUnit(region).uow.em.getConnection().execute(query, params);
const vn = () => t.app.deps.inRegion('vn');
const sql = (query: string, params: unknown[] = []) => sqlIn(vn())(query, params);
const later = () => new Date(Date.now() + 8 * 86_400_000);

beforeAll(async () => {
  smtp = await startSmtpServer();
  ai = await aiBackend(2);
  t = await startTestApp({
    SMTP_URL: smtp.url,
    AI_BACKEND_URL: ai.url,
    AI_BACKEND_SECRET: 'a-secret-of-sixteen-chars',
    GDPR_AI_RETRY_DELAY_MS: '50',
    AI_BREAKER_RESET_MS: '300',
    GDPR_SWEEP_EVERY: '1 day',
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await ai.close();
});

/** Every text, uuid or JSON column of every table, in every region's database, that holds one of `needles`. */
async function findEverywhere(needles: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const region of t.app.deps.regions) found.push(...(await findIn(sqlIn(region), region.region, needles)));
  return found;
}

async function findIn(sql: ReturnType<typeof sqlIn>, region: string, needles: string[]): Promise<string[]> {
  const columns = (await sql(
    `select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'uuid', 'character varying', 'character', 'jsonb', 'json', 'ARRAY')`,
  )) as { table_name: string; column_name: string }[];
  const found: string[] = [];
  for (const { table_name, column_name } of columns) {
    for (const needle of needles) {
      const rows = await sql(`select count(*)::int as n from "${table_name}" where "${column_name}"::text ilike ?`, [
        `%${needle}%`,
      ]);
      if (rows[0].n > 0) found.push(`${region}: ${table_name}.${column_name} holds ${needle}`);
    }
  }
  return found;
}

const deletePending = (reply: { status: number; body: any }) => {
  expect(reply.status).toBe(403);
  expect(reply.body.error).toBe('account_deletion_pending');
};

describe('erasure: the grace period', () => {
  it('202 scheduled with dueAt in 7 days; other sessions end; only me, the requests and cancel answer; cancel gives the account back', async () => {
    const learner = await learnerOfAge(t, 16);
    const accepted = await t.http.post('/gdpr/delete', { password: PASSWORD }, { token: learner.accessToken });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ kind: 'deletion', status: 'scheduled', subjectId: learner.id });
    expect(Math.abs(new Date(accepted.body.dueAt).getTime() - Date.now() - 7 * 86_400_000)).toBeLessThan(60_000);
    // Every session ends, the asking one's included: its refresh token and its access token (docs/auth.md).
    expect((await t.http.post('/auth/refresh', { refreshToken: learner.refreshToken })).status).toBe(401);
    expect((await t.http.get('/auth/me', { token: learner.accessToken })).status).toBe(401);
    // The account may still sign in, and is then limited.
    const login = await t.http.post('/auth/login', { email: learner.email, password: PASSWORD });
    expect(login.status).toBe(200);
    const token = login.body.accessToken as string;

    const me = await t.http.get('/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.user.status).toBe('deletion_pending');
    expect((await t.http.get('/gdpr/requests', { token })).status).toBe(200);
    expect((await t.http.get(`/gdpr/requests/${accepted.body.id}`, { token })).status).toBe(200);
    deletePending(await t.http.get('/notifications', { token }));
    deletePending(await t.http.post('/gdpr/export', {}, { token }));
    const gql = await t.http.gql('{ unreadNotificationCount { count } }', undefined, token);
    expect(gql.body.errors?.[0].extensions.code).toBe('ACCOUNT_DELETION_PENDING');
    // Asking again is itself an operation refused while pending (a guardian asking again gets 409, below).
    const again = await t.http.post('/gdpr/delete', { password: PASSWORD }, { token });
    deletePending(again);

    const stranger = await verifiedGuardian(t, smtp);
    expect(
      (await t.http.post(`/gdpr/requests/${accepted.body.id}/cancel`, undefined, { token: stranger.accessToken }))
        .status,
    ).toBe(404);
    const canceled = await t.http.post(`/gdpr/requests/${accepted.body.id}/cancel`, undefined, { token });
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({ id: accepted.body.id, status: 'canceled' });
    expect((await t.http.get('/notifications', { token })).status).toBe(200);
    expect((await t.http.get('/auth/me', { token })).body.user.status).toBe('active');
    expect((await t.http.post(`/gdpr/requests/${accepted.body.id}/cancel`, undefined, { token })).status).toBe(409);
    // A canceled request is not run when its time comes.
    await eraseDue(vn(), later());
    expect((await t.http.get('/auth/me', { token })).status).toBe(200);
  });

  it('checks the password (403), the body (400) and the token (401); a guardian asks for a linked learner only; GraphQL twin', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const learner = await withBasicData(t, await learnerOfAge(t, 12));
    await linkFamily(t, guardian, learner);
    const wrong = await t.http.post('/gdpr/delete', { password: 'not the password' }, { token: guardian.accessToken });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe('forbidden');
    const invalid = await t.http.post('/gdpr/delete', { learnerId: 'x' }, { token: guardian.accessToken });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('validation_failed');
    expect((await t.http.post('/gdpr/delete', { password: PASSWORD })).status).toBe(401);
    const other = await verifiedGuardian(t, smtp);
    expect(
      (await t.http.post('/gdpr/delete', { learnerId: learner.id, password: PASSWORD }, { token: other.accessToken }))
        .status,
    ).toBe(403);

    const gql = await t.http.gql(
      'mutation($input: RequestDeletionInput!) { requestAccountDeletion(input: $input) { id kind status subjectId dueAt } }',
      { input: { learnerId: learner.id, password: PASSWORD } },
      guardian.accessToken,
    );
    expect(gql.body.data.requestAccountDeletion).toMatchObject({
      kind: 'DELETION',
      status: 'SCHEDULED',
      subjectId: learner.id,
    });
    // The learner's account is the one held (its sessions ended; signed in again, it is limited); the guardian's is not.
    expect((await t.http.get('/auth/me', { token: learner.accessToken })).status).toBe(401);
    const learnerToken = (await t.http.post('/auth/login', { email: learner.email, password: PASSWORD })).body
      .accessToken as string;
    deletePending(await t.http.get('/notifications', { token: learnerToken }));
    expect((await t.http.get('/notifications', { token: guardian.accessToken })).status).toBe(200);
    const twice = await t.http.post(
      '/gdpr/delete',
      { learnerId: learner.id, password: PASSWORD },
      { token: guardian.accessToken },
    );
    expect(twice.status).toBe(409);
    // The guardian cancels.
    const canceled = await t.http.post(`/gdpr/requests/${gql.body.data.requestAccountDeletion.id}/cancel`, undefined, {
      token: guardian.accessToken,
    });
    expect(canceled.body.status).toBe('canceled');
    expect((await t.http.get('/auth/me', { token: learnerToken })).body.user.status).toBe('active');
  });

  it('while pending, GraphQL refuses every read REST refuses: viewer’s edges, node, nodes, public reads', async () => {
    const learner = await withBasicData(t, await learnerOfAge(t, 16));
    const accepted = await t.http.post('/gdpr/delete', { password: PASSWORD }, { token: learner.accessToken });
    expect(accepted.status).toBe(202);
    const token = (await t.http.post('/auth/login', { email: learner.email, password: PASSWORD })).body
      .accessToken as string;
    const ids = [learner.id];

    // REST: the account itself and its privacy requests answer; the rest, public reads included, is refused.
    expect((await t.http.get('/auth/me', { token })).status).toBe(200);
    expect((await t.http.get('/gdpr/requests', { token })).status).toBe(200);
    for (const path of ['/notifications', '/payments/me', '/codelab/exercises', '/courses'])
      deletePending(await t.http.get(path, { token }));

    // GraphQL: the same.
    const allowed = await t.http.gql(
      '{ me { id status } viewer { id status email } gdprRequests { nodes { id } } }',
      undefined,
      token,
    );
    expect(allowed.body.errors).toBeUndefined();
    expect(allowed.body.data.viewer).toMatchObject({ id: learner.id, status: 'DELETION_PENDING' });
    const refused = async (query: string, variables?: Record<string, unknown>) => {
      const reply = await t.http.gql(query, variables, token);
      expect(reply.body.errors?.length, query).toBeGreaterThan(0);
      expect(
        reply.body.errors!.map((e) => e.extensions.code),
        query,
      ).toEqual(reply.body.errors!.map(() => 'ACCOUNT_DELETION_PENDING'));
      return reply;
    };
    const edges = await refused(
      '{ viewer { id projects { nodes { id } } payments { nodes { id } } notifications { nodes { id } } submissions { nodes { id } } } }',
    );
    expect(edges.body.errors!.map((e) => e.path?.join('.')).sort()).toEqual([
      'viewer.notifications',
      'viewer.payments',
      'viewer.projects',
      'viewer.submissions',
    ]);
    await refused('query($id: ID!) { node(id: $id) { id } }', { id: learner.id });
    await refused('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids });
    await refused('{ courses { nodes { id } } }');
    await refused('{ notifications { nodes { id } } }');

    // Anonymous callers keep their public reads.
    expect((await t.http.gql('{ courses { nodes { id } } }')).body.errors).toBeUndefined();
    expect((await t.http.get('/courses')).status).toBe(200);
    // Canceled, the account reads again (and the sweep below has this request no more to run).
    expect((await t.http.post(`/gdpr/requests/${accepted.body.id}/cancel`, undefined, { token })).status).toBe(200);
    expect(
      (await t.http.gql('query($id: ID!) { node(id: $id) { id } }', { id: learner.id }, token)).body.data.node,
    ).toEqual({ id: learner.id });
  });
});

describe('erasure at dueAt', () => {
  it('mails a receipt first, erases every area, keeps the consent ledger under a pseudonym, tells the AI backend (500 twice, then 204); nothing of the person is left in any table', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const name = `Erased Person ${Date.now()}`;
    const learner = await withBasicData(t, await learnerOfAge(t, 15, { displayName: name }));
    await linkFamily(t, guardian, learner);
    await learningData(t, learner);
    const ledgerBefore = (
      await sql(`select count(*)::int as n from consent_ledger where subject_id = ?`, [learner.id])
    )[0].n;
    expect(ledgerBefore).toBeGreaterThan(0);
    expect(await findEverywhere([learner.id, learner.email, name])).not.toEqual([]);

    const accepted = await t.http.post(
      '/gdpr/delete',
      { learnerId: learner.id, password: PASSWORD },
      { token: guardian.accessToken },
    );
    expect(accepted.status).toBe(202);
    expect(await eraseDue(vn(), new Date())).toBe(0); // not due yet
    expect(await eraseDue(vn(), later())).toBe(1);

    const receipt = await smtp.waitFor(learner.email, /receipt|biên nhận/i);
    expect(receipt.text).toContain(accepted.body.id);
    await smtp.waitFor(guardian.email, /receipt|biên nhận/i);
    const calls = ai.seen.filter((s) => s.path === `/users/${learner.id}`);
    expect(calls.map((c) => c.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);
    expect(calls[2].at - calls[1].at).toBeGreaterThanOrEqual(calls[1].at - calls[0].at);

    expect(await findEverywhere([learner.id, learner.email, name])).toEqual([]);
    const request = await t.http.get(`/gdpr/requests/${accepted.body.id}`, { token: guardian.accessToken });
    expect(request.body.status).toBe('completed');
    const pseudonym = request.body.subjectId as string;
    expect(pseudonym).not.toBe(learner.id);
    expect((await sql(`select count(*)::int as n from consent_ledger where subject_id = ?`, [pseudonym]))[0].n).toBe(
      ledgerBefore,
    );
    expect((await sql(`select status, email from users where id = ?`, [pseudonym]))[0]).toMatchObject({
      status: 'erased',
    });
    // The old tokens name no one now.
    expect((await t.http.get('/auth/me', { token: learner.accessToken })).status).toBe(401);
    expect((await t.http.post('/auth/login', { email: learner.email, password: PASSWORD })).status).toBe(401);
  });

  it('a run that stops half way (one area fails) is finished by the next, without doing the done areas again', async () => {
    const name = `Crash Person ${Date.now()}`;
    const learner = await learnerOfAge(t, 16, { displayName: name });
    await learningData(t, learner);
    const accepted = await t.http.post('/gdpr/delete', { password: PASSWORD }, { token: learner.accessToken });
    expect(accepted.status).toBe(202);
    await asOwner(
      ownerOf(t, 'vn'),
      `create or replace function gdpr_test_crash() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$`,
    );
    await asOwner(
      ownerOf(t, 'vn'),
      `create trigger gdpr_test_crash before delete on enrollments for each row execute function gdpr_test_crash()`,
    );
    try {
      expect(await eraseDue(vn(), later())).toBe(0);
    } finally {
      await asOwner(ownerOf(t, 'vn'), `drop trigger gdpr_test_crash on enrollments`);
    }
    const [half] = await sql(`select status, progress from gdpr_requests where id = ?`, [accepted.body.id]);
    expect(half.status).toBe('running');
    // Areas erase last first: those after courses in src/areas.ts are done, courses and those before it are not.
    expect(Object.keys(half.progress.areas)).toEqual(
      expect.arrayContaining(['certificates', 'factory', 'gdpr', 'progress']),
    );
    expect(Object.keys(half.progress.areas)).not.toContain('courses');
    expect(Object.keys(half.progress.areas)).not.toContain('auth');
    expect(
      (await sql(`select count(*)::int as n from lesson_completions where learner_id = ?`, [learner.id]))[0].n,
    ).toBe(0);
    expect((await sql(`select count(*)::int as n from enrollments where learner_id = ?`, [learner.id]))[0].n).toBe(1);
    const receipts = () =>
      smtp.received.filter((m) => m.to.includes(learner.email) && /receipt/i.test(m.subject)).length;
    await smtp.waitFor(learner.email, /receipt/i);

    const second = await eraseDue(vn(), later());
    expect(
      second,
      JSON.stringify(
        await sql(`select status, progress, error, lease_until from gdpr_requests where id = ?`, [accepted.body.id]),
      ),
    ).toBe(1);
    expect(receipts()).toBe(1);
    expect(await findEverywhere([learner.id, learner.email, name])).toEqual([]);
    expect((await sql(`select status from gdpr_requests where id = ?`, [accepted.body.id]))[0]?.status).toBe(
      'completed',
    );
  });

  it("pseudonymises the ledger's accounts and the audit trail's data: after erasing a payer and the learner they paid for, neither old id is left in either; the ledger still refuses ordinary changes", async () => {
    const admin = await signInAdmin(t);
    const product = await publishedProduct(t, admin);
    const guardian = await verifiedGuardian(t, smtp);
    const learner = await withBasicData(t, await learnerOfAge(t, 12));
    await linkFamily(t, guardian, learner);
    const paid = await buy(t, guardian, product, { learnerId: learner.id });
    const people = [guardian.id, learner.id];
    const holding = async (table: string) =>
      (
        await sql(
          `select count(*)::int as n from ${table} t where t::text ilike ? or t::text ilike ?`,
          people.map((id) => `%${id}%`),
        )
      )[0].n as number;
    // Before: the payer's ledger account and the audit trail's beneficiaryId name them.
    expect(await holding('ledger_entries')).toBeGreaterThan(0);
    expect(
      (await sql(`select count(*)::int as n from audit_entries where data->>'beneficiaryId' = ?`, [learner.id]))[0].n,
    ).toBeGreaterThan(0);

    expect(
      (
        await t.http.post(
          '/gdpr/delete',
          { learnerId: learner.id, password: PASSWORD },
          { token: guardian.accessToken },
        )
      ).status,
    ).toBe(202);
    expect((await t.http.post('/gdpr/delete', { password: PASSWORD }, { token: guardian.accessToken })).status).toBe(
      202,
    );
    expect(await eraseDue(vn(), later())).toBe(2);

    for (const table of ['ledger_entries', 'ledger_balances', 'ledger_transactions', 'audit_entries'])
      expect(await holding(table), table).toBe(0);
    const payer = `customer:${pseudonymOf(t.app.deps.config.JWT_SECRET, guardian.id)}`;
    // The payment and its fee split, each naming the payer: both now under the pseudonym, with their balance.
    const entries = await sql(`select amount from ledger_entries where account = ? order by amount`, [payer]);
    expect(entries.map((e) => Number(e.amount))).toEqual([-paid.amount, paid.amount]);
    const balance = await sql(
      `select sum(balance)::int as balance, sum(entries)::int as entries from ledger_balances where account = ?`,
      [payer],
    );
    expect(balance[0]).toEqual({ balance: 0, entries: 2 });
    expect(
      (
        await sql(`select count(*)::int as n from audit_entries where data->>'beneficiaryId' = ?`, [
          pseudonymOf(t.app.deps.config.JWT_SECRET, learner.id),
        ])
      )[0].n,
    ).toBeGreaterThan(0);

    // Outside an erasure the ledger stays append-only: no rename (even one that names itself as an erasure), no other change.
    const other = `customer:${randomUUID()}`;
    await expect(sql(`update ledger_entries set account = ? where account = ?`, [other, payer])).rejects.toThrow(
      /append-only/,
    );
    await expect(
      sql(
        `do $$ begin perform set_config('ledger.erasure', '${payer.slice(9)} ${other.slice(9)}', true); update ledger_entries set account = '${other}' where account = '${payer}'; end $$`,
      ),
    ).rejects.toThrow(/append-only/);
    await expect(sql(`update ledger_entries set amount = amount + 1 where account = ?`, [payer])).rejects.toThrow(
      /append-only/,
    );
    await expect(sql(`delete from ledger_entries where account = ?`, [payer])).rejects.toThrow(/append-only/);
    expect((await sql(`select count(*)::int as n from ledger_entries where account = ?`, [payer]))[0].n).toBe(2);
  });
});

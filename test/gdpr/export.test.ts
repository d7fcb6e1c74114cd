import { asOwner } from '../support/sql';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_JOB } from '../../src/gdpr/gdpr.service';
import { openUnit } from '../../src/server/platform';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf, ownerOf } from '../support/regions';
import { linkFamily, withBasicData } from '../support/family';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { learnerOfAge, PASSWORD, type SignedIn, verifiedGuardian } from '../support/users';
import { downloadLinkFor } from './links';
import { learningData, pathOf, unzip, waitForRequest } from './support';

let t: TestApp;
let smtp: SmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ SMTP_URL: smtp.url, JOBS_PROCESS_EVERY_MS: '200' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

/** Follows a download link as the holder of `token` (none: as whoever found the link). */
async function download(url: string, token?: string): Promise<{ status: number; body: Buffer; json?: any }> {
  const response = await fetch(t.url + pathOf(url), { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const body = Buffer.from(await response.arrayBuffer());
  return {
    status: response.status,
    body,
    json: response.headers.get('content-type')?.includes('json') ? JSON.parse(body.toString()) : undefined,
  };
}

describe('data export', () => {
  let guardian: SignedIn;
  let learner: SignedIn;

  beforeAll(async () => {
    guardian = await verifiedGuardian(t, smtp, { locale: 'vi' });
    learner = await withBasicData(t, await learnerOfAge(t, 14, { displayName: 'Export Learner', locale: 'vi' }));
    await linkFamily(t, guardian, learner);
    await learningData(t, learner);
  });

  it('a guardian exports a linked learner: 202, a ZIP whose manifest hashes match, data of every area, PDFs, README in the learner’s language, link mailed', async () => {
    const accepted = await t.http.post('/gdpr/export', { learnerId: learner.id }, { token: guardian.accessToken });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({
      kind: 'export',
      status: 'queued',
      subjectId: learner.id,
      requesterId: guardian.id,
      downloadUrl: null,
    });
    expect(typeof accepted.body.createdAt).toBe('string');
    const ready = await waitForRequest(t, guardian.accessToken, accepted.body.id);
    expect(ready.status).toBe('ready');
    expect(new Date(ready.expiresAt).getTime() - Date.now()).toBeGreaterThan(167 * 3600_000);
    expect(ready.downloadUrl).toMatch(/\/gdpr\/requests\/.+\/download\?expires=\d+&signature=/);

    const mail = await smtp.waitFor(guardian.email, /dữ liệu|data/i, 20_000);
    expect(mail.text).toContain(pathOf(ready.downloadUrl).split('?')[0]);

    // The guardian who asked for it downloads it; the link alone (no token) or another account's token opens nothing.
    const file = await download(ready.downloadUrl, guardian.accessToken);
    expect(file.status).toBe(200);
    const anonymous = await download(ready.downloadUrl);
    expect([anonymous.status, anonymous.json?.error]).toEqual([401, 'unauthenticated']);
    const stranger = await download(ready.downloadUrl, (await verifiedGuardian(t, smtp)).accessToken);
    expect([stranger.status, stranger.json?.error]).toEqual([404, 'not_found']);
    const files = await unzip(file.body);
    const manifest = JSON.parse(files.get('manifest.json')!.toString());
    expect(manifest.subjectId).toBe(learner.id);
    for (const entry of manifest.files) {
      expect(files.has(entry.path), entry.path).toBe(true);
      expect(createHash('sha256').update(files.get(entry.path)!).digest('hex'), entry.path).toBe(entry.sha256);
      expect(files.get(entry.path)!.length).toBe(entry.bytes);
    }
    expect([...files.keys()].sort()).toEqual(
      [...manifest.files.map((f: { path: string }) => f.path), 'manifest.json'].sort(),
    );
    const json = (name: string) => JSON.parse(files.get(name)!.toString());
    expect(json('auth.json').account).toMatchObject({
      id: learner.id,
      email: learner.email,
      displayName: 'Export Learner',
    });
    expect(json('auth.json').account.passwordHash).toBeUndefined();
    expect(json('courses.json').enrollments).toHaveLength(1);
    expect(json('progress.json').lessonCompletions).toHaveLength(2);
    expect(json('progress.json').quizAttempts).toHaveLength(2);
    expect(json('certificates.json').certificates).toHaveLength(1);
    expect(json('consent.json').ledger.some((e: any) => e.type === 'marketing_email')).toBe(true);
    expect(json('guardian.json').links).toHaveLength(1);
    expect(json('notifications.json').notifications.length).toBeGreaterThan(0);
    expect(json('gdpr.json').requests.map((r: any) => r.id)).toContain(accepted.body.id);
    const pdfs = [...files.keys()].filter((name) => name.startsWith('certificates/') && name.endsWith('.pdf'));
    expect(pdfs).toHaveLength(1);
    expect(files.get(pdfs[0])!.subarray(0, 5).toString()).toBe('%PDF-');
    expect(files.get('README.vi.txt')!.toString()).toContain('BẢN SAO DỮ LIỆU');
    // The request keeps how it went; its job is gone from the scheduler's table once done.
    const home = await homeOf(t, learner.id);
    await expect
      .poll(async () => {
        const [{ n }] = await home.sql.query<{ n: number }>(
          `select count(*)::int as n from agenda_jobs where name = ? and data->>'requestId' = ?`,
          [EXPORT_JOB, accepted.body.id],
        );
        return n;
      })
      .toBe(0);
  });

  it('the link tampered or expired is refused; only the requester and the subject see it', async () => {
    const accepted = await t.http.post('/gdpr/export', {}, { token: learner.accessToken });
    expect(accepted.status).toBe(202);
    expect(accepted.body.subjectId).toBe(learner.id);
    const ready = await waitForRequest(t, learner.accessToken, accepted.body.id);
    const url = new URL(ready.downloadUrl);
    const tampered = new URL(url);
    tampered.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
    const refused = await download(tampered.toString(), learner.accessToken);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ error: 'forbidden' });
    const badSignature = new URL(url);
    // Its first character changed to another (a fixed 'x' left one signature in 64 as it was: base64url).
    const signature = url.searchParams.get('signature')!;
    badSignature.searchParams.set('signature', (signature[0] === 'x' ? 'y' : 'x') + signature.slice(1));
    expect((await download(badSignature.toString(), learner.accessToken)).status).toBe(403);
    // Another request's id with this signature
    const otherId = new URL(url.toString().replace(accepted.body.id, '00000000-0000-4000-8000-000000000000'));
    expect((await download(otherId.toString(), learner.accessToken)).status).toBe(403);
    // The subject downloads their own export; a token of a session that ended does not.
    expect((await download(ready.downloadUrl, learner.accessToken)).status).toBe(200);
    const ended = await t.http.post('/auth/login', { email: learner.email, password: PASSWORD });
    expect((await t.http.post('/auth/logout', { refreshToken: ended.body.refreshToken })).status).toBe(204);
    expect((await download(ready.downloadUrl, ended.body.accessToken)).status).toBe(401);

    // The clock past the expiry: the link says so, the sweep deletes the file.
    await openUnit(await homeOf(t, learner.id))
      .uow.em.getConnection()
      .execute(`update gdpr_requests set expires_at = now() - interval '1 minute' where id = ?`, [accepted.body.id]);
    const expired = await download(
      downloadLinkFor(t, accepted.body.id, new Date(Date.now() - 60_000)),
      learner.accessToken,
    );
    expect(expired.status).toBe(403);
    expect(expired.json.message).toMatch(/expired/);
    const after = await t.http.get(`/gdpr/requests/${accepted.body.id}`, { token: learner.accessToken });
    expect(after.body.downloadUrl).toBeNull();

    // Someone else sees no such request.
    const stranger = await verifiedGuardian(t, smtp);
    const hidden = await t.http.get(`/gdpr/requests/${accepted.body.id}`, { token: stranger.accessToken });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error).toBe('not_found');
  });

  it('another guardian may not export a learner (403), nor may anyone without a token (401); bad input is 400', async () => {
    const other = await verifiedGuardian(t, smtp);
    const refused = await t.http.post('/gdpr/export', { learnerId: learner.id }, { token: other.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    const gql = await t.http.gql(
      'mutation($id: ID) { requestDataExport(input: { learnerId: $id }) { id } }',
      { id: learner.id },
      other.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.http.post('/gdpr/export', {})).status).toBe(401);
    const invalid = await t.http.post('/gdpr/export', { learnerId: 'nope' }, { token: guardian.accessToken });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      error: 'validation_failed',
      details: [expect.objectContaining({ field: 'learnerId' })],
    });
  });

  it('lists the requests over REST and GraphQL; two exports asked at once make one', async () => {
    const list = await t.http.get('/gdpr/requests', { token: guardian.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThan(0);
    expect(list.body).toHaveProperty('nextCursor');
    const gql = await t.http.gql(
      '{ gdprRequests(first: 5) { edges { node { id kind status subjectId } } } }',
      undefined,
      guardian.accessToken,
    );
    expect(gql.body.data.gdprRequests.edges.length).toBe(list.body.items.length);

    const solo = await learnerOfAge(t, 16);
    const both = await Promise.all([0, 1].map(() => t.http.post('/gdpr/export', {}, { token: solo.accessToken })));
    expect(both.map((r) => r.status).sort()).toEqual([202, 409]);
  });

  it('an export that fails half way is given up cleanly and retried (it used to hang for ever), then completes', async () => {
    const home = await homeOf(t, learner.id);
    const owner = ownerOf(t, home.region);
    const sql = (query: string, params: unknown[] = []) => openUnit(home).uow.em.getConnection().execute(query, params);
    // The notifications area's table is away while the export runs: its part of the archive fails after others were written.
    await asOwner(owner, `alter table notifications rename to notifications_away`);
    let renamed = true;
    try {
      const accepted = await t.http.post('/gdpr/export', {}, { token: learner.accessToken });
      expect(accepted.status).toBe(202);
      for (let waited = 0; waited < 20_000; waited += 100) {
        const [row] = (await sql(`select status, error, lease_until from gdpr_requests where id = ?`, [
          accepted.body.id,
        ])) as { status: string; error: string | null; lease_until: Date | null }[];
        if (row.error) {
          expect(row.status).toBe('running');
          expect(row.lease_until).toBeNull();
          break;
        }
        await new Promise((r) => setTimeout(r, 100));
      }
      const [failed] = (await sql(`select error from gdpr_requests where id = ?`, [accepted.body.id])) as {
        error: string | null;
      }[];
      expect(failed.error).toMatch(/notifications/);
      await asOwner(owner, `alter table notifications_away rename to notifications`);
      renamed = false;
      const ready = await waitForRequest(t, learner.accessToken, accepted.body.id);
      expect(ready.status).toBe('ready');
      const files = await unzip((await download(ready.downloadUrl, learner.accessToken)).body);
      expect(files.has('notifications.json')).toBe(true);
    } finally {
      if (renamed) await asOwner(owner, `alter table notifications_away rename to notifications`);
    }
  });
});

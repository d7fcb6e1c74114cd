import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUDGE_JOB } from '../../src/codelab/codelab.service';
import { EXPORT_JOB } from '../../src/gdpr/gdpr.service';
import { ASK_LEARNER_JOB } from '../../src/guardian/guardian.jobs';
import { besideGlobal } from '../../src/db/regions';
import { openUnit } from '../../src/server/platform';
import { createTestDatabase, startTestApp, type TestApp } from '../support/app';
import { linkFamily, withBasicData } from '../support/family';
import { killHard, sqlOn, startServiceProcess, until } from '../support/service-process';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { adultSignup, learnerOfAge, type SignedIn, signUp, verifiedGuardian } from '../support/users';

/**
 * Nothing is lost between a commit and its effect: each kind of effect is committed by a
 * real service process that is then killed (SIGKILL) before delivering it; the next process
 * delivers each exactly once. "Before delivering" is made certain by a trigger that refuses the
 * relay's claim of outbox rows while the first process runs.
 */
let smtp: SmtpServer;
let databaseUrl: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  databaseUrl = await createTestDatabase();
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await smtp.close();
});

/** Every account of this test is a VN sign-up: its rows and its outbox are in region vn's database. */
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  sqlOn<T>(besideGlobal(databaseUrl, 'vn'), text, params);
/** A statement on each region's database: the outboxes are held in both. */
const inEveryRegion = async (text: string) => {
  for (const url of [databaseUrl, besideGlobal(databaseUrl, 'vn')]) await sqlOn(url, text, []);
};
const startService = () => startServiceProcess(databaseUrl, { SMTP_URL: smtp.url }, children);
const kill = killHard;

describe('an effect committed by a process killed before delivering it', () => {
  let guardian: SignedIn;
  let secondGuardian: SignedIn;
  let teen: SignedIn;
  let projectId: string;
  let exerciseId: string;

  beforeAll(async () => {
    // The family, the consent and the public project are made by an ordinary service first.
    const setup: TestApp = await startTestApp({ SMTP_URL: smtp.url }, databaseUrl);
    try {
      guardian = await verifiedGuardian(setup, smtp);
      secondGuardian = await verifiedGuardian(setup, smtp);
      teen = await withBasicData(setup, await learnerOfAge(setup, 15));
      await linkFamily(setup, guardian, teen);
      await setup.http.post(
        '/consent/grant',
        { consentTypeId: 'progress_sharing', learnerId: teen.id },
        { token: guardian.accessToken },
      );
      await setup.http.post('/consent/grant', { consentTypeId: 'progress_sharing' }, { token: teen.accessToken });
      const files = [{ path: 'main.py', content: 'print(1)' }];
      projectId = (
        await setup.http.post(
          '/projects',
          { title: 'Game', language: 'python', files, visibility: 'public' },
          { token: teen.accessToken },
        )
      ).body.id;
      const exercises = await setup.http.get('/codelab/exercises?limit=100', { token: teen.accessToken });
      exerciseId = (exercises.body.items as { id: string; language: string }[]).find(
        (e) => e.language === 'javascript',
      )!.id;
    } finally {
      await setup.close();
    }
    expect(
      (await sql<{ visibility: string }>('select visibility from codelab_projects where id = $1', [projectId]))[0]
        .visibility,
    ).toBe('public');
  }, 120_000);

  /** The guardian's notices asking for the teen's progress_sharing consent. */
  const consentAsks = async () => {
    const where = `user_id = $1 and type = 'consent' and data->>'learnerId' = $2 and data->>'consentTypeId' = 'progress_sharing'`;
    return (
      await sql<{ n: number }>(`select count(*)::int as n from notifications where ${where}`, [guardian.id, teen.id])
    )[0].n;
  };

  it('happens exactly once after a restart: mail, export job, consent reaction, judge job, the link request (mail and notification), a consent request notice', async () => {
    await inEveryRegion(
      `create function hold_outbox() returns trigger language plpgsql as $$ begin raise exception 'outbox held by the test'; end $$`,
    );
    await inEveryRegion(
      `create trigger hold_outbox before update on outbox for each row execute function hold_outbox()`,
    );
    const first = await startService();
    const adult = await signUp({ http: first.http } as TestApp, adultSignup());
    const exportRequest = await first.http.post('/gdpr/export', {}, { token: guardian.accessToken });
    expect(exportRequest.status).toBe(202);
    expect(
      (
        await first.http.post(
          '/consent/revoke',
          { consentTypeId: 'progress_sharing', learnerId: teen.id },
          { token: guardian.accessToken },
        )
      ).status,
    ).toBe(200);
    // The teen asks again: refused, and the guardian's notice is announced in the consent's transaction.
    const asked = await first.http.post(
      '/consent/grant',
      { consentTypeId: 'progress_sharing' },
      { token: teen.accessToken },
    );
    expect([asked.status, asked.body.error]).toEqual([403, 'guardian_consent_required']);
    const submission = await first.http.post(
      `/codelab/exercises/${exerciseId}/submissions`,
      { code: 'console.log(1)' },
      { token: teen.accessToken },
    );
    expect(submission.status).toBe(202);
    const declared = await first.http.post(
      '/guardian/declare',
      { learnerEmail: teen.email },
      { token: secondGuardian.accessToken },
    );
    expect(declared.status).toBe(201);

    // Committed, not delivered: every row is there and none of the effects happened.
    const rows = await sql<{ kind: string; name: string }>('select kind, name from outbox order by id');
    expect(rows.filter((r) => r.kind === 'mail').length).toBeGreaterThanOrEqual(1);
    expect(rows).toContainEqual({ kind: 'job', name: EXPORT_JOB });
    expect(rows).toContainEqual({ kind: 'job', name: JUDGE_JOB });
    expect(rows).toContainEqual({ kind: 'event', name: 'projects' });
    expect(rows).toContainEqual({ kind: 'event', name: 'portfolio' });
    expect(rows).toContainEqual({ kind: 'job', name: ASK_LEARNER_JOB });
    expect(rows).toContainEqual({ kind: 'event', name: 'notifications' });
    expect(await consentAsks()).toBe(0);
    expect(smtp.received.filter((m) => m.to.includes(adult.email))).toHaveLength(0);
    expect(
      (await sql<{ visibility: string }>('select visibility from codelab_projects where id = $1', [projectId]))[0]
        .visibility,
    ).toBe('public');
    await kill(first.child);
    await inEveryRegion('drop trigger hold_outbox on outbox');

    const second = await startService();
    try {
      const verification = await smtp.waitFor(adult.email, /confirm|xác nhận/i, 30_000);
      expect(verification).toBeTruthy();
      const ready = await until(
        () => second.http.get(`/gdpr/requests/${exportRequest.body.id}`, { token: guardian.accessToken }),
        (r) => r.body.status === 'ready',
      );
      expect(ready.body.status).toBe('ready');
      const judged = await until(
        () => second.http.get(`/codelab/submissions/${submission.body.id}`, { token: teen.accessToken }),
        (r) => r.body.status === 'completed',
        90_000,
      );
      expect(judged.body.status).toBe('completed');
      const project = await until(
        () => sql<{ visibility: string }>('select visibility from codelab_projects where id = $1', [projectId]),
        (r) => r[0].visibility === 'private',
      );
      expect(project[0].visibility).toBe('private');
      await until(
        () => sql('select 1 from outbox'),
        (r) => r.length === 0,
      );
      // Once: nothing more arrives after the outbox is empty.
      await new Promise((r) => setTimeout(r, 1500));
      expect(
        smtp.received.filter((m) => m.to.includes(adult.email) && /confirm|xác nhận/i.test(m.subject)),
      ).toHaveLength(1);
      expect(smtp.received.filter((m) => m.to.includes(guardian.email) && /export|xuất/i.test(m.subject))).toHaveLength(
        1,
      );
      const notes = await sql<{ n: number }>(
        `select count(*)::int as n from notifications where user_id = $1 and data->>'linkId' = $2`,
        [teen.id, declared.body.id],
      );
      expect(notes[0].n).toBe(1);
      expect(await consentAsks()).toBe(1);
    } finally {
      await kill(second.child);
    }
  }, 240_000);
});

describe('a transaction that rolls back', () => {
  it('leaves no outbox row', async () => {
    const t = await startTestApp({}, await createTestDatabase());
    try {
      const { uow } = openUnit(t.app.deps);
      const before = await uow.query<{ n: number }>('select count(*)::int as n from outbox');
      await expect(
        uow.transaction(async () => {
          await uow.enqueue({ kind: 'job', name: EXPORT_JOB, payload: { requestId: 'never' } });
          await uow.raise({
            type: 'notification.requested',
            recipients: [],
            notificationType: 'system' as never,
            message: { title: { en: '', vi: '' }, body: { en: '', vi: '' } },
          });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      expect(await uow.query('select count(*)::int as n from outbox')).toEqual(before);
    } finally {
      await t.close();
    }
  });
});

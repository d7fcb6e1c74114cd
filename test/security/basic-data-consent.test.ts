import { beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin, publishedCourse } from '../learning/support';
import type { TestApp } from '../support/app';
import { linkFamily } from '../support/family';
import { withMailAndApp } from '../support/setup';
import { settled } from '../support/sql';
import type { SmtpServer } from '../support/smtp';
import { learnerOfAge, type SignedIn, verifiedGuardian } from '../support/users';

/**
 * Under the country's consent age (docs/domain.md: Germany 16, the US 13), a
 * learner's data is stored only once a linked guardian granted `basic_data`; until then the
 * operations that store it answer 403 guardian_consent_required and the guardians are asked.
 */
const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let course: { id: string; lessonIds: string[] };
beforeAll(async () => {
  ({ t, smtp } = ctx);
  course = await publishedCourse(t, await contentAdmin(t));
});

const enroll = (who: SignedIn) =>
  t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: who.accessToken });
const consentNotices = async (guardian: SignedIn) =>
  (
    (await t.http.get('/notifications', { token: guardian.accessToken })).body.items as {
      type: string;
      data: Record<string, string>;
    }[]
  ).filter((n) => n.type === 'consent' && n.data.consentTypeId === 'basic_data');

/** Each data-storing operation of the learner, over REST and GraphQL; each must be refused. */
function storingOperations(learner: SignedIn) {
  const token = learner.accessToken;
  const lessonId = course.lessonIds[0];
  return {
    'REST enroll': () => enroll(learner),
    'REST complete lesson': () => t.http.post(`/progress/lessons/${lessonId}/complete`, undefined, { token }),
    'REST submit quiz': () => t.http.post(`/progress/lessons/${lessonId}/quiz`, { answers: [1, 0] }, { token }),
    'REST create project': () =>
      t.http.post(
        '/projects',
        { title: 'My game', language: 'python', files: [{ path: 'main.py', content: 'print(1)' }] },
        { token },
      ),
    'GraphQL enroll': () =>
      t.http.gql('mutation($id: ID!) { enroll(courseId: $id) { course { id } } }', { id: course.id }, token),
    'GraphQL completeLesson': () =>
      t.http.gql('mutation($id: ID!) { completeLesson(lessonId: $id) { percent } }', { id: lessonId }, token),
    'GraphQL submitQuiz': () =>
      t.http.gql(
        'mutation($id: ID!) { submitQuiz(lessonId: $id, input: { answers: [1, 0] }) { score } }',
        { id: lessonId },
        token,
      ),
  };
}

async function codeOf(reply: Awaited<ReturnType<typeof enroll>>): Promise<string> {
  return reply.body?.errors
    ? `${reply.status} ${reply.body.errors[0].extensions.code}`
    : `${reply.status} ${reply.body?.error}`;
}

describe('basic_data under the consent age', () => {
  it('refuses a 14-year-old in Germany every data-storing operation until a guardian grants it, and asks the guardian once', async () => {
    const guardian = await verifiedGuardian(t, smtp, { country: 'DE' });
    const learner = await learnerOfAge(t, 14, { country: 'DE' });
    await linkFamily(t, guardian, learner);

    const consents = await t.http.get('/consent/me', { token: learner.accessToken });
    expect(consents.body.items ?? consents.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ consentTypeId: 'basic_data', needsGuardian: true, granted: false }),
      ]),
    );

    const refused: Record<string, string> = {};
    for (const [name, send] of Object.entries(storingOperations(learner))) refused[name] = await codeOf(await send());
    expect(refused).toEqual({
      'REST enroll': '403 guardian_consent_required',
      'REST complete lesson': '403 guardian_consent_required',
      'REST submit quiz': '403 guardian_consent_required',
      'REST create project': '403 guardian_consent_required',
      'GraphQL enroll': '200 GUARDIAN_CONSENT_REQUIRED',
      'GraphQL completeLesson': '200 GUARDIAN_CONSENT_REQUIRED',
      'GraphQL submitQuiz': '200 GUARDIAN_CONSENT_REQUIRED',
    });
    const refusal = await enroll(learner);
    expect(refusal.body).toEqual({
      error: 'guardian_consent_required',
      reason: 'guardian_asked',
      message: expect.any(String),
    });

    // Nothing was stored; reading, the account and the consents still work.
    expect((await t.http.get('/courses/me', { token: learner.accessToken })).body.items).toEqual([]);
    expect((await t.http.get('/projects/me', { token: learner.accessToken })).body.items).toEqual([]);
    expect((await t.http.get(`/courses/${course.id}`, { token: learner.accessToken })).status).toBe(200);
    expect((await t.http.get('/auth/me', { token: learner.accessToken })).status).toBe(200);

    // The guardian was asked, once for all these attempts while the notice is unread (each attempt
    // announced it through the outbox; once nothing is left to deliver, one notice is there).
    await settled(t);
    const notices = await consentNotices(guardian);
    expect(notices).toHaveLength(1);
    expect(notices[0].data).toEqual({ learnerId: learner.id, consentTypeId: 'basic_data' });

    const granted = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'basic_data', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    expect(granted.status).toBe(200);
    expect((await enroll(learner)).status).toBe(201);
    expect(
      (
        await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`, undefined, {
          token: learner.accessToken,
        })
      ).status,
    ).toBe(200);
    expect((await t.http.get('/courses/me', { token: learner.accessToken })).body.items).toHaveLength(1);

    // Revoked, storing stops again.
    await t.http.post(
      '/consent/revoke',
      { consentTypeId: 'basic_data', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    expect(
      (
        await t.http.post(`/progress/lessons/${course.lessonIds[1]}/complete`, undefined, {
          token: learner.accessToken,
        })
      ).body.error,
    ).toBe('guardian_consent_required');
  });

  it('lets learners at or over their country’s consent age store their data without a guardian', async () => {
    for (const [age, country] of [
      [16, 'DE'],
      [14, 'US'],
      [16, 'VN'],
    ] as const) {
      const learner = await learnerOfAge(t, age, { country });
      expect((await enroll(learner)).status, `${age} in ${country}`).toBe(201);
    }
    const tooYoung = await learnerOfAge(t, 15, { country: 'VN' });
    expect((await enroll(tooYoung)).body.error).toBe('guardian_consent_required');
  });

  it('still tells an under-13 learner without a guardian that a guardian must link first', async () => {
    const learner = await learnerOfAge(t, 10, { country: 'DE' });
    expect((await enroll(learner)).body.error).toBe('guardian_required');
  });
});

describe('what a learner waiting for a guardian’s consent is told', () => {
  const notificationCount = async () =>
    (await t.app.deps.sql.unlogged<{ n: number }>('select count(*)::int as n from notifications', []))[0].n;
  const gqlEnroll = (who: SignedIn) =>
    t.http.gql('mutation($id: ID!) { enroll(courseId: $id) { course { id } } }', { id: course.id }, who.accessToken);

  it('tells a 15-year-old with no guardian that nobody was asked and how a guardian links, and sends nothing', async () => {
    const learner = await learnerOfAge(t, 15, { country: 'DE' });
    await settled(t);
    const [mails, notices] = [smtp.received.length, await notificationCount()];

    const rest = await enroll(learner);
    expect([rest.status, rest.body.error]).toEqual([403, 'guardian_consent_required']);
    const gql = await gqlEnroll(learner);
    expect(gql.body.errors?.[0].message).toBe(rest.body.message);
    // Asking for a consent (the learner's own grant) and using a feature behind one say the same.
    const grant = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'ai_conversation' },
      { token: learner.accessToken },
    );
    const ai = await t.http.get('/ai/conversations', { token: learner.accessToken });
    for (const reply of [rest, grant, ai]) {
      expect([reply.status, reply.body.error]).toEqual([403, 'guardian_consent_required']);
      expect(reply.body.message).toMatch(
        /no guardian is linked to your account, so nobody was asked\. Ask a parent or guardian to sign up as a guardian and link to your account/,
      );
      expect(reply.body.message).not.toMatch(/has been asked/);
    }
    await settled(t);
    expect([smtp.received.length, await notificationCount()]).toEqual([mails, notices]);
  });

  it('tells a 15-year-old with a linked guardian that the guardian was asked when they were, and how to ask when they were not', async () => {
    const guardian = await verifiedGuardian(t, smtp, { country: 'DE' });
    const learner = await learnerOfAge(t, 15, { country: 'DE' });
    await linkFamily(t, guardian, learner);

    const refused = await enroll(learner);
    expect([refused.status, refused.body.error]).toEqual([403, 'guardian_consent_required']);
    expect(refused.body.message).toBe(
      'This needs the basic_data consent of a guardian: your guardian has been asked to grant it.',
    );
    await settled(t);
    expect(await consentNotices(guardian)).toHaveLength(1);

    // Using the AI tutor asks nobody: the learner is told how to ask.
    const ai = await t.http.get('/ai/conversations', { token: learner.accessToken });
    expect([ai.status, ai.body.error]).toEqual([403, 'guardian_consent_required']);
    expect(ai.body.message).toMatch(
      /your guardian has not granted it yet\. Ask for it by granting this consent from your account, and they are notified\./,
    );
    const asking = await t.http.post(
      '/consent/grant',
      { consentTypeId: 'ai_conversation' },
      { token: learner.accessToken },
    );
    expect(asking.body.message).toBe(
      'This needs the ai_conversation consent of a guardian: your guardian has been asked to grant it.',
    );
    await settled(t);
    const asks = (
      (await t.http.get('/notifications', { token: guardian.accessToken })).body.items as {
        type: string;
        data: Record<string, string>;
      }[]
    ).filter((n) => n.type === 'consent');
    expect(asks.map((n) => n.data.consentTypeId).sort()).toEqual(['ai_conversation', 'basic_data']);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin, publishedCourse } from '../learning/support';
import type { TestApp } from '../support/app';
import { linkFamily } from '../support/family';
import { withMailAndApp } from '../support/setup';
import { settled } from '../support/sql';
import type { SmtpServer } from '../support/smtp';
import { learnerOfAge, type SignedIn, verifiedGuardian } from '../support/users';

/**
 * Issue 16, item 5: under the country's consent age (DESIGN.md 4.5: Germany 16, the US 13), a
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

const enroll = (who: SignedIn) => t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: who.accessToken });
const consentNotices = async (guardian: SignedIn) =>
  ((await t.http.get('/notifications', { token: guardian.accessToken })).body.items as { type: string; data: Record<string, string> }[]).filter(
    (n) => n.type === 'consent' && n.data.consentTypeId === 'basic_data',
  );

/** Each data-storing operation of the learner, over REST and GraphQL; each must be refused. */
function storingOperations(learner: SignedIn) {
  const token = learner.accessToken;
  const lessonId = course.lessonIds[0];
  return {
    'REST enroll': () => enroll(learner),
    'REST complete lesson': () => t.http.post(`/progress/lessons/${lessonId}/complete`, undefined, { token }),
    'REST submit quiz': () => t.http.post(`/progress/lessons/${lessonId}/quiz`, { answers: [1, 0] }, { token }),
    'REST create project': () => t.http.post('/projects', { title: 'My game', language: 'python', files: [{ path: 'main.py', content: 'print(1)' }] }, { token }),
    'GraphQL enroll': () => t.http.gql('mutation($id: ID!) { enroll(courseId: $id) { course { id } } }', { id: course.id }, token),
    'GraphQL completeLesson': () => t.http.gql('mutation($id: ID!) { completeLesson(lessonId: $id) { percent } }', { id: lessonId }, token),
    'GraphQL submitQuiz': () => t.http.gql('mutation($id: ID!) { submitQuiz(lessonId: $id, input: { answers: [1, 0] }) { score } }', { id: lessonId }, token),
  };
}

async function codeOf(reply: Awaited<ReturnType<typeof enroll>>): Promise<string> {
  return reply.body?.errors ? `${reply.status} ${reply.body.errors[0].extensions.code}` : `${reply.status} ${reply.body?.error}`;
}

describe('basic_data under the consent age (issue 16, item 5)', () => {
  it('refuses a 14-year-old in Germany every data-storing operation until a guardian grants it, and asks the guardian once', async () => {
    const guardian = await verifiedGuardian(t, smtp, { country: 'DE' });
    const learner = await learnerOfAge(t, 14, { country: 'DE' });
    await linkFamily(t, guardian, learner);

    const consents = await t.http.get('/consent/me', { token: learner.accessToken });
    expect(consents.body.items ?? consents.body).toEqual(expect.arrayContaining([expect.objectContaining({ consentTypeId: 'basic_data', needsGuardian: true, granted: false })]));

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
    expect(refusal.body).toEqual({ error: 'guardian_consent_required', message: expect.any(String) });

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

    const granted = await t.http.post('/consent/grant', { consentTypeId: 'basic_data', learnerId: learner.id }, { token: guardian.accessToken });
    expect(granted.status).toBe(200);
    expect((await enroll(learner)).status).toBe(201);
    expect((await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`, undefined, { token: learner.accessToken })).status).toBe(200);
    expect((await t.http.get('/courses/me', { token: learner.accessToken })).body.items).toHaveLength(1);

    // Revoked, storing stops again.
    await t.http.post('/consent/revoke', { consentTypeId: 'basic_data', learnerId: learner.id }, { token: guardian.accessToken });
    expect((await t.http.post(`/progress/lessons/${course.lessonIds[1]}/complete`, undefined, { token: learner.accessToken })).body.error).toBe('guardian_consent_required');
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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, learnerOfAge, type SignedIn, signInAdmin, signUp, uniqueEmail } from '../support/users';
import { withBasicData } from '../support/family';
import { settled } from '../support/sql';
import { inEveryRegion } from '../support/regions';

let t: TestApp;
let admin: SignedIn;
let editor: SignedIn;
let creator: SignedIn;
let otherCreator: SignedIn;

beforeAll(async () => {
  t = await startTestApp({ RATE_LIMIT_CREATOR_MESSAGES: '3' });
  admin = await signInAdmin(t);
  editor = await contentAdmin(t);
  creator = await signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('creator') }));
  otherCreator = await signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('creator2') }));
});
afterAll(async () => {
  await t?.close();
});

const text = (en: string, vi = `${en} (vi)`) => ({ en, vi });
const draftBody = (overrides: Record<string, unknown> = {}) => ({
  title: text('Scratch games'),
  description: text('Make a game'),
  level: 'beginner',
  minAge: 8,
  maxAge: 14,
  ...overrides,
});
const lessonBody = (content = 'Sprites move with blocks.') => ({
  title: text('Sprites'),
  objectives: { en: ['Move a sprite'], vi: ['Di chuyển nhân vật'] },
  content: text(content),
  quiz: [
    {
      prompt: text('Which block moves?'),
      options: [text('move'), text('say')],
      answerIndex: 0,
      explanation: text('move moves.'),
    },
  ],
});

async function draftWithLesson(who: SignedIn = creator, content?: string) {
  const draft = await t.http.post('/creator/courses', draftBody(), { token: who.accessToken });
  const lesson = await t.http.post(`/creator/courses/${draft.body.id}/lessons`, lessonBody(content), {
    token: who.accessToken,
  });
  return { id: draft.body.id as string, lessonId: lesson.body.id as string };
}

async function publishedDraft() {
  const { id } = await draftWithLesson();
  await t.http.post(`/creator/courses/${id}/submit`, undefined, { token: creator.accessToken });
  const approved = await t.http.post(`/creator/courses/${id}/approve`, {}, { token: editor.accessToken });
  // Its learners are of region vn, whose copy of the course comes by replication.
  await inEveryRegion(t, 'select 1 from courses where id = ? and published', [approved.body.courseId]);
  return { id, courseId: approved.body.courseId as string };
}

describe('drafts and lessons', () => {
  it('creates, lists and edits drafts with lessons (REST and GraphQL)', async () => {
    const created = await t.http.post('/creator/courses', draftBody(), { token: creator.accessToken });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'draft', creatorId: creator.id, language: 'vi', lessons: [] });
    const lesson = await t.http.post(`/creator/courses/${created.body.id}/lessons`, lessonBody(), {
      token: creator.accessToken,
    });
    expect(lesson.status).toBe(201);
    expect(lesson.body).toMatchObject({
      position: 1,
      quiz: { questions: [expect.objectContaining({ answerIndex: 0 })] },
    });
    const edited = await t.http.put(
      `/creator/courses/${created.body.id}/lessons/${lesson.body.id}`,
      lessonBody('Costumes change looks.'),
      { token: creator.accessToken },
    );
    expect(edited.body.content.en).toBe('Costumes change looks.');
    const renamed = await t.http.gql(
      'mutation($id: ID!) { updateCreatorCourse(courseId: $id, input: { maxAge: 13 }) { maxAge minAge } }',
      { id: created.body.id },
      creator.accessToken,
    );
    expect(renamed.body.data.updateCreatorCourse).toEqual({ maxAge: 13, minAge: 8 });
    const listed = await t.http.get('/creator/courses', { token: creator.accessToken });
    expect(listed.body.items.find((c: { id: string }) => c.id === created.body.id).lessons).toHaveLength(1);
  });

  it('refuses bad input (400), non-creators (403), other creators (403), unknown courses (404)', async () => {
    const bad = await t.http.post('/creator/courses', draftBody({ minAge: 3, level: 'expert' }), {
      token: creator.accessToken,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.length).toBeGreaterThan(0);
    expect(
      (
        await t.http.put(
          '/creator/courses/00000000-0000-4000-8000-000000000000',
          { minAge: 12, maxAge: 10 },
          { token: creator.accessToken },
        )
      ).status,
    ).toBe(404);
    const { id, lessonId } = await draftWithLesson();
    expect(
      (await t.http.put(`/creator/courses/${id}`, { minAge: 12, maxAge: 10 }, { token: creator.accessToken })).status,
    ).toBe(400);
    expect((await t.http.post('/creator/courses', draftBody())).status).toBe(401);
    const learner = await withBasicData(t, await learnerOfAge(t, 15));
    expect((await t.http.post('/creator/courses', draftBody(), { token: learner.accessToken })).status).toBe(403);
    const foreign = await t.http.put(`/creator/courses/${id}/lessons/${lessonId}`, lessonBody(), {
      token: otherCreator.accessToken,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('forbidden');
    const gql = await t.http.gql(
      'mutation($id: ID!) { submitCreatorCourse(courseId: $id) { status } }',
      { id },
      otherCreator.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(
      (
        await t.http.put(`/creator/courses/${id}/lessons/00000000-0000-4000-8000-000000000000`, lessonBody(), {
          token: creator.accessToken,
        })
      ).status,
    ).toBe(404);
  });
});

describe('review', () => {
  it('submits with the safety check, rejects with a reason, and publishes on approval as a course', async () => {
    const { id } = await draftWithLesson(creator, 'Visit www.example.com and bring a gun.');
    const empty = await t.http.post('/creator/courses', draftBody(), { token: creator.accessToken });
    expect(
      (await t.http.post(`/creator/courses/${empty.body.id}/submit`, undefined, { token: creator.accessToken })).status,
    ).toBe(400);

    const submitted = await t.http.post(`/creator/courses/${id}/submit`, undefined, { token: creator.accessToken });
    expect(submitted.status).toBe(200);
    expect(submitted.body.status).toBe('in_review');
    expect([...new Set(submitted.body.findings.map((f: { category: string }) => f.category))].sort()).toEqual([
      'external_link',
      'violence',
    ]);
    expect((await t.http.put(`/creator/courses/${id}`, { maxAge: 13 }, { token: creator.accessToken })).status).toBe(
      409,
    );

    const queue = await t.http.get('/creator/reviews', { token: editor.accessToken });
    expect(queue.status).toBe(200);
    expect(queue.body.items.find((c: { id: string }) => c.id === id)).toMatchObject({
      status: 'in_review',
      creatorId: creator.id,
    });
    expect((await t.http.get('/creator/reviews', { token: creator.accessToken })).status).toBe(403);
    expect((await t.http.post(`/creator/courses/${id}/reject`, {}, { token: editor.accessToken })).status).toBe(400);
    expect(
      (await t.http.post(`/creator/courses/${id}/reject`, { reason: 'no' }, { token: creator.accessToken })).status,
    ).toBe(403);
    const rejected = await t.http.post(
      `/creator/courses/${id}/reject`,
      { reason: 'Remove the link and the gun.' },
      { token: editor.accessToken },
    );
    expect(rejected.body).toMatchObject({ status: 'rejected', reviewReason: 'Remove the link and the gun.' });
    // The decision reaches the creator through the outbox: there once nothing is left to deliver, once.
    const decisions = async () =>
      (await t.http.get('/notifications', { token: creator.accessToken })).body.items.filter(
        (n: { data: { creatorCourseId?: string } }) => n.data.creatorCourseId === id,
      );
    await settled(t);
    const told = await decisions();
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ type: 'system', data: { creatorCourseId: id, status: 'rejected' } });
    expect(told[0].body).toContain('Remove the link');

    const lessons = (await t.http.get('/creator/courses', { token: creator.accessToken })).body.items.find(
      (c: { id: string }) => c.id === id,
    ).lessons;
    await t.http.put(`/creator/courses/${id}/lessons/${lessons[0].id}`, lessonBody('Sprites move with blocks.'), {
      token: creator.accessToken,
    });
    const again = await t.http.gql(
      'mutation($id: ID!) { submitCreatorCourse(courseId: $id) { status findings { category } } }',
      { id },
      creator.accessToken,
    );
    expect(again.body.data.submitCreatorCourse).toEqual({ status: 'IN_REVIEW', findings: [] });
    const approved = await t.http.gql(
      'mutation($id: ID!) { approveCreatorCourse(courseId: $id) { status courseId } }',
      { id },
      editor.accessToken,
    );
    expect(approved.body.data.approveCreatorCourse.status).toBe('PUBLISHED');
    const course = await t.http.get(`/courses/${approved.body.data.approveCreatorCourse.courseId}`);
    expect(course.status).toBe(200);
    expect(course.body).toMatchObject({ title: { en: 'Scratch games' }, published: true });
    expect((await t.http.post(`/creator/courses/${id}/approve`, {}, { token: editor.accessToken })).status).toBe(409);
    await settled(t);
    expect(
      (await decisions()).map((n: { title: string; data: { status: string } }) => [n.title, n.data.status]),
    ).toEqual([
      ['"Scratch games" is published', 'published'],
      ['"Scratch games" needs changes', 'rejected'],
    ]);
    const audit = await t.http.get(`/admin/audit?targetId=${id}`, { token: admin.accessToken });
    expect(audit.body.items.map((e: { action: string }) => e.action)).toEqual([
      'creator.course_approved',
      'creator.course_rejected',
    ]);
  });
});

describe('messages and analytics', () => {
  it('notifies enrolled learners (settings respected), limits messages per hour, and counts per course', async () => {
    const { id, courseId } = await publishedDraft();
    const [a, b, quiet, outsider] = [
      await withBasicData(t, await learnerOfAge(t, 13)),
      await withBasicData(t, await learnerOfAge(t, 14)),
      await withBasicData(t, await learnerOfAge(t, 14)),
      await withBasicData(t, await learnerOfAge(t, 13)),
    ];
    for (const l of [a, b, quiet])
      await t.http.post(`/courses/${courseId}/enrollment`, undefined, { token: l.accessToken });
    await t.http.put('/notifications/settings', { disabledTypes: ['creator_message'] }, { token: quiet.accessToken });

    const sent = await t.http.post(
      `/creator/courses/${id}/messages`,
      { title: 'New level', body: 'Try the new level!' },
      { token: creator.accessToken },
    );
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({ recipients: 2 });
    const inbox = await t.http.get('/notifications', { token: a.accessToken });
    expect(inbox.body.items[0]).toMatchObject({ type: 'creator_message', title: 'New level' });
    expect((await t.http.get('/notifications', { token: quiet.accessToken })).body.items).toEqual([]);
    expect((await t.http.get('/notifications', { token: outsider.accessToken })).body.items).toEqual([]);

    expect(
      (await t.http.post(`/creator/courses/${id}/messages`, { title: '', body: 'x' }, { token: creator.accessToken }))
        .status,
    ).toBe(400);
    expect(
      (
        await t.http.post(
          `/creator/courses/${id}/messages`,
          { title: 'x', body: 'x' },
          { token: otherCreator.accessToken },
        )
      ).status,
    ).toBe(403);
    // 3 an hour: one sent, one refused for validation (counted), so of three sent at once one passes.
    const burst = await Promise.all(
      [1, 2, 3].map(() =>
        t.http.post(`/creator/courses/${id}/messages`, { title: 'Hi', body: 'Hello' }, { token: creator.accessToken }),
      ),
    );
    expect(burst.filter((r) => r.status === 201)).toHaveLength(1);
    const limited = burst.find((r) => r.status === 429)!;
    expect(limited.body.error).toBe('rate_limited');
    expect(limited.body.retryAfter).toBeGreaterThan(0);

    const analytics = await t.http.get('/creator/analytics', { token: creator.accessToken });
    expect(analytics.status).toBe(200);
    expect(analytics.body.items.find((c: { draftId: string }) => c.draftId === id)).toMatchObject({
      courseId,
      status: 'published',
      enrollments: 3,
      completions: 0,
      averageScore: null,
      earnings: [],
    });
    // One learner finishes the course with the quiz right, another only tries the quiz and misses:
    // one completion, and the average of their best scores.
    const [lesson] = (await t.http.get(`/courses/${courseId}`, { token: a.accessToken })).body.lessons as {
      id: string;
    }[];
    expect(
      (await t.http.post(`/progress/lessons/${lesson.id}/quiz`, { answers: [0] }, { token: a.accessToken })).body.score,
    ).toBe(100);
    expect(
      (await t.http.post(`/progress/lessons/${lesson.id}/complete`, undefined, { token: a.accessToken })).status,
    ).toBe(200);
    expect(
      (await t.http.post(`/progress/lessons/${lesson.id}/quiz`, { answers: [1] }, { token: b.accessToken })).body.score,
    ).toBe(0);
    const after = await t.http.get('/creator/analytics', { token: creator.accessToken });
    expect(after.body.items.find((c: { draftId: string }) => c.draftId === id)).toMatchObject({
      enrollments: 3,
      completions: 1,
      averageScore: 50,
    });
    const gql = await t.http.gql('{ creatorAnalytics { draftId enrollments } }', {}, otherCreator.accessToken);
    expect(gql.body.data.creatorAnalytics).toEqual([]);
    expect((await t.http.get('/creator/analytics', { token: a.accessToken })).status).toBe(403);
    expect((await t.http.get('/creator/analytics')).status).toBe(401);
  });
});

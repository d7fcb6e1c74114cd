import { PDFParse } from 'pdf-parse';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { linkFamily, withBasicData } from '../support/family';
import { homeOf } from '../support/regions';
import { withMailAndApp } from '../support/setup';
import { fewestStatements, settled } from '../support/sql';
import type { SmtpServer } from '../support/smtp';
import { learnerOfAge, type SignedIn, verifiedGuardian } from '../support/users';
import { contentAdmin, publishedCourse } from './support';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let editor: SignedIn;
beforeAll(async () => {
  ({ t, smtp } = ctx);
  editor = await contentAdmin(t);
});

async function enrolledLearner(courseId: string, age = 14): Promise<SignedIn> {
  const learner = await withBasicData(t, await learnerOfAge(t, age));
  await t.http.post(`/courses/${courseId}/enrollment`, undefined, { token: learner.accessToken });
  return learner;
}

const complete = (who: SignedIn, lessonId: string, seconds?: number) =>
  t.http.post(
    `/progress/lessons/${lessonId}/complete`,
    seconds === undefined ? undefined : { timeSpentSeconds: seconds },
    { token: who.accessToken },
  );
const quiz = (who: SignedIn, lessonId: string, answers: unknown) =>
  t.http.post(`/progress/lessons/${lessonId}/quiz`, { answers }, { token: who.accessToken });

describe('lessons and quizzes', () => {
  it('completes a lesson once, however often it is sent, and tracks time and percent', async () => {
    const course = await publishedCourse(t, editor, {}, 4);
    const learner = await enrolledLearner(course.id);
    const first = await complete(learner, course.lessonIds[0], 300);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      courseId: course.id,
      lessonsTotal: 4,
      lessonsCompleted: 1,
      percent: 25,
      timeSpentSeconds: 300,
      completed: false,
    });
    const again = await complete(learner, course.lessonIds[0], 999);
    expect(again.body).toMatchObject({ lessonsCompleted: 1, timeSpentSeconds: 300 });
    const gql = await t.http.gql(
      'mutation($id: ID!) { completeLesson(lessonId: $id, input: { timeSpentSeconds: 60 }) { lessonsCompleted percent } }',
      { id: course.lessonIds[1] },
      learner.accessToken,
    );
    expect(gql.body.data.completeLesson).toEqual({ lessonsCompleted: 2, percent: 50 });
    const progress = await t.http.get(`/progress/courses/${course.id}`, { token: learner.accessToken });
    expect(progress.body).toMatchObject({
      lessonsCompleted: 2,
      timeSpentSeconds: 360,
      lastActivityAt: expect.any(String),
    });
    // Announced through the outbox: there once nothing is left to deliver, and only once.
    await settled(t);
    const halfway = (await t.http.get('/notifications', { token: learner.accessToken })).body.items.filter(
      (n: { data: { milestone?: string } }) => n.data.milestone === 'halfway',
    );
    expect(halfway).toHaveLength(1);
    expect(halfway[0]).toMatchObject({
      type: 'progress',
      title: 'Halfway there!',
      data: { courseId: course.id, milestone: 'halfway' },
    });
    const me = await t.http.get('/progress/me', { token: learner.accessToken });
    expect(me.body).toMatchObject({
      learnerId: learner.id,
      streakDays: 1,
      timeSpentSeconds: 360,
      courses: [{ courseId: course.id, percent: 50 }],
    });
  });

  it('scores quizzes on the server and keeps every attempt', async () => {
    const course = await publishedCourse(t, editor);
    const learner = await enrolledLearner(course.id);
    const half = await quiz(learner, course.lessonIds[0], [1, 1]);
    expect(half.status).toBe(200);
    expect(half.body).toMatchObject({ score: 50, correct: 1, total: 2, attempt: 1 });
    expect(half.body.results).toEqual([
      { correct: true, explanation: { en: 'Two and two make four.', vi: 'Two and two make four. (vi)' } },
      { correct: false, explanation: expect.any(Object) },
    ]);
    const full = await t.http.gql(
      'mutation($id: ID!) { submitQuiz(lessonId: $id, input: { answers: [1, 0] }) { score attempt } }',
      { id: course.lessonIds[0] },
      learner.accessToken,
    );
    expect(full.body.data.submitQuiz).toEqual({ score: 100, attempt: 2 });
    // The best attempt counts.
    expect((await t.http.get(`/progress/courses/${course.id}`, { token: learner.accessToken })).body.averageScore).toBe(
      100,
    );
    for (const answers of [[1], [1, 0, 1], 'all', [1, 'x']])
      expect((await quiz(learner, course.lessonIds[0], answers)).status, JSON.stringify(answers)).toBe(400);
  });

  it('refuses lessons of courses the learner is not enrolled in (403), unknown ones (404), and callers without a token (401)', async () => {
    const course = await publishedCourse(t, editor);
    const stranger = await withBasicData(t, await learnerOfAge(t, 14));
    const refused = await complete(stranger, course.lessonIds[0]);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    expect((await quiz(stranger, course.lessonIds[0], [1, 0])).status).toBe(403);
    expect((await complete(stranger, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`)).status).toBe(401);
    expect((await t.http.get(`/progress/courses/${course.id}`, { token: stranger.accessToken })).status).toBe(404);
  });
});

describe('certificates', () => {
  it('issues exactly one when the last two lessons complete at once, notifies, and makes a bilingual PDF', async () => {
    const course = await publishedCourse(
      t,
      editor,
      { title: { en: 'Loops and lists', vi: 'Vòng lặp và danh sách' } },
      2,
    );
    const learner = await enrolledLearner(course.id);
    await quiz(learner, course.lessonIds[0], [1, 0]);
    await quiz(learner, course.lessonIds[1], [1, 1]);
    const both = await Promise.all(course.lessonIds.map((id) => complete(learner, id)));
    expect(both.map((r) => r.status)).toEqual([200, 200]);

    const list = await t.http.get('/certificates', { token: learner.accessToken });
    expect(list.body.items).toHaveLength(1);
    const certificate = list.body.items[0];
    expect(certificate).toMatchObject({
      courseId: course.id,
      learnerName: 'Lan Nguyen',
      averageScore: 75,
      code: expect.stringMatching(/^[0-9A-F]{12}$/),
    });
    await expect
      .poll(async () =>
        (await t.http.get('/notifications?limit=10', { token: learner.accessToken })).body.items.filter(
          (n: { type: string }) => n.type === 'certificate',
        ),
      )
      .toHaveLength(1);

    const pdf = await fetch(`${t.url}/certificates/${certificate.id}/pdf`, {
      headers: { authorization: `Bearer ${learner.accessToken}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const parsed = await new PDFParse({ data: new Uint8Array(await pdf.arrayBuffer()) }).getText();
    expect(parsed.text).toContain('Lan Nguyen');
    expect(parsed.text).toContain('Vòng lặp và danh sách');
    expect(parsed.text).toContain('CHỨNG NHẬN HOÀN THÀNH');
    expect(parsed.text).toContain(certificate.code);

    const stranger = await withBasicData(t, await learnerOfAge(t, 15));
    expect((await t.http.get(`/certificates/${certificate.id}`, { token: stranger.accessToken })).status).toBe(404);
    expect(
      (
        await fetch(`${t.url}/certificates/${certificate.id}/pdf`, {
          headers: { authorization: `Bearer ${stranger.accessToken}` },
        })
      ).status,
    ).toBe(404);
    expect((await fetch(`${t.url}/certificates/${certificate.id}/pdf`)).status).toBe(401);
  });

  it('is checked publicly by its code, showing the name, the course and the date only', async () => {
    const course = await publishedCourse(t, editor, {}, 1);
    const learner = await enrolledLearner(course.id);
    await quiz(learner, course.lessonIds[0], [1, 0]);
    await complete(learner, course.lessonIds[0]);
    const [certificate] = (await t.http.get('/certificates', { token: learner.accessToken })).body.items;
    const check = await t.http.get(`/certificates/verify/${certificate.code}`);
    expect(check.status).toBe(200);
    expect(check.body).toEqual({
      code: certificate.code,
      learnerName: 'Lan Nguyen',
      courseTitle: { en: 'Python for beginners', vi: 'Python cho người mới bắt đầu' },
      issuedAt: certificate.issuedAt,
    });
    expect(JSON.stringify(check.body)).not.toMatch(/@|learnerId|averageScore|birth/);
    expect((await t.http.get('/certificates/verify/FFFFFFFFFFFF')).status).toBe(404);
    expect((await t.http.get('/certificates/verify/not-a-code')).status).toBe(404);
    const gql = await t.http.gql('query($c: String!) { verifyCertificate(code: $c) { learnerName } }', {
      c: certificate.code,
    });
    expect(gql.body.data.verifyCertificate.learnerName).toBe('Lan Nguyen');
  });

  it('is not issued below the pass mark', async () => {
    const course = await publishedCourse(t, editor, { passMark: 90 }, 1);
    const learner = await enrolledLearner(course.id);
    await quiz(learner, course.lessonIds[0], [0, 1]);
    const done = await complete(learner, course.lessonIds[0]);
    expect(done.body).toMatchObject({ completed: true, averageScore: 0 });
    expect((await t.http.get('/certificates', { token: learner.accessToken })).body.items).toEqual([]);
  });
});

describe('guardian views', () => {
  it("show a linked learner's progress, courses and certificates, and nothing of others (404)", async () => {
    const course = await publishedCourse(t, editor, {}, 1);
    const guardian = await verifiedGuardian(t, smtp);
    const learner = await enrolledLearner(course.id);
    await linkFamily(t, guardian, learner);
    await quiz(learner, course.lessonIds[0], [1, 0]);
    await complete(learner, course.lessonIds[0], 120);

    const progress = await t.http.get(`/guardian/learners/${learner.id}/progress`, { token: guardian.accessToken });
    expect(progress.body).toMatchObject({
      learnerId: learner.id,
      timeSpentSeconds: 120,
      courses: [{ courseId: course.id, percent: 100, averageScore: 100 }],
    });
    expect(
      (await t.http.get(`/guardian/learners/${learner.id}/courses`, { token: guardian.accessToken })).body.items[0]
        .course.id,
    ).toBe(course.id);
    expect(
      (await t.http.get(`/guardian/learners/${learner.id}/certificates`, { token: guardian.accessToken })).body.items,
    ).toHaveLength(1);
    // The guardian heard of the certificate too.
    await expect
      .poll(async () =>
        (await t.http.get('/notifications', { token: guardian.accessToken })).body.items.some(
          (n: { type: string; data: { learnerId: string } }) =>
            n.type === 'certificate' && n.data.learnerId === learner.id,
        ),
      )
      .toBe(true);
    // And of the finished course, as the learner did: each once, the guardian's naming the learner.
    await settled(t);
    const progressOf = async (who: SignedIn) =>
      (await t.http.get('/notifications', { token: who.accessToken })).body.items.filter(
        (n: { type: string }) => n.type === 'progress',
      );
    expect(await progressOf(learner)).toEqual([
      expect.objectContaining({ title: 'Course finished!', data: { courseId: course.id } }),
    ]);
    expect(await progressOf(guardian)).toEqual([
      expect.objectContaining({
        title: 'Lan Nguyen finished a course',
        data: { courseId: course.id, learnerId: learner.id },
      }),
    ]);

    const other = await verifiedGuardian(t, smtp);
    for (const part of ['progress', 'courses', 'certificates']) {
      const reply = await t.http.get(`/guardian/learners/${learner.id}/${part}`, { token: other.accessToken });
      expect(reply.status, part).toBe(404);
    }
    expect((await t.http.get(`/guardian/learners/${learner.id}/progress`, { token: learner.accessToken })).status).toBe(
      403,
    );
  });

  it('answer the dashboard in the same number of queries for one learner or three', async () => {
    const courses = [await publishedCourse(t, editor, {}, 3), await publishedCourse(t, editor, {}, 2)];
    async function familyOf(size: number) {
      const guardian = await verifiedGuardian(t, smtp);
      for (let i = 0; i < size; i++) {
        const child = (
          await t.http.post(
            '/guardian/learners',
            { displayName: `Child ${i}`, birthDate: '2014-02-02' },
            { token: guardian.accessToken },
          )
        ).body.learner;
        const home = await homeOf(t, child.id);
        for (const course of courses) {
          // Seeded straight in the child's home database: the dashboard's reading is what is measured.
          await home.orm.em
            .getConnection()
            .execute(
              'insert into enrollments (id, learner_id, course_id, created_at) values (gen_random_uuid(), ?, ?, now())',
              [child.id, course.id],
            );
          await home.orm.em
            .getConnection()
            .execute(
              'insert into lesson_completions (id, learner_id, lesson_id, course_id, time_spent_seconds, completed_at) values (gen_random_uuid(), ?, ?, ?, 60, now())',
              [child.id, course.lessonIds[0], course.id],
            );
        }
      }
      return guardian;
    }
    const [small, large] = [await familyOf(1), await familyOf(3)];
    const query =
      '{ guardianDashboard { learner { id displayName } progress { streakDays courses { percent lessonsTotal } } certificates { code } } }';
    await settled(t);
    const one = await fewestStatements(t, () => t.http.gql(query, {}, small.accessToken));
    const three = await fewestStatements(t, () => t.http.gql(query, {}, large.accessToken));
    expect(one.result.body.data.guardianDashboard).toHaveLength(1);
    expect(three.result.body.data.guardianDashboard).toHaveLength(3);
    expect(three.result.body.data.guardianDashboard[2].progress.courses).toHaveLength(2);
    expect(three.count, `${one.count} queries for one learner`).toBe(one.count);
    expect(one.count).toBeLessThanOrEqual(12);
    const rest = await t.http.get('/guardian/dashboard', { token: large.accessToken });
    expect(rest.body.items).toHaveLength(3);
  });
});

describe('the GraphQL twins', () => {
  it('answer what REST answers, and refuse what REST refuses', async () => {
    const course = await publishedCourse(t, editor, {}, 1);
    const guardian = await verifiedGuardian(t, smtp);
    const learner = await enrolledLearner(course.id);
    await linkFamily(t, guardian, learner);
    await quiz(learner, course.lessonIds[0], [1, 0]);
    await complete(learner, course.lessonIds[0], 30);

    const mine = await t.http.gql(
      'query($c: ID!) { myCourses { course { id } } courseProgress(courseId: $c) { percent } myProgress { streakDays timeSpentSeconds } myCertificates { id code } }',
      { c: course.id },
      learner.accessToken,
    );
    expect(mine.body.data).toMatchObject({
      myCourses: [{ course: { id: course.id } }],
      courseProgress: { percent: 100 },
      myProgress: { streakDays: 1, timeSpentSeconds: 30 },
    });
    const certificateId = mine.body.data.myCertificates[0].id;
    expect(
      (
        await t.http.gql(
          'query($id: ID!) { certificate(id: $id) { averageScore } }',
          { id: certificateId },
          learner.accessToken,
        )
      ).body.data.certificate.averageScore,
    ).toBe(100);

    const theirs = await t.http.gql(
      'query($l: ID!) { learnerProgress(learnerId: $l) { learnerId } learnerCourses(learnerId: $l) { course { id } } learnerCertificates(learnerId: $l) { id } }',
      { l: learner.id },
      guardian.accessToken,
    );
    expect(theirs.body.data).toEqual({
      learnerProgress: { learnerId: learner.id },
      learnerCourses: [{ course: { id: course.id } }],
      learnerCertificates: [{ id: certificateId }],
    });

    const other = await verifiedGuardian(t, smtp);
    const refused = await t.http.gql(
      'query($l: ID!) { learnerProgress(learnerId: $l) { learnerId } }',
      { l: learner.id },
      other.accessToken,
    );
    expect(refused.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const stranger = await withBasicData(t, await learnerOfAge(t, 14));
    const notEnrolled = await t.http.gql(
      'mutation($id: ID!) { completeLesson(lessonId: $id) { percent } }',
      { id: course.lessonIds[0] },
      stranger.accessToken,
    );
    expect(notEnrolled.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.http.gql('{ myProgress { streakDays } }')).body.errors?.[0].extensions.code).toBe(
      'UNAUTHENTICATED',
    );
    const bad = await t.http.gql(
      'mutation($id: ID!) { submitQuiz(lessonId: $id, input: { answers: [1] }) { score } }',
      { id: course.lessonIds[0] },
      learner.accessToken,
    );
    expect(bad.body.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
  });
});

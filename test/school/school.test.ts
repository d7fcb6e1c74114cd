import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin, publishedCourse } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { linkFamily, withBasicData } from '../support/family';
import { fewestStatements, settled } from '../support/sql';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import {
  adultSignup,
  learnerOfAge,
  type SignedIn,
  signInAdmin,
  signUp,
  uniqueEmail,
  verifiedGuardian,
} from '../support/users';

let t: TestApp;
let smtp: SmtpServer;
let admin: SignedIn;
let editor: SignedIn;
let schoolAdmin: SignedIn;
let teacher: SignedIn;
let otherTeacher: SignedIn;
let schoolId: string;
let otherSchoolId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await startTestApp({ SMTP_URL: smtp.url });
  admin = await signInAdmin(t);
  editor = await contentAdmin(t);
  schoolAdmin = await signUp(t, adultSignup({ email: uniqueEmail('head') }));
  teacher = await signUp(t, adultSignup({ email: uniqueEmail('teacher') }));
  otherTeacher = await signUp(t, adultSignup({ email: uniqueEmail('other-teacher'), country: 'DE' }));
  schoolId = (
    await t.http.post('/school', { name: 'Trường Tiểu học Lê Lợi', country: 'VN' }, { token: admin.accessToken })
  ).body.id;
  otherSchoolId = (await t.http.post('/school', { name: 'Other School', country: 'DE' }, { token: admin.accessToken }))
    .body.id;
  await t.http.post(
    `/school/${schoolId}/members`,
    { email: schoolAdmin.email, role: 'school_admin' },
    { token: admin.accessToken },
  );
  await t.http.post(
    `/school/${schoolId}/members`,
    { email: teacher.email, role: 'teacher' },
    { token: schoolAdmin.accessToken },
  );
  await t.http.post(
    `/school/${otherSchoolId}/members`,
    { email: otherTeacher.email, role: 'teacher' },
    { token: admin.accessToken },
  );
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const newClass = async (name = '5A') =>
  (await t.http.post(`/school/${schoolId}/classes`, { name }, { token: teacher.accessToken })).body;
const grant = (guardian: SignedIn, learner: SignedIn) =>
  t.http.post(
    '/consent/grant',
    { consentTypeId: 'progress_sharing', learnerId: learner.id },
    { token: guardian.accessToken },
  );
const revoke = (guardian: SignedIn, learner: SignedIn) =>
  t.http.post(
    '/consent/revoke',
    { consentTypeId: 'progress_sharing', learnerId: learner.id },
    { token: guardian.accessToken },
  );

describe('schools and their staff', () => {
  it('lets admins create schools and school admins name teachers; audited', async () => {
    const created = await t.http.gql(
      'mutation { createSchool(input: { name: "GQL school", country: "us" }) { id name country } }',
      {},
      admin.accessToken,
    );
    expect(created.body.data.createSchool).toMatchObject({ name: 'GQL school', country: 'US' });
    const member = await t.http.post(
      `/school/${schoolId}/members`,
      { email: teacher.email, role: 'teacher' },
      { token: schoolAdmin.accessToken },
    );
    expect(member.status).toBe(201);
    expect(member.body).toMatchObject({ schoolId, userId: teacher.id, role: 'teacher', email: teacher.email });
    const audit = await t.http.get(`/admin/audit?targetId=${schoolId}`, { token: admin.accessToken });
    expect(audit.body.items.map((e: { action: string }) => e.action)).toContain('school.member_set');
    const me = await t.http.get('/school/me', { token: teacher.accessToken });
    expect(me.body.schools).toEqual([expect.objectContaining({ schoolId, role: 'teacher' })]);
  });

  it('refuses: non-admins creating schools, teachers naming staff, other schools, bad input, unknown people', async () => {
    expect((await t.http.post('/school', { name: 'X', country: 'VN' })).status).toBe(401);
    expect((await t.http.post('/school', { name: 'X', country: 'VN' }, { token: teacher.accessToken })).status).toBe(
      403,
    );
    const bad = await t.http.post('/school', { name: '', country: 'XX' }, { token: admin.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['country', 'name']);
    expect(
      (
        await t.http.post(
          `/school/${schoolId}/members`,
          { email: otherTeacher.email, role: 'teacher' },
          { token: teacher.accessToken },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await t.http.post(
          `/school/${otherSchoolId}/members`,
          { email: teacher.email, role: 'teacher' },
          { token: schoolAdmin.accessToken },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await t.http.post(
          `/school/${schoolId}/members`,
          { email: uniqueEmail('nobody'), role: 'teacher' },
          { token: schoolAdmin.accessToken },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.http.post(
          `/school/${schoolId}/members`,
          { email: teacher.email, role: 'principal' },
          { token: schoolAdmin.accessToken },
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await t.http.post(
          '/school/00000000-0000-4000-8000-000000000000/classes',
          { name: 'A' },
          { token: teacher.accessToken },
        )
      ).status,
    ).toBe(404);
    const foreign = await t.http.post(
      `/school/${schoolId}/classes`,
      { name: 'Intruders' },
      { token: otherTeacher.accessToken },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body.error).toBe('forbidden');
    const gql = await t.http.gql(
      'mutation($s: ID!) { createClass(schoolId: $s, input: { name: "x" }) { id } }',
      { s: schoolId },
      otherTeacher.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('classes, join codes and rosters', () => {
  it('creates a class with an 8-character code that learners join with; rotation retires the old code', async () => {
    const created = await t.http.post(`/school/${schoolId}/classes`, { name: '6B' }, { token: teacher.accessToken });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      name: '6B',
      joinCode: expect.stringMatching(/^[A-Z2-9]{8}$/),
    });
    const adult = await learnerOfAge(t, 19);
    const joined = await t.http.post(
      '/school/join',
      { code: created.body.joinCode.toLowerCase() },
      { token: adult.accessToken },
    );
    expect(joined.status).toBe(201);
    expect(joined.body).toMatchObject({ classId: created.body.id, className: '6B', status: 'active', schoolId });
    expect(
      (await t.http.post('/school/join', { code: created.body.joinCode }, { token: adult.accessToken })).status,
    ).toBe(409);

    const rotated = await t.http.post(`/school/classes/${created.body.id}/join-code`, undefined, {
      token: teacher.accessToken,
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body.joinCode).not.toBe(created.body.joinCode);
    const late = await learnerOfAge(t, 19);
    const refused = await t.http.post('/school/join', { code: created.body.joinCode }, { token: late.accessToken });
    expect(refused.status).toBe(404);
    const gql = await t.http.gql(
      'mutation($c: String!) { joinClass(input: { code: $c }) { status } }',
      { c: rotated.body.joinCode },
      late.accessToken,
    );
    expect(gql.body.data.joinClass.status).toBe('ACTIVE');

    const roster = await t.http.get(`/school/classes/${created.body.id}`, { token: teacher.accessToken });
    expect(roster.status).toBe(200);
    expect(roster.body.members.map((m: { learnerId: string }) => m.learnerId)).toEqual([adult.id, late.id]);
  });

  it('lets a learner join once when the same code is sent twice at once', async () => {
    const cls = await newClass('twice');
    const learner = await learnerOfAge(t, 19);
    const replies = await Promise.all(
      [1, 2, 3].map(() => t.http.post('/school/join', { code: cls.joinCode }, { token: learner.accessToken })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const roster = await t.http.get(`/school/classes/${cls.id}`, { token: teacher.accessToken });
    expect(roster.body.members).toHaveLength(1);
  });

  it('refuses bad codes, non-learners joining, learners reading rosters and teachers of other schools', async () => {
    const cls = await newClass('7C');
    const learner = await learnerOfAge(t, 19);
    await t.http.post('/school/join', { code: cls.joinCode }, { token: learner.accessToken });
    const bad = await t.http.post('/school/join', { code: 'short' }, { token: learner.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('code');
    expect((await t.http.post('/school/join', { code: cls.joinCode })).status).toBe(401);
    expect((await t.http.post('/school/join', { code: cls.joinCode }, { token: teacher.accessToken })).status).toBe(
      403,
    );

    const asLearner = await t.http.get(`/school/classes/${cls.id}`, { token: learner.accessToken });
    expect(asLearner.status).toBe(403);
    expect(asLearner.body.error).toBe('forbidden');
    expect((await t.http.get(`/school/classes/${cls.id}/progress`, { token: learner.accessToken })).status).toBe(403);
    expect((await t.http.get(`/school/classes/${cls.id}`, { token: otherTeacher.accessToken })).status).toBe(403);
    expect(
      (await t.http.post(`/school/classes/${cls.id}/join-code`, undefined, { token: otherTeacher.accessToken })).status,
    ).toBe(403);
    const gql = await t.http.gql(
      'query($c: ID!) { schoolClass(classId: $c) { id } }',
      { c: cls.id },
      learner.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(
      (await t.http.get('/school/classes/00000000-0000-4000-8000-000000000000', { token: teacher.accessToken })).status,
    ).toBe(404);
    expect((await t.http.get(`/school/classes/${cls.id}`)).status).toBe(401);
    // The school's admin and platform admins may read it.
    expect((await t.http.get(`/school/classes/${cls.id}`, { token: schoolAdmin.accessToken })).status).toBe(200);
    expect((await t.http.get(`/school/classes/${cls.id}`, { token: admin.accessToken })).status).toBe(200);
  });
});

describe('the consent rule for class progress', () => {
  it('keeps a minor pending_consent until a guardian grants progress_sharing, and hides progress again at once on revocation', async () => {
    const course = await publishedCourse(t, editor, { minAge: 10, maxAge: 18 }, 2);
    const cls = await newClass('8D');
    expect(
      (await t.http.post(`/school/classes/${cls.id}/courses`, { courseId: course.id }, { token: teacher.accessToken }))
        .status,
    ).toBe(201);
    const guardian = await verifiedGuardian(t, smtp);
    const child = await withBasicData(t, await learnerOfAge(t, 14));
    await linkFamily(t, guardian, child);
    await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: child.accessToken });
    await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`, undefined, { token: child.accessToken });

    const joined = await t.http.post('/school/join', { code: cls.joinCode }, { token: child.accessToken });
    expect(joined.body.status).toBe('pending_consent');
    expect(joined.body.courses.map((c: { courseId: string }) => c.courseId)).toEqual([course.id]);
    let progress = await t.http.get(`/school/classes/${cls.id}/progress`, { token: teacher.accessToken });
    expect(progress.body.learners).toEqual([
      expect.objectContaining({ learnerId: child.id, status: 'pending_consent', courses: null }),
    ]);

    expect((await grant(guardian, child)).status).toBe(200);
    progress = await t.http.get(`/school/classes/${cls.id}/progress`, { token: teacher.accessToken });
    expect(progress.body.learners[0]).toMatchObject({
      status: 'active',
      courses: [{ courseId: course.id, lessonsCompleted: 1, percent: 50 }],
    });
    const mine = await t.http.get('/school/me', { token: child.accessToken });
    expect(mine.body.classes).toEqual([expect.objectContaining({ classId: cls.id, status: 'active' })]);
    const theirs = await t.http.gql(
      '{ schoolMe { children { learnerId classes { classId status } } } }',
      {},
      guardian.accessToken,
    );
    expect(theirs.body.data.schoolMe.children).toEqual([
      { learnerId: child.id, classes: [{ classId: cls.id, status: 'ACTIVE' }] },
    ]);

    expect((await revoke(guardian, child)).status).toBe(200);
    progress = await t.http.gql(
      'query($c: ID!) { classProgress(classId: $c) { learners { learnerId status courses { percent } } } }',
      { c: cls.id },
      teacher.accessToken,
    );
    expect(progress.body.data.classProgress.learners).toEqual([
      { learnerId: child.id, status: 'PENDING_CONSENT', courses: null },
    ]);
  });

  it('reads class progress in the same number of SQL statements for 1 and 30 learners', async () => {
    const course = await publishedCourse(t, editor, { minAge: 10, maxAge: 18 }, 2);
    const classOf = async (size: number) => {
      const cls = await newClass(`size ${size}`);
      await t.http.post(`/school/classes/${cls.id}/courses`, { courseId: course.id }, { token: teacher.accessToken });
      for (let i = 0; i < size; i++) {
        const learner = await learnerOfAge(t, 18);
        await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken });
        await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`, undefined, {
          token: learner.accessToken,
        });
        await t.http.post('/school/join', { code: cls.joinCode }, { token: learner.accessToken });
      }
      return cls.id as string;
    };
    const [one, thirty] = [await classOf(1), await classOf(30)];
    await settled(t);
    const small = await fewestStatements(t, () =>
      t.http.get(`/school/classes/${one}/progress`, { token: teacher.accessToken }),
    );
    const large = await fewestStatements(t, () =>
      t.http.get(`/school/classes/${thirty}/progress`, { token: teacher.accessToken }),
    );
    expect(small.result.body.learners).toHaveLength(1);
    expect(large.result.body.learners).toHaveLength(30);
    expect(
      large.result.body.learners.every((l: { courses: { percent: number }[] }) => l.courses[0].percent === 50),
    ).toBe(true);
    expect(large.count, `${small.count} for one learner`).toBe(small.count);
    expect(small.count).toBeLessThanOrEqual(14);
  });
});

describe('course assignments', () => {
  it('assigns a course once, seen by the class; refused to other schools and for unknown courses', async () => {
    const course = await publishedCourse(t, editor, {}, 1);
    const cls = await newClass('9E');
    const assigned = await t.http.gql(
      'mutation($c: ID!, $k: ID!) { assignClassCourse(classId: $c, input: { courseId: $k }) { courseId title { en } } }',
      { c: cls.id, k: course.id },
      teacher.accessToken,
    );
    expect(assigned.body.data.assignClassCourse.courseId).toBe(course.id);
    expect(
      (await t.http.post(`/school/classes/${cls.id}/courses`, { courseId: course.id }, { token: teacher.accessToken }))
        .status,
    ).toBe(409);
    expect(
      (
        await t.http.post(
          `/school/classes/${cls.id}/courses`,
          { courseId: '00000000-0000-4000-8000-000000000000' },
          { token: teacher.accessToken },
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.http.post(
          `/school/classes/${cls.id}/courses`,
          { courseId: course.id },
          { token: otherTeacher.accessToken },
        )
      ).status,
    ).toBe(403);
    const roster = await t.http.get(`/school/classes/${cls.id}`, { token: teacher.accessToken });
    expect(roster.body.courses.map((c: { courseId: string }) => c.courseId)).toEqual([course.id]);
  });
});

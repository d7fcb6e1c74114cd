import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { inEveryRegion } from '../support/regions';
import { checkout, publishedProduct, subscriptionBody, text } from '../support/commerce';
import { courseBody, publishedCourse } from '../learning/support';
import type { TestApp } from '../support/app';
import { withBasicData } from '../support/family';
import { codesAt, type GqlError } from '../support/http';
import { withMailAndApp } from '../support/setup';
import { fewestStatements, settled } from '../support/sql';
import { graphCast } from './support';
import type { SmtpServer } from '../support/smtp';
import { adultSignup, learnerOfAge, type SignedIn, signUp, uniqueEmail } from '../support/users';

// The graph a dashboard walks: viewer -> linked learners -> their courses, progress and
// certificates; each edge shown to whom it concerns, every refusal a null with its error.
const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let admin: SignedIn;
let editor: SignedIn;
let guardian: SignedIn;
let learner: SignedIn;
let stranger: SignedIn;
let courses: { id: string; lessonIds: string[] }[];

beforeAll(async () => {
  ({ t, smtp } = ctx);
  ({ admin, editor, guardian, stranger, learner } = await graphCast(t, smtp));
  courses = [];
  for (let i = 0; i < 3; i++) courses.push(await publishedCourse(t, editor, { title: text(`Course ${i}`) }));
  for (const course of courses)
    await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken });
  // The first course finished: its certificate, and notifications for learner and guardian.
  for (const lessonId of courses[0].lessonIds)
    await t.http.post(
      `/progress/lessons/${lessonId}/complete`,
      { timeSpentSeconds: 60 },
      { token: learner.accessToken },
    );
  // The notifications follow the completion through the outbox.
  await settled(t);
}, 120_000);

const LEARNER_FIELDS = `id displayName
  progress { streakDays courses { courseId percent } }
  enrollments(first: 10) { totalCount nodes { id enrolledAt course { id } progress { percent completed } } }
  certificates { totalCount nodes { id courseId } }
  consents { consentTypeId granted }
  consentLedger { totalCount }
  aiAccess { enabled }`;

describe('a guardian walks the graph', () => {
  it("reaches each linked learner's courses, progress per course, certificates, consents and AI access in one request", async () => {
    const query = `{ viewer { id unreadNotificationCount
      notifications(filter: UNREAD, first: 5) { totalCount nodes { type read } }
      guardianLinks { nodes { status learnerAccount { id } } }
      linkedLearners { totalCount nodes { ${LEARNER_FIELDS} } } } }`;
    const reply = await t.http.gql(query, {}, guardian.accessToken);
    expect(reply.body.errors).toBeUndefined();
    const viewer = reply.body.data.viewer;
    expect(viewer.id).toBe(guardian.id);
    expect(viewer.unreadNotificationCount).toBeGreaterThanOrEqual(1);
    expect(viewer.notifications.nodes.every((n: { read: boolean }) => !n.read)).toBe(true);
    expect(viewer.guardianLinks.nodes).toEqual([{ status: 'ACTIVE', learnerAccount: { id: learner.id } }]);
    expect(viewer.linkedLearners.totalCount).toBe(1);
    const child = viewer.linkedLearners.nodes[0];
    expect(child.id).toBe(learner.id);
    expect(child.enrollments.totalCount).toBe(3);
    expect(child.enrollments.nodes.map((e: { course: { id: string } }) => e.course.id).sort()).toEqual(
      courses.map((c) => c.id).sort(),
    );
    const finished = child.enrollments.nodes.find((e: { course: { id: string } }) => e.course.id === courses[0].id);
    expect(finished.progress).toEqual({ percent: 100, completed: true });
    expect(child.progress.courses).toHaveLength(3);
    expect(child.certificates).toEqual({ totalCount: 1, nodes: [{ id: expect.any(String), courseId: courses[0].id }] });
    expect(child.consents.map((c: { consentTypeId: string }) => c.consentTypeId)).toContain('PROGRESS_SHARING');
    expect(child.aiAccess).toEqual({ enabled: true });
  });

  it("is refused the learner's notifications, AI conversations, payments, projects and links: null with FORBIDDEN, the rest answered", async () => {
    const query = `{ viewer { linkedLearners { nodes { id displayName
      notifications { totalCount } unreadNotificationCount aiConversations guardianLinks { totalCount }
      linkedLearners { totalCount } payments { totalCount } entitlements { totalCount } projects { totalCount } submissions { totalCount } createdCourses { totalCount } schoolClasses { totalCount }
      progress { streakDays } } } } }`;
    const reply = await t.http.gql(query, {}, guardian.accessToken);
    const child = reply.body.data.viewer.linkedLearners.nodes[0];
    expect(child).toMatchObject({
      id: learner.id,
      displayName: expect.any(String),
      progress: { streakDays: expect.any(Number) },
    });
    for (const edge of [
      'notifications',
      'unreadNotificationCount',
      'aiConversations',
      'guardianLinks',
      'linkedLearners',
      'payments',
      'entitlements',
      'projects',
      'submissions',
      'createdCourses',
      'schoolClasses',
    ]) {
      expect(child[edge], edge).toBeNull();
      expect(codesAt(reply.body.errors, `viewer.linkedLearners.nodes.0.${edge}`), edge).toEqual(['FORBIDDEN']);
    }
  });

  it('cannot walk to a learner who is not theirs: another guardian, an admin and the learner through a link each meet refusals', async () => {
    const other = await t.http.gql(
      `query($id: ID!) { node(id: $id) { id } }`,
      { id: learner.id },
      stranger.accessToken,
    );
    expect(other.body.data.node).toBeNull();
    expect(other.body.errors!.map((e: GqlError) => e.extensions.code)).toEqual(['NOT_FOUND']);
    expect(other.body.errors![0].message).toBe(
      (await t.http.gql(`query($id: ID!) { node(id: $id) { id } }`, { id: randomUUID() }, stranger.accessToken)).body
        .errors![0].message,
    );
    expect(
      (await t.http.gql('{ viewer { linkedLearners { totalCount } } }', {}, stranger.accessToken)).body.data.viewer
        .linkedLearners.totalCount,
    ).toBe(0);

    // An admin lists accounts, but an account's edges are its own and its guardians'.
    const listed = await t.http.gql(
      `query($email: String) { users(first: 1, filter: { email: $email }) { nodes { id enrollments { totalCount } progress { streakDays } certificates { totalCount } notifications { totalCount } consents { granted } consentLedger { totalCount } aiAccess { enabled } } } }`,
      { email: learner.email },
      admin.accessToken,
    );
    expect(listed.body.data.users.nodes[0]).toMatchObject({
      id: learner.id,
      enrollments: null,
      progress: null,
      certificates: null,
      notifications: null,
      consents: null,
      aiAccess: null,
    });
    for (const edge of [
      'enrollments',
      'progress',
      'certificates',
      'notifications',
      'consents',
      'consentLedger',
      'aiAccess',
    ])
      expect(codesAt(listed.body.errors, `users.nodes.0.${edge}`), edge).toEqual(['FORBIDDEN']);

    // The learner sees their links, but walking through one to an account is the guardian's way.
    const own = await t.http.gql(
      '{ viewer { guardianLinks { nodes { status guardian { id } learnerAccount { id } } } } }',
      {},
      learner.accessToken,
    );
    expect(own.body.data.viewer.guardianLinks.nodes[0]).toMatchObject({
      status: 'ACTIVE',
      guardian: { id: guardian.id },
      learnerAccount: null,
    });
    expect(codesAt(own.body.errors, 'viewer.guardianLinks.nodes.0.learnerAccount')).toEqual(['FORBIDDEN']);

    // Without a token there is no viewer, and no edge of anyone's.
    const anonymous = await t.http.gql('{ viewer { id } }');
    expect(anonymous.body.errors!.map((e: GqlError) => e.extensions.code)).toEqual(['UNAUTHENTICATED']);
  });
});

describe('a learner walks their own graph', () => {
  it('reaches enrollments, progress, certificates, notifications with the filter and unread count, links, consents and the ledger', async () => {
    const reply = await t.http.gql(
      `{ me { ${LEARNER_FIELDS} unreadNotificationCount notifications(filter: ALL) { totalCount nodes { id type } } guardianLinks { totalCount } aiConversations } }`,
      {},
      learner.accessToken,
    );
    const me = reply.body.data.me;
    expect(me.enrollments.totalCount).toBe(3);
    expect(me.certificates.totalCount).toBe(1);
    expect(me.unreadNotificationCount).toBeGreaterThanOrEqual(1);
    expect(me.notifications.nodes.map((n: { type: string }) => n.type)).toContain('CERTIFICATE');
    expect(me.guardianLinks.totalCount).toBe(1);
    // The tutor needs its consent, as aiConversations at the root does.
    expect(me.aiConversations).toBeNull();
    expect(codesAt(reply.body.errors, 'me.aiConversations')).toEqual(['GUARDIAN_CONSENT_REQUIRED']);
  });

  it('sees on a course its lessons and their own enrollment and progress; anonymous callers see the course with null for both', async () => {
    const query = `query($id: ID!) { course(id: $id) { id lessons { id } viewerEnrollment { id course { id } } viewerProgress { percent lessonsCompleted } } }`;
    const mine = await t.http.gql(query, { id: courses[0].id }, learner.accessToken);
    expect(mine.body.data.course).toMatchObject({
      lessons: courses[0].lessonIds.map((id) => ({ id })),
      viewerEnrollment: { course: { id: courses[0].id } },
      viewerProgress: { percent: 100, lessonsCompleted: 2 },
    });
    const anonymous = await t.http.gql(query, { id: courses[0].id });
    expect(anonymous.body.errors).toBeUndefined();
    expect(anonymous.body.data.course).toMatchObject({
      id: courses[0].id,
      viewerEnrollment: null,
      viewerProgress: null,
    });
    const notEnrolled = await t.http.gql(query, { id: courses[0].id }, guardian.accessToken);
    expect(notEnrolled.body.data.course).toMatchObject({ viewerEnrollment: null, viewerProgress: null });
  });
});

describe('node(id:) and nodes(ids:)', () => {
  const NODE = `query($id: ID!) { node(id: $id) { __typename id } }`;
  const node = (id: string, who?: SignedIn) => t.http.gql(NODE, { id }, who?.accessToken);
  const expectHidden = async (id: string, who?: SignedIn) => {
    const reply = await node(id, who);
    expect(reply.status).toBe(200);
    expect(reply.body.data.node).toBeNull();
    expect(reply.body.errors!.map((e: GqlError) => e.extensions.code)).toEqual(['NOT_FOUND']);
  };

  it('answers every node type to whom may see it, and NOT_FOUND to anyone else, as for an id that names nothing', async () => {
    const someone = await signUp(t, adultSignup({ email: uniqueEmail('someone') }));
    const product = await publishedProduct(t, admin);
    const draft = (
      await t.http.post('/products', { ...subscriptionBody(), title: text('Draft') }, { token: admin.accessToken })
    ).body;
    const payment = (
      await checkout(t, someone, { productId: product.id, priceId: product.prices[0].id, provider: 'sandbox' })
    ).body;
    const project = (
      await t.http.post(
        '/projects',
        {
          title: 'Mine',
          description: '',
          language: 'javascript',
          files: [{ path: 'main.js', content: 'console.log(1)' }],
          visibility: 'private',
        },
        { token: learner.accessToken },
      )
    ).body;
    const exercise = (
      await t.http.post(
        '/codelab/exercises',
        {
          title: text('Echo'),
          prompt: text('Print the input'),
          language: 'javascript',
          starterCode: '',
          difficulty: 'easy',
          tests: [{ name: 'one', hidden: false, input: '1\n', expected: '1\n' }],
        },
        { token: editor.accessToken },
      )
    ).body;
    // The exercise is written in global's database; the vn learner's submission reads vn's copy of it.
    await inEveryRegion(t, 'select 1 from codelab_exercises where id = ?', [exercise.id]);
    const submission = (
      await t.http.post(
        `/codelab/exercises/${exercise.id}/submissions`,
        { code: 'console.log(1)' },
        { token: learner.accessToken },
      )
    ).body;
    const me = (
      await t.http.gql(
        '{ me { enrollments(first: 1) { nodes { id } } certificates { nodes { id } } notifications(first: 1) { nodes { id } } guardianLinks { nodes { id } } } }',
        {},
        learner.accessToken,
      )
    ).body.data.me;
    const unpublished = (await t.http.post('/courses', courseBody(), { token: editor.accessToken })).body;

    // [type, id, who sees it (undefined: anyone, even without a token)]
    const visible: [string, string, SignedIn | undefined][] = [
      ['User', learner.id, learner],
      ['User', learner.id, guardian],
      ['User', learner.id, admin],
      ['Course', courses[0].id, undefined],
      ['Course', unpublished.id, editor],
      ['Lesson', courses[0].lessonIds[0], undefined],
      ['Enrollment', me.enrollments.nodes[0].id, learner],
      ['Certificate', me.certificates.nodes[0].id, learner],
      ['Notification', me.notifications.nodes[0].id, learner],
      ['GuardianLink', me.guardianLinks.nodes[0].id, guardian],
      ['GuardianLink', me.guardianLinks.nodes[0].id, learner],
      ['Product', product.id, undefined],
      ['Product', draft.id, admin],
      ['Payment', payment.id, someone],
      ['Project', project.id, learner],
      ['Project', project.id, guardian],
      ['Exercise', exercise.id, learner],
      ['Submission', submission.id, learner],
    ];
    for (const [type, id, viewer] of visible) {
      const seen = await node(id, viewer);
      expect(seen.body.errors, `${type} ${viewer?.email ?? 'anonymous'}`).toBeUndefined();
      expect(seen.body.data.node, type).toEqual({ __typename: type, id });
    }
    // [id, who may not see it (undefined: a caller without a token)]
    const hidden: [string, SignedIn | undefined][] = [
      [learner.id, stranger],
      [learner.id, someone],
      [learner.id, undefined],
      [unpublished.id, learner],
      [unpublished.lessons[0].id, learner],
      [me.enrollments.nodes[0].id, guardian],
      [me.certificates.nodes[0].id, stranger],
      [me.certificates.nodes[0].id, undefined],
      [me.notifications.nodes[0].id, guardian],
      [me.guardianLinks.nodes[0].id, stranger],
      [draft.id, someone],
      [payment.id, learner],
      [payment.id, undefined],
      [project.id, stranger],
      [project.id, undefined],
      [exercise.id, undefined],
      [submission.id, guardian],
    ];
    for (const [id, outsider] of hidden) await expectHidden(id, outsider);
    // Malformed and unknown ids read the same as hidden ones.
    for (const id of [randomUUID(), 'not-an-id', '']) await expectHidden(id, learner);
  });

  it('nodes(ids:) answers in order, null with NOT_FOUND for each one hidden, and refuses more than 100 ids', async () => {
    const ids = [courses[1].id, learner.id, randomUUID(), guardian.id];
    const reply = await t.http.gql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on Course { title { en } } ... on User { displayName } } }',
      { ids },
      guardian.accessToken,
    );
    expect(reply.body.data.nodes).toEqual([
      { __typename: 'Course', id: courses[1].id, title: { en: 'Course 1' } },
      { __typename: 'User', id: learner.id, displayName: expect.any(String) },
      null,
      { __typename: 'User', id: guardian.id, displayName: expect.any(String) },
    ]);
    expect(reply.body.errors!.map((e) => [(e as GqlError & { path: unknown[] }).path, e.extensions.code])).toEqual([
      [['nodes', 2], 'NOT_FOUND'],
    ]);
    const tooMany = await t.http.gql(
      'query($ids: [ID!]!) { nodes(ids: $ids) { id } }',
      { ids: Array.from({ length: 101 }, () => randomUUID()) },
      guardian.accessToken,
    );
    expect(tooMany.body.errors![0].extensions.code).toBe('VALIDATION_FAILED');
  });
});

describe('connections', () => {
  it('page forward to the end with no duplicate and no gap while rows are added, and take first at most 100', async () => {
    const pager = await withBasicData(t, await learnerOfAge(t, 15));
    const more = [];
    for (let i = 0; i < 4; i++) more.push(await publishedCourse(t, editor, { title: text(`Paged ${i}`) }, 1));
    const before = [...courses, ...more];
    for (const course of before)
      await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: pager.accessToken });
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const reply: {
        body: {
          data: {
            me: {
              enrollments: {
                edges: { cursor: string; node: { course: { id: string } } }[];
                pageInfo: { hasNextPage: boolean; endCursor: string };
              };
            };
          };
        };
      } = await t.http.gql(
        'query($after: String) { me { enrollments(first: 2, after: $after) { edges { cursor node { course { id } } } pageInfo { hasNextPage endCursor } } } }',
        { after },
        pager.accessToken,
      );
      const page = reply.body.data.me.enrollments;
      seen.push(...page.edges.map((e) => e.node.course.id));
      pages++;
      // Someone enrolls in another course between two pages: it is newer than every cursor handed out.
      const extra = await publishedCourse(t, editor, { title: text(`Late ${pages}`) }, 1);
      await t.http.post(`/courses/${extra.id}/enrollment`, undefined, { token: pager.accessToken });
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(4);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort()).toEqual(before.map((c) => c.id).sort());

    const tooLarge = await t.http.gql('{ me { enrollments(first: 101) { totalCount } } }', {}, pager.accessToken);
    expect(tooLarge.body.errors![0].extensions.code).toBe('VALIDATION_FAILED');
    const badCursor = await t.http.gql(
      '{ me { enrollments(after: "bm90IGEgY3Vyc29y") { totalCount } } }',
      {},
      pager.accessToken,
    );
    expect(badCursor.body.errors![0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'after', message: expect.any(String) }],
    });
  });

  it('refuses before running a query that asks for 100 x 100 x 100, and prices the dashboard below the limit', async () => {
    await settled(t);
    const { result: deep, count } = await fewestStatements(t, () =>
      t.http.gql(
        '{ viewer { guardianLinks(first: 100) { nodes { learnerAccount { guardianLinks(first: 100) { nodes { learnerAccount { enrollments(first: 100) { nodes { id } } } } } } } } } }',
        {},
        guardian.accessToken,
      ),
    );
    expect(deep.status).toBe(400);
    expect(deep.body.errors![0].extensions.code).toBe('VALIDATION_FAILED');
    expect(deep.body.errors![0].message).toMatch(/too expensive/);
    expect(deep.body.data).toBeUndefined();
    expect(count).toBe(0);
    // Variables are priced at the values sent: the same document with small pages runs.
    const document =
      'query($n: Int) { viewer { guardianLinks(first: $n) { nodes { learnerAccount { guardianLinks(first: $n) { nodes { learnerAccount { enrollments(first: $n) { nodes { id } } } } } } } } } }';
    const refused = await t.http.gql(document, { n: 100 }, guardian.accessToken);
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0].extensions.code).toBe('VALIDATION_FAILED');
    const small = await t.http.gql(document, { n: 3 }, guardian.accessToken);
    expect(small.status).toBe(200);
    expect(small.body.data.viewer.guardianLinks.nodes).toHaveLength(1);
    // It ran: the learner's own links are refused to the guardian by the rules, not by the price.
    expect(small.body.errors!.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
  });
});

describe('a teacher reaches class members', () => {
  it("reaches an active member's progress, and a member's waiting for progress_sharing is refused until the guardian grants it", async () => {
    const teacher = await signUp(t, adultSignup({ email: uniqueEmail('teacher') }));
    const schoolId = (
      await t.http.post('/school', { name: 'Graph school', country: 'VN' }, { token: admin.accessToken })
    ).body.id;
    await t.http.post(
      `/school/${schoolId}/members`,
      { email: teacher.email, role: 'teacher' },
      { token: admin.accessToken },
    );
    const schoolClass = (
      await t.http.post(`/school/${schoolId}/classes`, { name: '7B' }, { token: teacher.accessToken })
    ).body;
    expect(
      (await t.http.post('/school/join', { code: schoolClass.joinCode }, { token: learner.accessToken })).status,
    ).toBe(201);
    const query =
      'query($id: ID!) { schoolClass(classId: $id) { members { learnerId status progress { streakDays courses { courseId percent } } } } }';
    const pending = await t.http.gql(query, { id: schoolClass.id }, teacher.accessToken);
    expect(pending.body.data.schoolClass.members).toEqual([
      { learnerId: learner.id, status: 'PENDING_CONSENT', progress: null },
    ]);
    expect(codesAt(pending.body.errors, 'schoolClass.members.0.progress')).toEqual(['FORBIDDEN']);

    expect(
      (
        await t.http.post(
          '/consent/grant',
          { consentTypeId: 'progress_sharing', learnerId: learner.id },
          { token: guardian.accessToken },
        )
      ).status,
    ).toBe(200);
    const active = await t.http.gql(query, { id: schoolClass.id }, teacher.accessToken);
    expect(active.body.errors).toBeUndefined();
    const own = await t.http.gql('{ viewer { schoolClasses { nodes { classId status } } } }', {}, learner.accessToken);
    expect(own.body.data.viewer.schoolClasses.nodes).toEqual([{ classId: schoolClass.id, status: 'ACTIVE' }]);
    expect(active.body.data.schoolClass.members[0]).toMatchObject({
      status: 'ACTIVE',
      progress: { courses: expect.arrayContaining([{ courseId: courses[0].id, percent: 100 }]) },
    });
    // A teacher walks no further than progress: the roster names no account to walk from.
    const walk = await t.http.gql('query($id: ID!) { node(id: $id) { id } }', { id: learner.id }, teacher.accessToken);
    expect(walk.body.errors!.map((e: GqlError) => e.extensions.code)).toEqual(['NOT_FOUND']);
  });
});

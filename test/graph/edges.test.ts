import { beforeAll, describe, expect, it } from 'vitest';
import { publishedCourse } from '../learning/support';
import type { TestApp } from '../support/app';
import { linkFamily, withBasicData } from '../support/family';
import { codesAt, type GqlError } from '../support/http';
import { notify } from '../support/notify';
import { withMailAndApp } from '../support/setup';
import { graphCast } from './support';
import type { SmtpServer } from '../support/smtp';
import { fewestStatements } from '../support/sql';
import { adultSignup, learnerOfAge, type SignedIn, signUp, uniqueEmail, verifiedGuardian } from '../support/users';

// The edges of the graph this round adds (a teacher's classes and their members, entitlements and
// class memberships as connections), each one refused to whom it does not concern, and paging
// through connections while rows are added between pages.
const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let admin: SignedIn;
let editor: SignedIn;
let guardian: SignedIn;
let learner: SignedIn;
let stranger: SignedIn;

type Reply = { status: number; body: { data?: any; errors?: GqlError[] } };
/** Every edge of an account, with the least selection that answers it. */
const EDGES: Record<string, string> = {
  enrollments: 'enrollments { totalCount }',
  progress: 'progress { streakDays }',
  certificates: 'certificates { totalCount }',
  notifications: 'notifications { totalCount }',
  unreadNotificationCount: 'unreadNotificationCount',
  guardianLinks: 'guardianLinks { totalCount }',
  linkedLearners: 'linkedLearners { totalCount }',
  consents: 'consents { granted }',
  consentLedger: 'consentLedger { totalCount }',
  aiAccess: 'aiAccess { enabled }',
  aiConversations: 'aiConversations',
  payments: 'payments { totalCount }',
  entitlements: 'entitlements { totalCount }',
  projects: 'projects { totalCount }',
  submissions: 'submissions { totalCount }',
  createdCourses: 'createdCourses { totalCount }',
  schoolClasses: 'schoolClasses { totalCount }',
  teachingClasses: 'teachingClasses { totalCount }',
};
const ALL_EDGES = Object.values(EDGES).join(' ');
/** What a learner's active guardian walks to; every other edge is the account's own. */
const GUARDIAN_SEES = ['enrollments', 'progress', 'certificates', 'consents', 'consentLedger', 'aiAccess'];

/** A school with a teacher and a school admin (and the admin who made it). */
async function school(name: string) {
  const id = (await t.http.post('/school', { name, country: 'VN' }, { token: admin.accessToken })).body.id as string;
  const teacher = await signUp(t, adultSignup({ email: uniqueEmail('teacher') }));
  const head = await signUp(t, adultSignup({ email: uniqueEmail('head') }));
  expect(
    (
      await t.http.post(
        `/school/${id}/members`,
        { email: teacher.email, role: 'teacher' },
        { token: admin.accessToken },
      )
    ).status,
  ).toBe(201);
  expect(
    (
      await t.http.post(
        `/school/${id}/members`,
        { email: head.email, role: 'school_admin' },
        { token: admin.accessToken },
      )
    ).status,
  ).toBe(201);
  return { id, teacher, head };
}

async function newClass(schoolId: string, teacher: SignedIn, name: string): Promise<{ id: string; joinCode: string }> {
  const reply = await t.http.post(`/school/${schoolId}/classes`, { name }, { token: teacher.accessToken });
  expect(reply.status).toBe(201);
  return reply.body;
}

async function join(who: SignedIn, schoolClass: { joinCode: string }) {
  expect((await t.http.post('/school/join', { code: schoolClass.joinCode }, { token: who.accessToken })).status).toBe(
    201,
  );
}

beforeAll(async () => {
  ({ t, smtp } = ctx);
  ({ admin, editor, guardian, stranger, learner } = await graphCast(t, smtp));
  const course = await publishedCourse(t, editor, {}, 1);
  await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken });
  await t.http.post(
    `/progress/lessons/${course.lessonIds[0]}/complete`,
    { timeSpentSeconds: 30 },
    { token: learner.accessToken },
  );
}, 120_000);

describe("a teacher's and a school admin's classes", () => {
  const CLASSES = `query($first: Int, $after: String) { viewer { teachingClasses(first: $first, after: $after) { totalCount pageInfo { hasNextPage endCursor }
    edges { cursor node { id name schoolId joinCode members(first: 10) { totalCount nodes { learnerId status progress { streakDays courses { percent } } } } } } } } }`;

  it("reach their classes' members, and a member's progress only while it is shared (a guardian's progress_sharing under 18)", async () => {
    const { id: schoolId, teacher, head } = await school('Edges school');
    const classA = await newClass(schoolId, teacher, '6A');
    const classB = await newClass(schoolId, head, '6B');
    const minor = await withBasicData(t, await learnerOfAge(t, 14));
    const family = await verifiedGuardian(t, smtp);
    await linkFamily(t, family, minor);
    const adult = await learnerOfAge(t, 19);
    await join(minor, classA);
    await join(adult, classA);

    for (const staff of [teacher, head]) {
      const reply: Reply = await t.http.gql(CLASSES, { first: 10 }, staff.accessToken);
      const classes = reply.body.data.viewer.teachingClasses;
      expect(classes.totalCount).toBe(2);
      // Newest first: 6B was made after 6A.
      expect(classes.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([classB.id, classA.id]);
      expect(classes.edges[1].node).toMatchObject({ name: '6A', schoolId, joinCode: classA.joinCode });
      expect(classes.edges[0].node.members).toEqual({ totalCount: 0, nodes: [] });
      const members = classes.edges[1].node.members;
      expect(members.totalCount).toBe(2);
      const byId = new Map(members.nodes.map((m: { learnerId: string }, i: number) => [m.learnerId, [m, i]]));
      const [shared] = byId.get(adult.id) as [{ status: string; progress: unknown }, number];
      expect(shared).toMatchObject({ status: 'ACTIVE', progress: { streakDays: expect.any(Number), courses: [] } });
      const [pending, index] = byId.get(minor.id) as [{ status: string; progress: unknown }, number];
      expect(pending).toEqual({ learnerId: minor.id, status: 'PENDING_CONSENT', progress: null });
      expect(codesAt(reply.body.errors, `viewer.teachingClasses.edges.1.node.members.nodes.${index}.progress`)).toEqual(
        ['FORBIDDEN'],
      );
      expect(reply.body.errors).toHaveLength(1);
      // True whether the member has a guardian or none: the staff cannot tell which, and need not.
      expect(reply.body.errors![0].message).toBe('No guardian of this member has agreed to share their progress.');
    }

    // The guardian grants progress_sharing: the member's progress shows at once.
    expect(
      (
        await t.http.post(
          '/consent/grant',
          { consentTypeId: 'progress_sharing', learnerId: minor.id },
          { token: family.accessToken },
        )
      ).status,
    ).toBe(200);
    const shared: Reply = await t.http.gql(CLASSES, { first: 10 }, teacher.accessToken);
    expect(shared.body.errors).toBeUndefined();
    const member = shared.body.data.viewer.teachingClasses.edges[1].node.members.nodes.find(
      (m: { learnerId: string }) => m.learnerId === minor.id,
    );
    expect(member).toMatchObject({ status: 'ACTIVE', progress: { streakDays: expect.any(Number) } });

    // The learner sees the class among theirs, as a connection, and teaches none.
    const own: Reply = await t.http.gql(
      '{ viewer { schoolClasses(first: 5) { totalCount nodes { classId status } } teachingClasses { totalCount } } }',
      {},
      minor.accessToken,
    );
    expect(own.body.errors).toBeUndefined();
    expect(own.body.data.viewer).toEqual({
      schoolClasses: { totalCount: 1, nodes: [{ classId: classA.id, status: 'ACTIVE' }] },
      teachingClasses: { totalCount: 0 },
    });
  });

  it("are refused to whom they do not concern: another school's teacher sees only theirs, an admin or a guardian walking to the account null + FORBIDDEN", async () => {
    const mine = await school('Mine');
    const theirs = await school('Theirs');
    const myClass = await newClass(mine.id, mine.teacher, '7A');
    const other = await newClass(theirs.id, theirs.teacher, '9C');
    const pupil = await learnerOfAge(t, 19);
    await join(pupil, myClass);

    const reply: Reply = await t.http.gql(CLASSES, { first: 10 }, theirs.teacher.accessToken);
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.viewer.teachingClasses.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([
      other.id,
    ]);
    expect(JSON.stringify(reply.body)).not.toContain(pupil.id);
    expect(JSON.stringify(reply.body)).not.toContain(myClass.joinCode);

    // An admin lists the teacher's account, but its classes are the teacher's own edge.
    const listed: Reply = await t.http.gql(
      'query($email: String) { users(first: 1, filter: { email: $email }) { nodes { id teachingClasses { totalCount nodes { members { totalCount } } } } } }',
      { email: mine.teacher.email },
      admin.accessToken,
    );
    expect(listed.body.data.users.nodes).toEqual([{ id: mine.teacher.id, teachingClasses: null }]);
    expect(codesAt(listed.body.errors, 'users.nodes.0.teachingClasses')).toEqual(['FORBIDDEN']);
    // Another account cannot walk to the teacher at all.
    const walked: Reply = await t.http.gql(
      'query($id: ID!) { node(id: $id) { ... on User { teachingClasses { totalCount } } } }',
      { id: mine.teacher.id },
      theirs.teacher.accessToken,
    );
    expect(walked.body.data.node).toBeNull();
    expect(walked.body.errors!.map((e) => e.extensions.code)).toEqual(['NOT_FOUND']);
  });

  it(
    'read their members and progress in as many SQL statements for 3 classes x 3 members as for 1 x 1',
    { timeout: 120_000 },
    async () => {
      const build = async (classes: number, members: number) => {
        const { id, teacher } = await school(`Sized ${classes}`);
        for (let c = 0; c < classes; c++) {
          const schoolClass = await newClass(id, teacher, `Class ${c}`);
          for (let m = 0; m < members; m++) await join(await learnerOfAge(t, 19), schoolClass);
        }
        return teacher;
      };
      const [small, large] = [await build(1, 1), await build(3, 3)];
      const one = await fewestStatements(t, () => t.http.gql(CLASSES, { first: 10 }, small.accessToken));
      const many = await fewestStatements(t, () => t.http.gql(CLASSES, { first: 10 }, large.accessToken));
      for (const reply of [one.result, many.result]) expect(reply.body.errors).toBeUndefined();
      expect(
        many.result.body.data.viewer.teachingClasses.edges.map(
          (e: { node: { members: { totalCount: number } } }) => e.node.members.totalCount,
        ),
      ).toEqual([3, 3, 3]);
      expect(many.count).toBe(one.count);
    },
  );
});

describe('an account reaches nothing of another account', () => {
  it("a linked learner's guardian: courses, progress, certificates, consents and AI access; every other edge null + FORBIDDEN", async () => {
    const reply: Reply = await t.http.gql(
      `{ viewer { linkedLearners { nodes { id ${ALL_EDGES} } } } }`,
      {},
      guardian.accessToken,
    );
    const child = reply.body.data.viewer.linkedLearners.nodes[0];
    expect(child.id).toBe(learner.id);
    for (const edge of Object.keys(EDGES)) {
      const codes = codesAt(reply.body.errors, `viewer.linkedLearners.nodes.0.${edge}`);
      if (GUARDIAN_SEES.includes(edge)) {
        expect(codes, edge).toEqual([]);
        expect(child[edge], edge).not.toBeNull();
      } else {
        expect(child[edge], edge).toBeNull();
        expect(codes, edge).toEqual(['FORBIDDEN']);
      }
    }
    expect(child.enrollments.totalCount).toBe(1);
    expect(child.progress.streakDays).toBeGreaterThanOrEqual(1);
  });

  it('an admin listing the account: every edge null + FORBIDDEN (an account is not an admin’s to walk)', async () => {
    const reply: Reply = await t.http.gql(
      `query($email: String) { users(first: 1, filter: { email: $email }) { nodes { id ${ALL_EDGES} } } }`,
      { email: learner.email },
      admin.accessToken,
    );
    const account = reply.body.data.users.nodes[0];
    expect(account.id).toBe(learner.id);
    for (const edge of Object.keys(EDGES)) {
      expect(account[edge], edge).toBeNull();
      expect(codesAt(reply.body.errors, `users.nodes.0.${edge}`), edge).toEqual(['FORBIDDEN']);
    }
  });

  it('a stranger: the account itself is NOT_FOUND, as an id that names nothing, and no edge answers', async () => {
    const reply: Reply = await t.http.gql(
      `query($id: ID!) { node(id: $id) { id ... on User { ${ALL_EDGES} } } }`,
      { id: learner.id },
      stranger.accessToken,
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data.node).toBeNull();
    expect(reply.body.errors!.map((e) => e.extensions.code)).toEqual(['NOT_FOUND']);
    expect(JSON.stringify(reply.body)).not.toContain(learner.email);
    const linked: Reply = await t.http.gql(
      `{ viewer { linkedLearners { totalCount nodes { id } } } }`,
      {},
      stranger.accessToken,
    );
    expect(linked.body.data.viewer.linkedLearners).toEqual({ totalCount: 0, nodes: [] });
  });
});

describe('entitlements as a connection', () => {
  it('pages newest first with a total, for the account only', async () => {
    const buyer = await signUp(t, adultSignup({ email: uniqueEmail('buyer') }));
    const grant = (input: Record<string, unknown>) =>
      t.http.gql(
        'mutation($input: GrantInput!) { grantEntitlement(input: $input) { id } }',
        { input: { userId: buyer.id, ...input } },
        admin.accessToken,
      );
    const courses = [await publishedCourse(t, editor, {}, 1), await publishedCourse(t, editor, {}, 1)];
    const granted: string[] = [];
    for (const course of courses)
      granted.push((await grant({ kind: 'COURSE', courseId: course.id })).body.data.grantEntitlement.id);
    granted.push((await grant({ kind: 'TIER', tier: 'STARTER' })).body.data.grantEntitlement.id);

    const query =
      'query($after: String) { me { entitlements(first: 2, after: $after) { totalCount edges { cursor node { id kind status } } pageInfo { hasNextPage endCursor } } } }';
    const first: Reply = await t.http.gql(query, {}, buyer.accessToken);
    expect(first.body.errors).toBeUndefined();
    const page = first.body.data.me.entitlements;
    expect(page.totalCount).toBe(3);
    expect(page.pageInfo.hasNextPage).toBe(true);
    const second: Reply = await t.http.gql(query, { after: page.pageInfo.endCursor }, buyer.accessToken);
    const rest = second.body.data.me.entitlements;
    expect(rest.pageInfo).toEqual({ hasNextPage: false, endCursor: rest.edges[0].cursor });
    expect([...page.edges, ...rest.edges].map((e: { node: { id: string } }) => e.node.id)).toEqual(
      [...granted].reverse(),
    );
  });
});

describe('connections page forward to the end with no duplicate and no gap while rows are added', () => {
  /** Follows endCursor with `first: 2`, calling `between` after each page; returns the ids seen and the pages read. */
  async function pageThrough(
    who: SignedIn,
    edge: string,
    pick: (data: any) => any,
    idOf: (node: any) => string,
    between: (page: number) => Promise<void>,
  ) {
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const reply: Reply = await t.http.gql(`query($after: String) { viewer { ${edge} } }`, { after }, who.accessToken);
      expect(reply.body.errors).toBeUndefined();
      const connection = pick(reply.body.data.viewer);
      expect(connection.edges.length).toBeLessThanOrEqual(2);
      expect(connection.nodes.map(idOf)).toEqual(connection.edges.map((e: { node: unknown }) => idOf(e.node)));
      if (connection.edges.length) expect(connection.pageInfo.endCursor).toBe(connection.edges.at(-1).cursor);
      seen.push(...connection.edges.map((e: { node: unknown }) => idOf(e.node)));
      pages++;
      await between(pages);
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor;
    }
    return { seen, pages };
  }

  it('notifications (all and unread) while new ones arrive', async () => {
    const reader = await learnerOfAge(t, 19);
    await notify(t, reader.id, 'system', 7);
    for (const filter of ['ALL', 'UNREAD']) {
      const present = (
        await t.http.gql('{ viewer { notifications(first: 100) { nodes { id } } } }', {}, reader.accessToken)
      ).body.data.viewer.notifications.nodes.map((n: { id: string }) => n.id);
      const { seen, pages } = await pageThrough(
        reader,
        `notifications(filter: ${filter}, first: 2, after: $after) { totalCount edges { cursor node { id } } nodes { id } pageInfo { hasNextPage endCursor } }`,
        (v) => v.notifications,
        (n) => n.id,
        async () => void (await notify(t, reader.id, 'system', 1)),
      );
      expect(pages, filter).toBe(Math.ceil(present.length / 2));
      expect(new Set(seen).size, filter).toBe(seen.length);
      expect([...seen].sort(), filter).toEqual([...present].sort());
    }
  });

  it("a teacher's classes while classes are made, and a class's members while learners join", async () => {
    const { id: schoolId, teacher } = await school('Paging school');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await newClass(schoolId, teacher, `P${i}`)).id);
    const classes = await pageThrough(
      teacher,
      'teachingClasses(first: 2, after: $after) { totalCount edges { cursor node { id } } nodes { id } pageInfo { hasNextPage endCursor } }',
      (v) => v.teachingClasses,
      (c) => c.id,
      async (page) => void (await newClass(schoolId, teacher, `Late ${page}`)),
    );
    expect(classes.pages).toBe(3);
    expect(new Set(classes.seen).size).toBe(classes.seen.length);
    expect([...classes.seen].sort()).toEqual([...made].sort());

    const target = await newClass(schoolId, teacher, 'Roster');
    const joined: string[] = [];
    for (let i = 0; i < 5; i++) {
      const pupil = await learnerOfAge(t, 19);
      await join(pupil, target);
      joined.push(pupil.id);
    }
    // The class is the newest: the first of the teacher's classes.
    const members = await pageThrough(
      teacher,
      'teachingClasses(first: 1) { edges { node { id members(first: 2, after: $after) { totalCount edges { cursor node { learnerId } } nodes { learnerId } pageInfo { hasNextPage endCursor } } } } }',
      (v) => {
        expect(v.teachingClasses.edges[0].node.id).toBe(target.id);
        return v.teachingClasses.edges[0].node.members;
      },
      (m) => m.learnerId,
      async () => join(await learnerOfAge(t, 19), target),
    );
    expect(members.pages).toBe(3);
    expect(new Set(members.seen).size).toBe(members.seen.length);
    expect([...members.seen].sort()).toEqual([...joined].sort());
  });

  it('take first at most 100 on the new edges', async () => {
    for (const edge of [
      'teachingClasses(first: 101) { totalCount }',
      'schoolClasses(first: 101) { totalCount }',
      'entitlements(first: 101) { totalCount }',
    ]) {
      const reply: Reply = await t.http.gql(`{ viewer { ${edge} } }`, {}, learner.accessToken);
      expect(reply.body.errors![0].extensions.code, edge).toBe('VALIDATION_FAILED');
    }
    // Members are priced per class they may be read for: 100 classes x 100 members is refused before it runs.
    const walk = (n: number) =>
      `{ viewer { teachingClasses(first: ${n}) { nodes { members(first: ${n}) { nodes { learnerId progress { courses { percent } } } } } } } }`;
    const refused: Reply = await t.http.gql(walk(100), {}, learner.accessToken);
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0].message).toMatch(/too expensive/);
    const small: Reply = await t.http.gql(walk(10), {}, learner.accessToken);
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.viewer.teachingClasses.nodes).toEqual([]);
  });
});

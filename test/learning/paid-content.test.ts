import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, getNamedType, type GraphQLNamedType, isInterfaceType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy, publishedProduct, text, waitFor } from '../support/commerce';
import { startTestApp, type TestApp } from '../support/app';
import type { GqlError } from '../support/http';
import { learnerOfAge, type SignedIn, signInAdmin } from '../support/users';
import { contentAdmin, publishedCourse } from './support';

/**
 * Paid content is decided in one place. Every path of the schema that reaches a Lesson
 * (its content, its quiz's prompts) answers each caller as `GET /courses/:id` answers them. The
 * edges that lead to Lesson are read from the schema's type map, so a new one fails this test
 * until a path below walks it.
 */
const schema = buildSchema(readFileSync(join(__dirname, '../../schema/schema.graphql'), 'utf8'));
const ROOTS_NOT_WALKED = new Set(['Mutation', 'Subscription']);

const fieldsOf = (type: GraphQLNamedType) =>
  isObjectType(type) || isInterfaceType(type) ? Object.values(type.getFields()) : [];

/** `Type.field` of every edge, on a type a query reaches, whose type leads on to Lesson (the Node interface included: node, nodes). */
function edgesToLesson(): Set<string> {
  const types = Object.values(schema.getTypeMap()).filter(
    (type) => !type.name.startsWith('__') && !ROOTS_NOT_WALKED.has(type.name),
  );
  const leads = new Set(['Lesson', 'Node']);
  for (let grew = true; grew;) {
    grew = false;
    for (const type of types) {
      if (!leads.has(type.name) && fieldsOf(type).some((field) => leads.has(getNamedType(field.type).name)))
        grew = Boolean(leads.add(type.name));
    }
  }
  const reached = new Set(['Query']);
  for (const name of reached)
    for (const field of fieldsOf(schema.getType(name)!)) reached.add(getNamedType(field.type).name);
  const edges = new Set<string>();
  for (const name of reached) {
    if (!leads.has(name) || name === 'Lesson') continue;
    for (const field of fieldsOf(schema.getType(name)!))
      if (leads.has(getNamedType(field.type).name)) edges.add(`${name}.${field.name}`);
  }
  return edges;
}

const L = 'fragment L on Lesson { __typename id content { en } quiz { prompt { en } } }';
const ENROLLMENTS =
  'enrollments(first: 10) { edges { node { course { lessons { ...L } } } } nodes { course { lessons { ...L } } } }';

interface PathCase {
  name: string;
  edges: string[];
  query: string;
  /** When the path must reach the course for this caller (else only: whatever it shows, REST shows too). */
  reaches: 'always' | 'enrolled' | 'maybe';
  /** node and nodes hide a refusal as NOT_FOUND. */
  hides?: boolean;
}

const PATHS: PathCase[] = [
  {
    name: 'course.lessons',
    edges: ['Query.course', 'Course.lessons'],
    query: 'query($course: ID!) { course(id: $course) { lessons { ...L } } }',
    reaches: 'always',
  },
  {
    name: 'courses',
    edges: ['Query.courses', 'CourseConnection.edges', 'CourseEdge.node', 'CourseConnection.nodes', 'Course.lessons'],
    query:
      'query($q: String) { courses(first: 5, q: $q, age: 12) { edges { node { lessons { ...L } } } nodes { lessons { ...L } } } }',
    reaches: 'always',
  },
  {
    name: 'node(Lesson)',
    edges: ['Query.node'],
    query: 'query($lesson: ID!) { node(id: $lesson) { ...L } }',
    reaches: 'always',
    hides: true,
  },
  {
    name: 'nodes(Lesson)',
    edges: ['Query.nodes'],
    query: 'query($lessons: [ID!]!) { nodes(ids: $lessons) { ...L } }',
    reaches: 'always',
    hides: true,
  },
  {
    name: 'node(Course).lessons',
    edges: ['Query.node', 'Course.lessons'],
    query: 'query($course: ID!) { node(id: $course) { ... on Course { lessons { ...L } } } }',
    reaches: 'always',
  },
  {
    name: 'nodes(Course).lessons',
    edges: ['Query.nodes', 'Course.lessons'],
    query: 'query($course: ID!) { nodes(ids: [$course]) { ... on Course { lessons { ...L } } } }',
    reaches: 'always',
  },
  {
    name: 'course.viewerEnrollment',
    edges: ['Query.course', 'Course.viewerEnrollment', 'Enrollment.course', 'Course.lessons'],
    query: 'query($course: ID!) { course(id: $course) { viewerEnrollment { course { lessons { ...L } } } } }',
    reaches: 'enrolled',
  },
  {
    name: 'myCourses',
    edges: ['Query.myCourses', 'Enrollment.course', 'Course.lessons'],
    query: '{ myCourses { course { lessons { ...L } } } }',
    reaches: 'maybe',
  },
  {
    name: 'viewer.enrollments',
    edges: [
      'Query.viewer',
      'User.enrollments',
      'EnrollmentConnection.edges',
      'EnrollmentEdge.node',
      'EnrollmentConnection.nodes',
      'Enrollment.course',
      'Course.lessons',
    ],
    query: `{ viewer { ${ENROLLMENTS} } }`,
    reaches: 'enrolled',
  },
  {
    name: 'me.enrollments',
    edges: ['Query.me', 'User.enrollments'],
    query: `{ me { ${ENROLLMENTS} } }`,
    reaches: 'enrolled',
  },
  {
    name: 'node(Enrollment)',
    edges: ['Query.node', 'Enrollment.course', 'Course.lessons'],
    query: 'query($enrollment: ID!) { node(id: $enrollment) { ... on Enrollment { course { lessons { ...L } } } } }',
    reaches: 'enrolled',
  },
  {
    name: 'node(User).enrollments',
    edges: ['Query.node', 'User.enrollments'],
    query: `query($self: ID!) { node(id: $self) { ... on User { ${ENROLLMENTS} } } }`,
    reaches: 'enrolled',
  },
  {
    name: 'learnerCourses',
    edges: ['Query.learnerCourses', 'Enrollment.course'],
    query: 'query($self: ID!) { learnerCourses(learnerId: $self) { course { lessons { ...L } } } }',
    reaches: 'maybe',
  },
  {
    name: 'myGuardianLinks',
    edges: [
      'Query.myGuardianLinks',
      'GuardianLinkConnection.edges',
      'GuardianLinkEdge.node',
      'GuardianLinkConnection.nodes',
      'GuardianLink.learnerAccount',
      'User.enrollments',
    ],
    query: `{ myGuardianLinks(first: 5) { edges { node { learnerAccount { ${ENROLLMENTS} } } } nodes { learnerAccount { ${ENROLLMENTS} } } } }`,
    reaches: 'maybe',
  },
  {
    name: 'viewer.guardianLinks, linkedLearners',
    edges: [
      'User.guardianLinks',
      'User.linkedLearners',
      'UserConnection.edges',
      'UserEdge.node',
      'UserConnection.nodes',
    ],
    query: `{ viewer { guardianLinks(first: 5) { nodes { learnerAccount { ${ENROLLMENTS} } } } linkedLearners(first: 5) { edges { node { ${ENROLLMENTS} } } nodes { ${ENROLLMENTS} } } } }`,
    reaches: 'maybe',
  },
  {
    name: 'users',
    edges: ['Query.users', 'UserConnection.nodes', 'User.enrollments'],
    query: `{ users(first: 100) { nodes { ${ENROLLMENTS} } } }`,
    reaches: 'maybe',
  },
];

const CALLERS = ['anonymous', 'stranger', 'buyer', 'refunded buyer', 'admin'] as const;
type Caller = (typeof CALLERS)[number];

let t: TestApp;
let editor: SignedIn;
let course: { id: string; lessonIds: string[] };
const who: Partial<Record<Caller, SignedIn>> = {};
const enrollmentOf: Partial<Record<Caller, string>> = {};
const title = `Paid walk ${Date.now()}`;

beforeAll(async () => {
  t = await startTestApp();
  const admin = await signInAdmin(t);
  editor = await contentAdmin(t);
  course = await publishedCourse(t, editor, { title: text(title) });
  Object.assign(who, {
    admin,
    stranger: await learnerOfAge(t, 25),
    buyer: await learnerOfAge(t, 25),
    'refunded buyer': await learnerOfAge(t, 25),
  });
  // Everyone who can enrolls while the course is free; then a product sells it.
  for (const caller of CALLERS) {
    const user = who[caller];
    if (!user) continue;
    await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: user.accessToken });
    const mine = await t.http.gql(
      '{ viewer { enrollments(first: 50) { nodes { id course { id } } } } }',
      {},
      user.accessToken,
    );
    enrollmentOf[caller] = mine.body.data?.viewer?.enrollments?.nodes.find(
      (e: { course: { id: string } }) => e.course.id === course.id,
    )?.id;
  }
  const product = await publishedProduct(t, admin, {
    kind: 'course',
    title: text('The course'),
    description: text('All of it'),
    prices: [{ currency: 'VND', amount: 99000 }],
    courseIds: [course.id],
  });
  await buy(t, who.buyer!, product);
  const refunded = who['refunded buyer']!;
  const paid = await buy(t, refunded, product);
  const refund = await t.http.post(
    '/refunds',
    { paymentId: paid.id, reason: 'changed my mind' },
    { token: refunded.accessToken },
  );
  await t.http.post(`/refunds/${refund.body.id}/approve`, undefined, { token: admin.accessToken });
  const payment = await waitFor(
    () => t.http.get(`/payments/${paid.id}`, { token: refunded.accessToken }),
    (reply) => reply.body.status === 'refunded',
  );
  expect(payment.body.status).toBe('refunded');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** Every Lesson object in an answer. */
function lessonsIn(value: unknown, found: { id: string; content?: { en: string }; quiz?: unknown }[] = []) {
  if (Array.isArray(value)) value.forEach((item) => lessonsIn(item, found));
  else if (value && typeof value === 'object') {
    if ((value as { __typename?: string }).__typename === 'Lesson') found.push(value as { id: string });
    else Object.values(value).forEach((item) => lessonsIn(item, found));
  }
  return found;
}

describe('paid lessons answer every path as GET /courses/:id answers the caller', () => {
  it("walks every edge of the schema's type map that leads to Lesson", () => {
    const walked = new Set(PATHS.flatMap((path) => path.edges));
    const edges = edgesToLesson();
    expect(
      [...edges].filter((edge) => !walked.has(edge)).sort(),
      'edges to Lesson that no path walks: add a path',
    ).toEqual([]);
    expect([...walked].filter((edge) => !edges.has(edge)).sort(), 'paths name edges the schema does not have').toEqual(
      [],
    );
    // Lesson itself is returned by these fields only; the mutations are content admins' (the authorization matrix checks them).
    const toLesson = Object.values(schema.getTypeMap()).flatMap((type) =>
      fieldsOf(type)
        .filter((f) => getNamedType(f.type).name === 'Lesson')
        .map((f) => `${type.name}.${f.name}`),
    );
    expect(toLesson.sort()).toEqual(['Course.lessons', 'Mutation.addLesson', 'Mutation.updateLesson']);
  });

  it.each(CALLERS)('as %s', async (caller) => {
    const token = who[caller]?.accessToken;
    const rest = await t.http.get(`/courses/${course.id}`, { token });
    const open = rest.status === 200;
    expect(rest.status).toBe({ anonymous: 401, stranger: 403, buyer: 200, 'refunded buyer': 403, admin: 200 }[caller]);
    const restLessons = new Map<string, { content: { en: string }; quiz: { prompt: { en: string } }[] }>(
      open ? rest.body.lessons.map((l: { id: string }) => [l.id, l]) : [],
    );
    const variables = {
      course: course.id,
      q: title,
      lesson: course.lessonIds[0],
      lessons: course.lessonIds,
      enrollment: enrollmentOf[caller] ?? course.id,
      self: who[caller]?.id ?? course.id,
    };
    const problems: string[] = [];
    for (const path of PATHS) {
      const reply = await t.http.gql(`${path.query} ${L}`, variables, token);
      expect(reply.status, path.name).toBeLessThan(500);
      const errors = (reply.body.errors ?? []) as GqlError[];
      if (errors.some((e) => e.extensions.code === 'INTERNAL_ERROR'))
        problems.push(`${path.name}: ${JSON.stringify(errors)}`);
      const shown = lessonsIn(reply.body.data);
      // Never more than REST: each lesson shown is one REST shows this caller, with the same content and prompts.
      for (const lesson of shown) {
        const same = restLessons.get(lesson.id);
        if (!same)
          problems.push(`${path.name}: shows lesson ${lesson.id} that GET /courses/:id refuses (${rest.status})`);
        else if (
          JSON.stringify([lesson.content, lesson.quiz]) !==
          JSON.stringify([{ en: same.content.en }, same.quiz.map((q) => ({ prompt: { en: q.prompt.en } }))])
        )
          problems.push(`${path.name}: shows other content than REST`);
      }
      const reaches = path.reaches === 'always' || (path.reaches === 'enrolled' && enrollmentOf[caller] !== undefined);
      if (!reaches) continue;
      // And never less: where the path reaches the course, it shows what REST shows, or refuses as REST does.
      const ids = new Set(shown.map((l) => l.id));
      const asked = path.name === 'node(Lesson)' ? [variables.lesson] : course.lessonIds;
      if (open && !asked.every((id) => ids.has(id)))
        problems.push(`${path.name}: hides lessons REST shows (${JSON.stringify(errors)})`);
      const refusal = path.hides ? 'NOT_FOUND' : rest.status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN';
      if (!open && !errors.some((e) => e.extensions.code === refusal))
        problems.push(`${path.name}: expected ${refusal}, got ${JSON.stringify(errors)}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('a paid course in a list of courses', () => {
  const DASHBOARD = '{ courses(first: 20) { nodes { id paid lessons { id } } } }';
  let free: { id: string; lessonIds: string[] };

  beforeAll(async () => {
    free = await publishedCourse(t, editor, { title: text(`Free walk ${Date.now()}`) });
  });

  // Who is refused the paid course's lessons, and with which error: as GET /courses/:id refuses them.
  it.each([
    ['anonymous', 'UNAUTHENTICATED'],
    ['stranger', 'FORBIDDEN'],
  ] as const)(
    'as %s: the free course with its lessons, the paid one with lessons null and the refusal at its path',
    async (caller, code) => {
      const reply = await t.http.gql(DASHBOARD, {}, who[caller]?.accessToken);
      expect(reply.status).toBe(200);
      const nodes = reply.body.data.courses.nodes as { id: string; paid: boolean; lessons: { id: string }[] | null }[];
      const at = (id: string) => nodes.findIndex((node) => node.id === id);
      expect(nodes[at(free.id)]).toEqual({ id: free.id, paid: false, lessons: free.lessonIds.map((id) => ({ id })) });
      expect(nodes[at(course.id)]).toEqual({ id: course.id, paid: true, lessons: null });
      expect(reply.body.errors?.map((e: GqlError) => [e.extensions.code, e.path])).toEqual([
        [code, ['courses', 'nodes', at(course.id), 'lessons']],
      ]);
    },
  );

  it('as a buyer: both courses with their lessons, and no error', async () => {
    const reply = await t.http.gql(DASHBOARD, {}, who.buyer!.accessToken);
    expect(reply.body.errors).toBeUndefined();
    const lessons = new Map(
      (reply.body.data.courses.nodes as { id: string; lessons: { id: string }[] }[]).map((node) => [
        node.id,
        node.lessons.map((l) => l.id),
      ]),
    );
    expect(lessons.get(free.id)).toEqual(free.lessonIds);
    expect(lessons.get(course.id)).toEqual(course.lessonIds);
  });

  it('leaves REST as it was: the paid course answers its refusal, not the course with lessons null', async () => {
    const anonymous = await t.http.get(`/courses/${course.id}`);
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'unauthenticated']);
    const stranger = await t.http.get(`/courses/${course.id}`, { token: who.stranger!.accessToken });
    expect([stranger.status, stranger.body.error, stranger.body.lessons]).toEqual([403, 'forbidden', undefined]);
    const open = await t.http.get(`/courses/${free.id}`, { token: who.stranger!.accessToken });
    expect(open.body.lessons.map((l: { id: string }) => l.id)).toEqual(free.lessonIds);
  });
});

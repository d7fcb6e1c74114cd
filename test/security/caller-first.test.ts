import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  type FieldNode,
  getNamedType,
  type GraphQLField,
  type GraphQLInputType,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  type OperationDefinitionNode,
  parse,
  typeFromAST,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorStatus, type ErrorCode } from '../../src/kernel/errors';
import type { RestRoute } from '../../src/kernel/rest-route';
import { isPublicOperation } from '../../src/permissions';
import { hasRole, isContentEditor } from '../../src/permissions/rules';
import { Role } from '../../src/kernel/domain';
import { routes, ruleMap } from '../../src/server/platform';
import { contentAdmin, publishedCourse } from '../learning/support';
import { type AiBackendFake, startAiBackend } from '../support/ai-backend';
import { startTestApp, type TestApp } from '../support/app';
import type { Reply } from '../support/http';
import { sample } from '../support/samples';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { checkout, publishedProduct, text } from '../support/commerce';
import { linkedFamily } from '../support/family';
import {
  adultSignup,
  learnerOfAge,
  type SignedIn,
  signInAdmin,
  signUp,
  signUpVerified,
  uniqueEmail,
  verifiedGuardian,
} from '../support/users';

/**
 * docs/errors.md, order of checks: who may call is answered before what was sent.
 * For every REST route with a body and every mutation of the schema (generated, so new ones are
 * covered), each kind of caller sends a plausible input and then inputs that cannot pass (an empty
 * body or no variables, a wrong type, a NUL byte). Whoever is refused with the plausible input
 * (401, 403) must be refused alike with the bad one, never told 400 with the input's fields.
 */
const schema = buildSchema(readFileSync(join(__dirname, '../../schema/schema.graphql'), 'utf8'));
const CALLERS = ['anonymous', 'learner', 'guardian', 'creator', 'content_admin', 'admin'] as const;
type Caller = (typeof CALLERS)[number];

let t: TestApp;
let smtp: SmtpServer;
let backend: AiBackendFake;
const tokens: Partial<Record<Caller, string>> = {};
const who: Partial<Record<Caller, SignedIn>> = {};

beforeAll(async () => {
  smtp = await startSmtpServer();
  backend = await startAiBackend();
  t = await startTestApp({
    SMTP_URL: smtp.url,
    AI_BACKEND_URL: backend.url,
    AI_BACKEND_SECRET: 'a-secret-for-the-ai-backend-of-caller-first',
  });
  const adult = (role: string) => signUpVerified(t, smtp, adultSignup({ role, email: uniqueEmail(role) }));
  const [admin, editor, learner, guardian, creator] = await Promise.all([
    signInAdmin(t),
    contentAdmin(t),
    signUpVerified(t, smtp, adultSignup({ role: 'learner', birthDate: '2000-01-01', email: uniqueEmail('learner') })),
    verifiedGuardian(t, smtp),
    adult('creator'),
  ]);
  Object.assign(who, { admin, content_admin: editor, learner, guardian, creator });
  Object.assign(tokens, {
    admin: admin.accessToken,
    content_admin: editor.accessToken,
    learner: learner.accessToken,
    guardian: guardian.accessToken,
    creator: creator.accessToken,
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await backend?.close();
});

/** Answers that are not a refusal of the caller: the input decides those (sign-in operations, public forms, the callers with the right). */
const refusedOnlyAfterInput = (status: number) => status !== 401 && status !== 403;

/** Operations open to everyone (sign-in, public forms): a 401 or 403 there is about the input (wrong password), so the input comes first. */
const isPublic = (name: string) => {
  const [type, field] = name.split('.');
  return type === 'Mutation' && isPublicOperation(ruleMap, 'Mutation', field);
};

/** Refusals that depend on an argument (ownership of the learner, course or request it names), to callers who have the role. */
// Ownership of what the input names (the learner, the listed courses): a caller with the role is refused only for a valid input.
const decidedByArguments = new Set([
  'POST /gdpr/export',
  'Mutation.requestDataExport',
  'POST /marketplace/listings',
  'Mutation.submitListing',
]);

/** The callers' own erasure would leave them only `account_deletion_pending` for everything after it. */
const changesTheCaller = new Set(['POST /gdpr/delete', 'Mutation.requestAccountDeletion']);

interface Probe {
  name: string;
  /** The root field it calls (`Mutation.login`). */
  field: string;
  rest?: { method: string; path: string; good: unknown; bad: unknown[] };
  graphql: { query: string; good: Record<string, unknown>; bad: Record<string, unknown>[] };
}

const variablesOf = (operation: string) =>
  (
    parse(operation).definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!
      .variableDefinitions ?? []
  ).map((v) => ({
    name: v.variable.name.value,
    type: typeFromAST(schema, v.type as never) as GraphQLInputType,
  }));

/** Each REST row with a body: the plausible body, an empty one, wrong JSON types, and a NUL byte in every text. */
function restProbes(): Probe[] {
  return routes
    .filter(
      (route) =>
        (route.method === 'post' || route.method === 'put') &&
        !changesTheCaller.has(`${route.method.toUpperCase()} ${route.path}`),
    )
    .filter((route) => variablesOf(route.operation).some((v) => !route.path.includes(`:${v.name}`)))
    .map((route) => restProbe(route));
}

/** A REST row's probe; the path's ids are those of `ids` (by the root field's argument names), else new ones. */
function restProbe(route: RestRoute, ids: Record<string, string> = {}): Probe {
  const variables = variablesOf(route.operation);
  const inPath = (name: string) => route.path.includes(`:${name}`);
  const argumentOf = argumentsByVariable(route.operation);
  const good = Object.fromEntries(
    variables.map((v) => [
      v.name,
      inPath(v.name) ? (ids[argumentOf.get(v.name)!] ?? randomUUID()) : sample(v.type, v.name),
    ]),
  );
  const bodyVars = variables.filter((v) => !inPath(v.name));
  const body =
    bodyVars.length === 1 && bodyVars[0].name === 'input'
      ? good.input
      : Object.fromEntries(bodyVars.map((v) => [v.name, good[v.name]]));
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => String(good[name]));
  const wrongTypes = Object.fromEntries(Object.keys(body as object).map((k) => [k, [k]]));
  return {
    name: `${route.method.toUpperCase()} ${route.path}`,
    field: rootFieldOf(route.operation),
    rest: { method: route.method.toUpperCase(), path, good: body, bad: [{}, wrongTypes, nulText(body)] },
    graphql: { query: route.operation, good, bad: [{}, Object.fromEntries(variables.map((v) => [v.name, ['wrong']]))] },
  };
}

/** Each mutation of the schema, its arguments as variables. */
function mutationProbes(): Probe[] {
  return Object.values(schema.getMutationType()!.getFields())
    .filter((field) => field.args.length && !changesTheCaller.has(`Mutation.${field.name}`))
    .map((field) => mutationProbe(field));
}

/**
 * A mutation's probe. With `ids` (by argument name), those arguments keep their values in every bad
 * variant and the rest of its input is what cannot pass: left out, of a wrong type, written as a
 * wrong literal, or with a NUL byte in its text.
 */
function mutationProbe(field: GraphQLField<unknown, unknown>, ids: Record<string, string> = {}): Probe {
  const named = getNamedType(field.type);
  const selection = isObjectType(named) || isInterfaceType(named) || isUnionType(named) ? ' { __typename }' : '';
  const query = `mutation Probe(${field.args.map((a) => `$${a.name}: ${String(a.type)}`).join(', ')}) { ${field.name}(${field.args.map((a) => `${a.name}: $${a.name}`).join(', ')})${selection} }`;
  const good = { ...Object.fromEntries(field.args.map((a) => [a.name, sample(a.type, a.name)])), ...ids };
  const literal = `mutation { ${field.name}(${field.args.map((a) => `${a.name}: ${ids[a.name] ? JSON.stringify(ids[a.name]) : '[1]'}`).join(', ')})${selection} }`;
  const wrong = { ...Object.fromEntries(field.args.map((a) => [a.name, ['wrong']])), ...ids };
  const nul = Object.keys(ids).length ? [{ ...(nulText(good) as object), ...ids }] : [];
  return {
    name: `Mutation.${field.name}`,
    field: `Mutation.${field.name}`,
    graphql: { query, good, bad: [{ ...ids }, wrong, { literal } as never, ...nul] },
  };
}

/** The root field's argument that each variable of an operation gives (`$id` is `schoolId`). */
function argumentsByVariable(operation: string): Map<string, string> {
  const definition = parse(operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const root = definition.selectionSet.selections.find((sel): sel is FieldNode => sel.kind === Kind.FIELD)!;
  return new Map(
    (root.arguments ?? []).flatMap((a) =>
      a.value.kind === Kind.VARIABLE ? [[a.value.name.value, a.name.value] as const] : [],
    ),
  );
}

function rootFieldOf(operation: string): string {
  const definition = parse(operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const first = definition.selectionSet.selections.find((sel) => sel.kind === Kind.FIELD)!;
  return `${definition.operation === 'query' ? 'Query' : 'Mutation'}.${first.kind === Kind.FIELD ? first.name.value : ''}`;
}

function nulText(value: unknown): unknown {
  if (typeof value === 'string') return `${value}\u0000`;
  if (Array.isArray(value)) return value.map(nulText);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, nulText(v)]));
  return value;
}

/**
 * A refused caller is told about the input: a 400 or its details, or anything but 401 to a caller
 * without a token. Where the refusal depends on the arguments (whose learner, whose course, whose
 * request: ownership), it may come after the input is checked (it tells nothing of someone else's resource).
 */
function leaksInput(status: number, details: unknown, refusedWith: number, name: string): boolean {
  if (status === 400 || details !== undefined) return !decidedByArguments.has(name) || refusedWith === 401;
  return refusedWith === 401 && status !== 401;
}

const gqlStatus = (reply: Reply) => {
  const code = reply.body?.errors?.[0]?.extensions?.code as string | undefined;
  return code ? (errorStatus[code.toLowerCase() as ErrorCode] ?? 500) : reply.status;
};

async function graphql(query: string, variables: Record<string, unknown>, token?: string): Promise<Reply> {
  const literal = (variables as { literal?: string }).literal;
  return t.http.rest('POST', '/graphql', { token, body: literal ? { query: literal } : { query, variables } });
}

describe('who may call is decided before what they sent is checked', () => {
  it(
    'refuses a caller without the right as such, whatever the body or variables, on REST and GraphQL',
    { timeout: 600_000 },
    async () => {
      const probes = [...restProbes(), ...mutationProbes()].filter((probe) => !isPublic(probe.field));
      const failures: string[] = [];
      let refusals = 0;
      for (const probe of probes) {
        await Promise.all(
          CALLERS.map(async (caller) => {
            const token = tokens[caller];
            if (probe.rest) {
              const { method, path, good, bad } = probe.rest;
              const plausible = await t.http.rest(method, path, { token, body: good });
              if (plausible.status >= 500) failures.push(`${probe.name} as ${caller}: ${plausible.status}`);
              if (!refusedOnlyAfterInput(plausible.status)) {
                refusals++;
                for (const body of bad) {
                  const reply = await t.http.rest(method, path, { token, body });
                  if (leaksInput(reply.status, reply.body?.details, plausible.status, probe.name)) {
                    failures.push(
                      `REST ${probe.name} as ${caller} with ${JSON.stringify(body).slice(0, 60)}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 160)}, not ${plausible.status} ${plausible.body.error}`,
                    );
                  }
                }
              }
            }
            const { query, good, bad } = probe.graphql;
            const plausible = await graphql(query, good, token);
            const status = gqlStatus(plausible);
            if (status >= 500)
              failures.push(`GraphQL ${probe.name} as ${caller}: ${JSON.stringify(plausible.body).slice(0, 160)}`);
            if (refusedOnlyAfterInput(status)) return;
            refusals++;
            const code = plausible.body.errors[0].extensions.code;
            for (const variables of bad) {
              const reply = await graphql(query, variables, token);
              const error = reply.body?.errors?.[0];
              if (
                leaksInput(gqlStatus(reply), error?.extensions?.details, status, probe.name) ||
                (reply.status >= 400 && reply.status !== gqlStatus(reply))
              ) {
                failures.push(
                  `GraphQL ${probe.name} as ${caller} with ${JSON.stringify(variables).slice(0, 60)}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 160)}, not ${status} ${code}`,
                );
              }
            }
          }),
        );
      }
      console.log(
        `caller first: ${probes.length} operations x ${CALLERS.length} callers, ${refusals} refusals checked with bad input`,
      );
      expect(failures).toEqual([]);
      // Each kind of refusal is met: anonymous callers (401) and callers without the role (403).
      expect(refusals).toBeGreaterThan(probes.length);
    },
  );

  it('answers the probe’s repros: a guardian’s POST /products {} and a learner’s POST /creator/courses {} are 403, their GraphQL twins FORBIDDEN', async () => {
    const products = await t.http.post('/products', {}, { token: tokens.guardian });
    expect(products.status).toBe(403);
    expect(products.body).toEqual({ error: 'forbidden', message: expect.any(String) });
    const courses = await t.http.post('/creator/courses', {}, { token: tokens.learner });
    expect(courses.status).toBe(403);
    expect(courses.body.details).toBeUndefined();
    const anonymous = await t.http.post('/products', {});
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toBe('unauthenticated');

    const twin = await t.http.gql(
      'mutation($input: ProductInput!) { createProduct(input: $input) { id } }',
      { input: {} },
      tokens.guardian,
    );
    expect(twin.status).toBe(403);
    expect(twin.body.errors?.[0].extensions).toEqual({ code: 'FORBIDDEN' });
    expect(JSON.stringify(twin.body)).not.toMatch(/title|price/i);
    // A caller with the role still hears what is wrong with the input.
    const admin = await t.http.post('/products', {}, { token: tokens.admin });
    expect(admin.status).toBe(400);
    expect(admin.body.error).toBe('validation_failed');
  });
});

/** The people of the table below: the wrong caller of each row, and who may make the call. */
type Person =
  | 'learner'
  | 'guardian'
  | 'creator'
  | 'teacher'
  | 'school admin'
  | 'project owner'
  | 'course creator'
  | "learner's guardian";
/** The resources they are called on, made before the table runs. */
type Thing =
  | 'school'
  | 'unknown school'
  | 'class'
  | 'private project'
  | 'public project'
  | 'draft'
  | 'unknown lesson'
  | 'family learner'
  | 'purchase request'
  | 'paid lesson'
  | 'paid exercise';

interface OnSomeoneElses {
  field: string;
  /** Who calls: someone without the school role, the ownership, the link or the purchase. */
  caller: Person;
  /** The ids the call names, by argument; the rest of its input cannot pass. */
  ids: Record<string, Thing>;
  /** 403, or 404 where the area does not tell whether the resource exists. */
  status: 403 | 404;
  /** Who may make the call: told what is wrong with the same input (400), so the input is refused for its own sake. */
  rightful?: Person;
}

/** Operations on someone else's resource: membership, ownership, a guardian's link and a purchase are checked before the input. */
const ON_SOMEONE_ELSES: OnSomeoneElses[] = [
  { field: 'createClass', caller: 'learner', ids: { schoolId: 'school' }, status: 403, rightful: 'teacher' },
  { field: 'createClass', caller: 'learner', ids: { schoolId: 'unknown school' }, status: 404 },
  { field: 'setSchoolMember', caller: 'learner', ids: { schoolId: 'school' }, status: 403, rightful: 'school admin' },
  { field: 'setSchoolMember', caller: 'teacher', ids: { schoolId: 'school' }, status: 403, rightful: 'school admin' },
  { field: 'assignClassCourse', caller: 'learner', ids: { classId: 'class' }, status: 403, rightful: 'teacher' },
  { field: 'updateProject', caller: 'learner', ids: { id: 'private project' }, status: 404, rightful: 'project owner' },
  { field: 'updateProject', caller: 'learner', ids: { id: 'public project' }, status: 403, rightful: 'project owner' },
  { field: 'runProject', caller: 'learner', ids: { id: 'private project' }, status: 404, rightful: 'project owner' },
  {
    field: 'updateCreatorCourse',
    caller: 'creator',
    ids: { courseId: 'draft' },
    status: 403,
    rightful: 'course creator',
  },
  { field: 'addCreatorLesson', caller: 'creator', ids: { courseId: 'draft' }, status: 403, rightful: 'course creator' },
  {
    field: 'updateCreatorLesson',
    caller: 'creator',
    ids: { courseId: 'draft', lessonId: 'unknown lesson' },
    status: 403,
    rightful: 'course creator',
  },
  {
    field: 'messageCreatorLearners',
    caller: 'creator',
    ids: { courseId: 'draft' },
    status: 403,
    rightful: 'course creator',
  },
  {
    field: 'assistCreatorCourse',
    caller: 'creator',
    ids: { courseId: 'draft' },
    status: 403,
    rightful: 'course creator',
  },
  {
    field: 'updateLearnerAiAccess',
    caller: 'guardian',
    ids: { learnerId: 'family learner' },
    status: 404,
    rightful: "learner's guardian",
  },
  {
    field: 'approvePurchaseRequest',
    caller: 'guardian',
    ids: { id: 'purchase request' },
    status: 404,
    rightful: "learner's guardian",
  },
  { field: 'completeLesson', caller: 'learner', ids: { lessonId: 'paid lesson' }, status: 403 },
  { field: 'submitQuiz', caller: 'learner', ids: { lessonId: 'paid lesson' }, status: 403 },
  { field: 'submitSolution', caller: 'learner', ids: { id: 'paid exercise' }, status: 403 },
];

describe("who may touch someone else's resource is decided before what was sent", () => {
  const people = {} as Record<Person, string>;
  const things = {} as Record<Thing, string>;

  beforeAll(async () => {
    const as = (person: SignedIn) => ({ token: person.accessToken });
    const [schoolAdmin, teacher, owner, courseCreator, family] = await Promise.all([
      signUp(t, adultSignup({ email: uniqueEmail('head') })),
      signUp(t, adultSignup({ email: uniqueEmail('teacher') })),
      learnerOfAge(t, 20),
      signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('course-creator') })),
      linkedFamily(t, smtp, 15, 'US'),
    ]);
    const admin = who.admin!;
    const editor = who.content_admin!;
    Object.assign(people, {
      learner: tokens.learner,
      guardian: tokens.guardian,
      creator: tokens.creator,
      teacher: teacher.accessToken,
      'school admin': schoolAdmin.accessToken,
      'project owner': owner.accessToken,
      'course creator': courseCreator.accessToken,
      "learner's guardian": family.guardian.accessToken,
    });

    const school = (await t.http.post('/school', { name: 'Caller-first school', country: 'VN' }, as(admin))).body.id;
    await t.http.post(`/school/${school}/members`, { email: schoolAdmin.email, role: 'school_admin' }, as(admin));
    await t.http.post(`/school/${school}/members`, { email: teacher.email, role: 'teacher' }, as(admin));
    const project = async (visibility: string) =>
      (
        await t.http.post(
          '/projects',
          { title: 'Greeter', language: 'python', files: [{ path: 'main.py', content: 'print(1)' }], visibility },
          as(owner),
        )
      ).body.id;
    const draft = await t.http.post(
      '/creator/courses',
      { title: text('Drafted'), description: text('Not yet'), level: 'beginner', minAge: 8, maxAge: 14 },
      as(courseCreator),
    );
    const paid = await publishedCourse(t, editor);
    await publishedProduct(t, admin, {
      kind: 'course',
      title: text('Sold'),
      description: text('Paid'),
      prices: [{ currency: 'VND', amount: 99000 }],
      courseIds: [paid.id],
    });
    const exercise = await t.http.post(
      '/codelab/exercises',
      {
        title: text('Echo'),
        prompt: text('Print it'),
        language: 'python',
        difficulty: 'easy',
        courseId: paid.id,
        tests: [{ name: 'one', hidden: false, input: '1\n', expected: '1\n' }],
      },
      as(editor),
    );
    const subscription = await publishedProduct(t, admin);
    const asked = await checkout(t, family.learner, { productId: subscription.id, priceId: subscription.prices[0].id });
    Object.assign(things, {
      school,
      'unknown school': randomUUID(),
      class: (await t.http.post(`/school/${school}/classes`, { name: '5A' }, as(teacher))).body.id,
      'private project': await project('private'),
      'public project': await project('public'),
      draft: draft.body.id,
      'unknown lesson': randomUUID(),
      'family learner': family.learner.id,
      'purchase request': asked.body.purchaseRequest.id,
      'paid lesson': paid.lessonIds[0],
      'paid exercise': exercise.body.id,
    });
    expect(Object.values(things).every((id) => typeof id === 'string')).toBe(true);
  }, 120_000);

  it('has a row for every mutation that names a resource by id beside other input (staff who act on every resource aside)', () => {
    const staffOnly = new Set([hasRole(Role.admin), isContentEditor]);
    const naming = Object.values(schema.getMutationType()!.getFields())
      .filter((field) => field.args.length > 1 && field.args.some((a) => getNamedType(a.type).name === 'ID'))
      .filter((field) => !staffOnly.has(ruleMap.Mutation[field.name]));
    expect(
      naming.map((field) => field.name).filter((name) => !ON_SOMEONE_ELSES.some((row) => row.field === name)),
    ).toEqual([]);
  });

  it('refuses the wrong caller 403 or 404 whatever the body or variables, on REST and GraphQL; the rightful one hears of the input', async () => {
    const failures: string[] = [];
    for (const row of ON_SOMEONE_ELSES) {
      const ids = Object.fromEntries(Object.entries(row.ids).map(([argument, thing]) => [argument, things[thing]]));
      const label = `${row.field} as ${row.caller} on ${Object.values(row.ids).join(', ')}`;
      const rests = routes
        .filter((route) => rootFieldOf(route.operation) === `Mutation.${row.field}`)
        .map((route) => restProbe(route, ids).rest!);
      for (const { method, path, good, bad } of rests) {
        for (const body of [good, ...bad]) {
          const reply = await t.http.rest(method, path, { token: people[row.caller], body });
          if (reply.status !== row.status || reply.body?.details)
            failures.push(
              `REST ${label} with ${JSON.stringify(body).slice(0, 60)}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 160)}`,
            );
        }
        if (row.rightful) {
          const reply = await t.http.rest(method, path, { token: people[row.rightful], body: bad[1] });
          if (reply.status !== 400)
            failures.push(`REST ${row.field} as ${row.rightful} with a wrong body: ${reply.status}, not 400`);
        }
      }
      const { query, good, bad } = mutationProbe(schema.getMutationType()!.getFields()[row.field], ids).graphql;
      for (const variables of [good, ...bad]) {
        const reply = await graphql(query, variables, people[row.caller]);
        const error = reply.body?.errors?.[0];
        if (
          gqlStatus(reply) !== row.status ||
          error?.extensions?.details ||
          (reply.status >= 400 && reply.status !== row.status)
        ) {
          failures.push(
            `GraphQL ${label} with ${JSON.stringify(variables).slice(0, 60)}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 160)}`,
          );
        }
      }
      if (row.rightful) {
        const reply = await graphql(query, bad[1], people[row.rightful]);
        if (gqlStatus(reply) !== 400)
          failures.push(
            `GraphQL ${row.field} as ${row.rightful} with wrong variables: ${JSON.stringify(reply.body).slice(0, 160)}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers the probe's repros", async () => {
    const members = await t.http.post(`/school/${things.school}/members`, {}, { token: people.learner });
    expect(members.status).toBe(403);
    expect(members.body).toEqual({ error: 'forbidden', reason: 'not_school_staff', message: expect.any(String) });
    const classes = await t.http.post(`/school/${things['unknown school']}/classes`, {}, { token: people.learner });
    expect(classes.status).toBe(404);
    expect(classes.body.error).toBe('not_found');
    expect((await t.http.put(`/projects/${things['private project']}`, {}, { token: people.learner })).status).toBe(
      404,
    );
    expect(
      (await t.http.post(`/creator/courses/${things.draft}/messages`, {}, { token: people.creator })).body.error,
    ).toBe('forbidden');
    expect(
      (await t.http.post(`/creator/courses/${things.draft}/assist`, {}, { token: people.creator })).body.error,
    ).toBe('forbidden');
    // The rightful caller still hears what is wrong with the input.
    const named = await t.http.post(`/school/${things.school}/classes`, {}, { token: people.teacher });
    expect(named.status).toBe(400);
    expect(named.body.details).toEqual([expect.objectContaining({ field: 'name' })]);
  });
});

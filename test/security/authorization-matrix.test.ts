import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildSchema, type GraphQLInputType, Kind, type OperationDefinitionNode, parse, typeFromAST } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestRoute } from '../../src/kernel/rest-route';
import { routes } from '../../src/server/platform';
import { contentAdmin, publishedCourse } from '../learning/support';
import { type AiBackendFake, startAiBackend } from '../support/ai-backend';
import { startTestApp, type TestApp } from '../support/app';
import { sample } from '../support/samples';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { adultSignup, PASSWORD, signInAdmin, signUpVerified, uniqueEmail, verifiedGuardian } from '../support/users';

/**
 * Every path of the REST route table, called by each kind of caller, answers as
 * the table below says. A path without a row fails the test: whoever adds a path decides here who
 * may call it.
 *
 * Callers, in the order of each row's letters: anonymous, learner, guardian, creator,
 * content_admin, admin, owner (a learner who owns the project, notification, privacy request,
 * certificate and enrollment named in the path), stranger (another learner, given the owner's ids).
 * Letters: `+` passed the permission rules (2xx, 409, 429), `V` 400 (the request's values were
 * refused: for an anonymous caller, before any rule), `U` 401, `F` 403 (any code: forbidden,
 * tier_required, guardian_consent_required, ...), `N` 404 (not found, or not visible to the
 * caller). A 5xx fails whatever the row says.
 *
 * Who may call is answered before what was sent (docs/errors.md). Every route with a body
 * is called again with an empty body, then a body of the wrong type: a `U` stays `U`, and an `F` of
 * a caller refused for their role (not for the owner's things: owner and stranger) stays `F`,
 * never `V` with the input's fields.
 */
const CALLERS = ['anonymous', 'learner', 'guardian', 'creator', 'content_admin', 'admin', 'owner', 'stranger'] as const;
type Caller = (typeof CALLERS)[number];

// prettier-ignore
const expected: Record<string, string> = {
  //                                             anonymous, learner, guardian, creator, content_admin, admin, owner, stranger
  'GET /health': '++++++++',
  'GET /health/live': '++++++++',
  'GET /health/ready': '++++++++',
  'GET /health/email': '++++++++',
  'POST /auth/signup': 'VVVVVVVV',
  'POST /auth/login': 'UUUUUUUU',
  'POST /auth/refresh': 'UUUUUUUU',
  'POST /auth/logout': '++++++++',
  'POST /auth/verify-email': 'VVVVVVVV',
  'POST /auth/resend-verification': '++++++++',
  'POST /auth/forgot-password': '++++++++',
  'POST /auth/reset-password': 'VVVVVVVV',
  'GET /auth/me': 'U+++++++',
  'GET /admin/users': 'UFFFF+FF',
  'POST /admin/users/:id/roles': 'UFFFFNFF',
  'DELETE /admin/users/:id/roles/:role': 'UFFFFNFF',
  'POST /admin/users/:id/suspend': 'UFFFFNFF',
  'POST /admin/users/:id/reactivate': 'UFFFFNFF',
  'GET /admin/audit': 'UFFFF+FF',
  'GET /admin/stats': 'UFFFF+FF',
  'GET /notifications': 'U+++++++',
  'GET /notifications/unread-count': 'U+++++++',
  'POST /notifications/read-all': 'U+++++++',
  'POST /notifications/:id/read': 'UNNNNN+N',
  'DELETE /notifications/:id': 'UNNNNN+N',
  'GET /notifications/settings': 'U+++++++',
  'PUT /notifications/settings': 'U+++++++',
  'POST /guardian/declare': 'UF+FFFFF',
  'POST /guardian/learners': 'UF+FFFFF',
  'POST /guardian/links/confirm': 'VVVVVVVV',
  'POST /guardian/links/:id/approve': 'UNNNFNNN', // the content admin of the fixture has not verified its address
  'POST /guardian/links/:id/revoke': 'UNNNNNNN',
  'GET /guardian/me/links': 'U+++++++',
  'GET /guardian/learners/:learnerId': 'UFNFFFFF',
  'GET /guardian/learners/:learnerId/ai-access': 'UFNFFFFF',
  'PUT /guardian/learners/:learnerId/ai-access': 'UFNFFFFF',
  'GET /guardian/learners/:learnerId/consents': 'UNNNNN+N',
  'GET /consent/me': 'U+++++++',
  'POST /consent/grant': 'UNNNNNNN',
  'POST /consent/revoke': 'UNNNNNNN',
  'GET /consent/ledger': 'U+++++++',
  'GET /country-policy': '++++++++',
  'PUT /country-policy/:country': 'UFFFFVFF',
  'POST /ai/chat': 'UFFFFFFF',
  'GET /ai/quota': 'U+++++++',
  'GET /ai/conversations': 'UFFFFFFF',
  'GET /ai/memory': 'UFFFFFFF',
  'DELETE /ai/memory': 'U+++++++',
  'GET /courses': '++++++++',
  'GET /courses/me': 'U+++++++',
  'GET /courses/:id': '++++++++',
  'POST /courses': 'UFFFVVFF',
  'PUT /courses/:id': 'UFFF++FF',
  'POST /courses/:id/publish': 'UFFF++FF',
  'POST /courses/:id/unpublish': 'UFFF++FF',
  'POST /courses/:id/lessons': 'UFFFVVFF',
  'PUT /courses/:id/lessons/:lessonId': 'UFFFVVFF',
  'POST /courses/:id/enrollment': 'U+++++++',
  'DELETE /courses/:id/enrollment': 'U+++++++',
  'POST /progress/lessons/:lessonId/complete': 'UFFFFFFF',
  'POST /progress/lessons/:lessonId/quiz': 'UFFFFFFF',
  'GET /progress/me': 'U+++++++',
  'GET /progress/courses/:courseId': 'UNNNNNNN',
  'GET /guardian/dashboard': 'UF+FFFFF',
  'GET /guardian/learners/:learnerId/progress': 'UFNFFFFF',
  'GET /guardian/learners/:learnerId/courses': 'UFNFFFFF',
  'GET /guardian/learners/:learnerId/certificates': 'UFNFFFFF',
  'GET /certificates': 'U+++++++',
  'GET /certificates/verify/:code': '++++++++',
  'GET /certificates/:id': 'UNNNNN+N',
  'POST /factory/generate': 'UFFFVVFF',
  'GET /factory/generations': 'UFFF++FF',
  'GET /factory/generations/:id': 'UFFFNNFF',
  'POST /factory/generations/:id/approve': 'UFFFNNFF',
  'POST /factory/generations/:id/reject': 'UFFFNNFF',
  'POST /factory/generations/:id/retry': 'UFFFNNFF',
  'POST /factory/generations/:id/regenerate': 'UFFFNNFF',
  'POST /contact': '++++++++',
  'GET /contact/messages': 'UFFFF+FF',
  'POST /contact/messages/:id/resolve': 'UFFFFNFF',
  'GET /features': '++++++++',
  'GET /admin/features': 'UFFFF+FF',
  'PUT /admin/features/:key': 'UFFFFVFF',
  'POST /school': 'UFFFF+FF',
  'GET /school/me': 'U+++++++',
  'POST /school/join': 'UVFFFFVV',
  'POST /school/:id/members': 'UNNNNNNN',
  'POST /school/:id/classes': 'UNNNNNNN',
  'GET /school/classes/:id': 'UNNNNNNN',
  'GET /school/classes/:id/progress': 'UNNNNNNN',
  'POST /school/classes/:id/join-code': 'UNNNNNNN',
  'POST /school/classes/:id/courses': 'UNNNNNNN',
  'POST /creator/courses': 'UFF++FFF',
  'GET /creator/courses': 'UFF++FFF',
  'GET /creator/reviews': 'UFFF++FF',
  'GET /creator/analytics': 'UFF++FFF',
  'PUT /creator/courses/:id': 'UFFNNFFF',
  'POST /creator/courses/:id/lessons': 'UFFNNFFF',
  'PUT /creator/courses/:id/lessons/:lessonId': 'UFFNNFFF',
  'POST /creator/courses/:id/submit': 'UFFNNFFF',
  'POST /creator/courses/:id/approve': 'UFFFNNFF',
  'POST /creator/courses/:id/reject': 'UFFFNNFF',
  'POST /creator/courses/:id/messages': 'UFFNNFFF',
  'POST /creator/courses/:id/assist': 'UFFNNFFF',
  'POST /gdpr/export': 'UFFFFFFF',
  'POST /gdpr/delete': 'UFFFFFFF',
  'GET /gdpr/requests': 'U+++++++',
  'GET /gdpr/requests/:id': 'UNNNNN+N',
  'POST /gdpr/requests/:id/cancel': 'UNNNNN+N',
  'GET /admin/gdpr/requests': 'UFFFF+FF',
  'GET /guardian/reports': 'UF+FFFFF',
  'GET /products': '++++++++',
  'GET /products/:id': 'NNNNNNNN',
  'POST /products': 'UFFFFVFF',
  'PUT /products/:id': 'UFFFFVFF',
  'POST /products/:id/publish': 'UFFFFNFF',
  'POST /products/:id/archive': 'UFFFFNFF',
  'GET /marketplace': '++++++++',
  'GET /marketplace/me/sales': 'UFF++FFF',
  'GET /marketplace/:productId': 'NNNNNNNN',
  // A listing names only courses the creator wrote: the sample's course is nobody's, refused before its values are read.
  'POST /marketplace/listings': 'UFFFFFFF',
  'POST /marketplace/listings/:id/approve': 'UFFFNNFF',
  'POST /marketplace/listings/:id/reject': 'UFFFNNFF',
  'POST /payments/checkout': 'UVVVVVVV',
  'GET /payments/me': 'U+++++++',
  'GET /payments/requests': 'U+++++++',
  'POST /payments/requests/:id/approve': 'UFNFFFFF',
  'POST /payments/requests/:id/decline': 'UFNFFFFF',
  'GET /payments/:id': 'UNNNNNNN',
  'GET /entitlements/me': 'U+++++++',
  'POST /entitlements/grants': 'UFFFFVFF',
  'POST /entitlements/:id/revoke': 'UFFFFNFF',
  'POST /refunds': 'UNNNNNNN',
  'GET /refunds/me': 'U+++++++',
  'GET /refunds': 'UFFFF+FF',
  'POST /refunds/:id/approve': 'UFFFFNFF',
  'POST /refunds/:id/reject': 'UFFFFNFF',
  'GET /admin/ledger/balances': 'UFFFF+FF',
  'POST /codelab/run': 'UVVVVVVV',
  'GET /codelab/exercises': 'U+++++++',
  'GET /codelab/exercises/:id': 'UNNNNNNN',
  'POST /codelab/exercises': 'UFFFVVFF',
  'PUT /codelab/exercises/:id': 'UFFFVVFF',
  'POST /codelab/exercises/:id/submissions': 'UNNNNNNN',
  'GET /codelab/submissions/:id': 'UNNNNNNN',
  'POST /codelab/submissions/:id/hint': 'UFFFFFFF',
  'GET /codelab/me/submissions': 'U+++++++',
  'POST /projects': 'U+++++++',
  'GET /projects/me': 'U+++++++',
  'GET /projects/:id': 'NNNNNN+N',
  'PUT /projects/:id': 'UNNNNN+N',
  'DELETE /projects/:id': 'UNNNNN+N',
  'POST /projects/:id/run': 'UNNNNN+N',
  'POST /projects/:id/remix': 'UNNNNN+N',
  'GET /portfolio/me': 'U+++++++',
  'PUT /portfolio/me': 'UVVVVVVV',
  'GET /portfolio/:handle': 'NNNNNNNN',
};

const schema = buildSchema(readFileSync(join(__dirname, '../../schema/schema.graphql'), 'utf8'));

let t: TestApp;
let smtp: SmtpServer;
let backend: AiBackendFake;
const tokens: Partial<Record<Caller, string>> = {};
/** The owner's things, named in paths by parameter. */
const owned: Record<string, string> = {};

beforeAll(async () => {
  smtp = await startSmtpServer();
  backend = await startAiBackend();
  t = await startTestApp({
    SMTP_URL: smtp.url,
    AI_BACKEND_URL: backend.url,
    AI_BACKEND_SECRET: 'a-secret-for-the-ai-backend-of-the-matrix',
  });
  const admin = await signInAdmin(t);
  const editor = await contentAdmin(t);
  const adult = (role: string) => signUpVerified(t, smtp, adultSignup({ role, email: uniqueEmail(role) }));
  const learner = () =>
    signUpVerified(t, smtp, adultSignup({ role: 'learner', birthDate: '2000-01-01', email: uniqueEmail('learner') }));
  const [plainLearner, guardian, creator, owner, stranger] = await Promise.all([
    learner(),
    verifiedGuardian(t, smtp),
    adult('creator'),
    learner(),
    learner(),
  ]);
  Object.assign(tokens, {
    learner: plainLearner.accessToken,
    guardian: guardian.accessToken,
    creator: creator.accessToken,
    content_admin: editor.accessToken,
    admin: admin.accessToken,
    owner: owner.accessToken,
    stranger: stranger.accessToken,
  });

  // The owner's things: an enrollment and a certificate (a one-lesson course), a project, a privacy request, a notification.
  const course = await publishedCourse(t, editor, {}, 1);
  const editorCourse = await publishedCourse(t, editor, {}, 1);
  await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: owner.accessToken });
  await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`, undefined, { token: owner.accessToken });
  const project = await t.http.post('/projects', PROJECT, { token: owner.accessToken });
  const request = await t.http.post('/gdpr/export', {}, { token: owner.accessToken });
  const certificates = await waitFor(
    async () => (await t.http.get('/certificates', { token: owner.accessToken })).body?.items?.[0],
  );
  const notification = await waitFor(
    async () => (await t.http.get('/notifications', { token: owner.accessToken })).body?.items?.[0],
  );
  Object.assign(owned, {
    course: course.id,
    lesson: course.lessonIds[0],
    editorCourse: editorCourse.id,
    editorLesson: editorCourse.lessonIds[0],
    project: project.body.id,
    gdpr: request.body.id,
    certificate: certificates.id,
    code: certificates.code ?? 'NOCODE',
    notification: notification.id,
    owner: owner.id,
  });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
  await backend?.close();
});

async function waitFor<T>(get: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const value = await get();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the fixture did not appear');
}

const unknownId = randomUUID();

const PROJECT = { title: 'Mine', language: 'python', files: [{ path: 'main.py', content: 'print(1)' }] };
/** Bodies that the samples would not make valid, so that the rules decide rather than validation. */
const bodies: Record<string, unknown> = { 'POST /projects': PROJECT, 'PUT /projects/:id': PROJECT };

/** The value of a path parameter: the owner's thing where the path names one, else an id nobody has. */
function pathValue(route: RestRoute, name: string): string {
  const path = route.path;
  if (name === 'id' && path.startsWith('/projects/')) return owned.project;
  if (name === 'id' && path.startsWith('/notifications/')) return owned.notification;
  if (name === 'id' && path.startsWith('/gdpr/requests/')) return owned.gdpr;
  if (name === 'id' && path.startsWith('/certificates/')) return owned.certificate;
  if (name === 'code') return owned.code;
  // Editors change (unpublish) a course of their own, not the one the owner learns in.
  if (name === 'id' && path.startsWith('/courses/'))
    return path.endsWith('/enrollment') ? owned.course : owned.editorCourse;
  if (name === 'lessonId' && path.startsWith('/courses/')) return owned.editorLesson;
  if (name === 'lessonId') return owned.lesson;
  if (name === 'courseId') return owned.course;
  if (name === 'learnerId') return owned.owner;
  if (name === 'country') return 'DE';
  if (name === 'key') return 'matrix_probe';
  if (name === 'role') return 'creator';
  if (name === 'handle') return 'nobody-here';
  return unknownId;
}

/** A request with plausible values for the route's operation: its required query parameters, its body. */
function requestOf(route: RestRoute): { path: string; body?: unknown } {
  const operation = parse(route.operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  )!;
  const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const variables = (operation.variableDefinitions ?? [])
    .filter((v) => !pathNames.includes(v.variable.name.value))
    .map((v) => ({
      name: v.variable.name.value,
      required: v.type.kind === Kind.NON_NULL_TYPE,
      type: typeFromAST(schema, v.type as never) as GraphQLInputType,
    }));
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(pathValue(route, name)));
  if (key(route) in bodies) return { path, body: bodies[key(route)] };
  if (route.method === 'get') {
    const query = variables
      .filter((v) => v.required)
      .map((v) => `${v.name}=${encodeURIComponent(String(sample(v.type, v.name)))}`);
    return { path: query.length ? `${path}?${query.join('&')}` : path };
  }
  const body =
    variables.length === 1 && variables[0].name === 'input'
      ? sample(variables[0].type, 'input')
      : Object.fromEntries(variables.map((v) => [v.name, sample(v.type, v.name)]));
  return { path, body };
}

function letter(status: number): string {
  if (status >= 500) return '!';
  if (status === 401) return 'U';
  if (status === 403) return 'F';
  if (status === 404) return 'N';
  if (status === 400) return 'V';
  return '+';
}

const key = (route: RestRoute) => `${route.method.toUpperCase()} ${route.path}`;

/**
 * Paths that change the callers themselves run last, in this order: after a deletion request an
 * account may only read itself and cancel (the other rows would all say F).
 */
const LAST = ['POST /auth/logout', 'DELETE /projects/:id', 'DELETE /notifications/:id', 'POST /gdpr/delete'];

/** Routes whose 403 to these callers depends on the thing the input names (whose learner, which lesson's course): decided once the input is read. */
// Refused for the courses, learners or lessons the body names: without a valid body there is nothing to refuse yet.
const REFUSED_BY_ARGUMENT = new Set([
  'POST /gdpr/export',
  'POST /progress/lessons/:lessonId/complete',
  'POST /progress/lessons/:lessonId/quiz',
  'POST /marketplace/listings',
]);

describe('the authorization matrix of the REST route table', () => {
  it(
    'refuses callers without the right before reading the body: U and F stay so with an empty or wrongly typed body',
    { timeout: 600_000 },
    async () => {
      const roleCallers = CALLERS.filter((caller) => caller !== 'owner' && caller !== 'stranger');
      // Sign-in operations (/auth) answer 401 for the credentials sent: there the body is what is judged.
      const withBody = routes.filter(
        (route) =>
          (route.method === 'post' || route.method === 'put') &&
          !LAST.includes(key(route)) &&
          !route.path.startsWith('/auth/'),
      );
      const leaks: string[] = [];
      for (const route of withBody) {
        const { path } = requestOf(route);
        await Promise.all(
          roleCallers.map(async (caller, i) => {
            const letterOf = expected[key(route)]?.[CALLERS.indexOf(caller)];
            if (letterOf !== 'U' && !(letterOf === 'F' && !REFUSED_BY_ARGUMENT.has(key(route)))) return;
            // (A body that is not a JSON object or array is invalid_json before anything: it says nothing of the operation.)
            for (const raw of ['{}', '[]', '{"input": 12}', '{"id": [1], "learnerId": {}}']) {
              const reply = await t.http.rest(route.method.toUpperCase(), path, { token: tokens[caller], raw });
              if (letter(reply.status) !== letterOf || reply.body?.details)
                leaks.push(
                  `${key(route)} as ${CALLERS[i]} with ${raw}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 160)}`,
                );
            }
          }),
        );
      }
      expect(leaks).toEqual([]);
    },
  );

  it(
    'has an expectation for every path, and every path answers each kind of caller as expected',
    { timeout: 600_000 },
    async () => {
      const ordered = [...routes].sort((a, b) => LAST.indexOf(key(a)) - LAST.indexOf(key(b)));
      const actual: Record<string, string> = {};
      const failures: string[] = [];
      for (const route of ordered) {
        const { path, body } = requestOf(route);
        const call = (caller: Caller) => t.http.rest(route.method.toUpperCase(), path, { token: tokens[caller], body });
        // The owner last: what they change (delete, cancel) must not decide the others' answers.
        const others = await Promise.all(
          CALLERS.filter((c) => c !== 'owner').map(async (caller) => [caller, await call(caller)] as const),
        );
        const replies = new Map([...others, ['owner', await call('owner')] as const]);
        actual[key(route)] = CALLERS.map((caller) => letter(replies.get(caller)!.status)).join('');
        for (const caller of CALLERS) {
          const reply = replies.get(caller)!;
          if (reply.status >= 500)
            failures.push(`${key(route)} as ${caller}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 200)}`);
        }
      }
      const table = routes.map((route) => `  '${key(route)}': '${actual[key(route)]}',`).join('\n');
      if (process.env.MATRIX_PRINT) console.log(`const expected = {\n${table}\n};`);
      const missing = routes.map(key).filter((k) => !(k in expected));
      const stale = Object.keys(expected).filter((k) => !routes.some((route) => key(route) === k));
      const differing = routes
        .map(key)
        .filter((k) => k in expected && expected[k] !== actual[k])
        .map((k) => `${k}: expected ${expected[k]}, got ${actual[k]}`);
      const paths = new Set(routes.map((route) => route.path)).size;
      console.log(
        `authorization matrix: ${routes.length} routes (${paths} paths) x ${CALLERS.length} callers = ${routes.length * CALLERS.length} requests`,
      );
      expect(failures, 'server errors').toEqual([]);
      expect(missing, 'paths without an expectation: add a row to `expected`').toEqual([]);
      expect(stale, 'rows of paths that are gone').toEqual([]);
      expect(differing).toEqual([]);
    },
  );
});

/** What an account whose erasure is pending may still call (docs/domain.md#privacy-operations). */
const WHILE_PENDING = new Set([
  'GET /auth/me',
  'GET /gdpr/requests',
  'GET /gdpr/requests/:id',
  'POST /gdpr/requests/:id/cancel',
]);

describe('an account whose erasure is pending (docs/domain.md#privacy-operations)', () => {
  it(
    'is refused with 403 account_deletion_pending on every path but itself, its privacy requests and cancel: every read, public ones included',
    { timeout: 600_000 },
    async () => {
      const learner = await signUpVerified(
        t,
        smtp,
        adultSignup({ role: 'learner', birthDate: '2000-01-01', email: uniqueEmail('pending') }),
      );
      expect((await t.http.post('/gdpr/delete', { password: PASSWORD }, { token: learner.accessToken })).status).toBe(
        202,
      );
      const token = (await t.http.post('/auth/login', { email: learner.email, password: PASSWORD })).body
        .accessToken as string;
      const wrong: string[] = [];
      for (const route of routes) {
        const { path, body } = requestOf(route);
        const reply = await t.http.rest(route.method.toUpperCase(), path, { token, body });
        const refused = reply.status === 403 && reply.body?.error === 'account_deletion_pending';
        // A write that answers every caller alike (log-in, sign-up, refresh...) acts on what is sent, not on the caller: it only must not fail.
        const acting = route.method !== 'get' && new Set(expected[key(route)]).size === 1;
        if (reply.status >= 500 || (WHILE_PENDING.has(key(route)) ? refused : !refused && !acting))
          wrong.push(`${key(route)}: ${reply.status} ${reply.body?.error ?? ''}`);
      }
      expect(wrong.join('\n')).toBe('');
    },
  );
});

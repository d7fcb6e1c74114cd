import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { linkFamily } from '../support/family';
import type { Reply } from '../support/http';
import { withMailAndApp } from '../support/setup';
import type { SmtpServer } from '../support/smtp';
import {
  adultSignup,
  learnerOfAge,
  learnerSignup,
  type SignedIn,
  signInAdmin,
  uniqueEmail,
  verifiedGuardian,
  PASSWORD,
} from '../support/users';
import { courseBody } from '../learning/support';

const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let admin: SignedIn;
beforeAll(async () => {
  ({ t, smtp } = ctx);
  admin = await signInAdmin(t);
});

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const cursor = (text: string) => Buffer.from(text).toString('base64url');

function expectInvalid(reply: Reply, field?: string) {
  expect(reply.status, JSON.stringify(reply.body)).toBe(400);
  expect(reply.body.error).toBe('validation_failed');
  for (const detail of reply.body.details) expect(typeof detail.field).toBe('string');
  if (field) expect(reply.body.details.map((d: { field: string }) => d.field)).toContain(field);
}

describe('every bad input answers 4xx', () => {
  it('a malformed cursor is 400 on every list', async () => {
    const bad = [
      cursor('2026-01-01T00:00:00.000Z|not-a-uuid'),
      cursor('+275760-09-13T00:00:00.000Z|00000000-0000-4000-8000-000000000000'),
      cursor('9999-99-99T00:00:00.000Z|00000000-0000-4000-8000-000000000000'),
      cursor('2026-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000|extra'),
      '%00',
    ];
    for (const path of ['/courses', '/notifications', '/admin/users', '/guardian/me/links', '/factory/generations']) {
      for (const c of bad)
        expectInvalid(await t.http.get(`${path}?cursor=${c}`, { token: admin.accessToken }), 'cursor');
    }
    const good = cursor('2026-01-01T00:00:00.000Z|00000000-0000-4000-8000-000000000000');
    expect((await t.http.get(`/courses?cursor=${good}`)).status).toBe(200);
  });

  it('a NUL byte in query parameters and text fields is 400 naming the field', async () => {
    expectInvalid(await t.http.get(`/courses?q=${encodeURIComponent(NUL)}`), 'q');
    expectInvalid(
      await t.http.get(`/admin/users?email=${encodeURIComponent(NUL)}`, { token: admin.accessToken }),
      'email',
    );
    expectInvalid(await t.http.post('/auth/signup', adultSignup({ displayName: NUL })), 'displayName');
    const course = courseBody();
    expectInvalid(
      await t.http.post('/courses', { ...course, title: { en: NUL, vi: 'x' } }, { token: admin.accessToken }),
      'title.en',
    );
    const lessons = structuredClone(course.lessons);
    lessons[1].quiz[0].explanation.vi = NUL;
    expectInvalid(
      await t.http.post('/courses', { ...course, lessons }, { token: admin.accessToken }),
      'lessons.1.quiz.0.explanation.vi',
    );
    expectInvalid(
      await t.http.post(
        '/factory/generate',
        { topic: NUL, level: 'beginner', ageRange: '9-12', lessonCount: 3 },
        { token: admin.accessToken },
      ),
      'topic',
    );
    // The same over GraphQL, as a variable and as a literal in the document.
    const gql = await t.http.gql('query($q: String) { courses(q: $q) { edges { cursor } } }', { q: NUL });
    expect(gql.status).toBe(400);
    expect(gql.body.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'q' }] });
    const literal = await t.http.gql('{ courses(q: "a\\u0000b") { edges { cursor } } }');
    expect(literal.body.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'q' }] });
  });

  it('a lone surrogate in an e-mail is 400 on sign-up, log-in, forgot-password, resend-verification and declare', async () => {
    const email = `x${LONE}@example.com`;
    expectInvalid(await t.http.post('/auth/signup', adultSignup({ email })), 'email');
    expectInvalid(await t.http.post('/auth/login', { email, password: PASSWORD }), 'email');
    expectInvalid(await t.http.post('/auth/forgot-password', { email }), 'email');
    expectInvalid(await t.http.post('/auth/resend-verification', { email }), 'email');
    const guardian = await verifiedGuardian(t, smtp);
    expectInvalid(
      await t.http.post('/guardian/declare', { learnerEmail: email }, { token: guardian.accessToken }),
      'learnerEmail',
    );
    // A surrogate pair (an emoji) is text; a lone low surrogate is not.
    expect((await t.http.post('/auth/signup', adultSignup({ displayName: 'Lan 🎈' }))).status).toBe(201);
    expectInvalid(await t.http.post('/auth/signup', adultSignup({ displayName: 'Lan \udc00' })), 'displayName');
  });

  it('null for enabled or memoryEnabled of ai-access is 400', async () => {
    const guardian = await verifiedGuardian(t, smtp);
    const learner = await learnerOfAge(t, 14);
    await linkFamily(t, guardian, learner);
    const path = `/guardian/learners/${learner.id}/ai-access`;
    expectInvalid(await t.http.put(path, { enabled: null }, { token: guardian.accessToken }), 'enabled');
    expectInvalid(await t.http.put(path, { memoryEnabled: null }, { token: guardian.accessToken }), 'memoryEnabled');
    expect((await t.http.put(path, { enabled: true }, { token: guardian.accessToken })).status).toBe(200);
  });

  it('two operations without operationName and an unknown persisted query are 400', async () => {
    const two = await t.http.rest('POST', '/graphql', {
      body: { query: 'query A { __typename } query B { __typename }' },
    });
    expect(two.status).toBe(400);
    expect(two.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'operationName' }],
    });
    const named = await t.http.rest('POST', '/graphql', {
      body: { query: 'query A { __typename } query B { __typename }', operationName: 'B' },
    });
    expect(named.status).toBe(200);
    const unknown = await t.http.rest('POST', '/graphql', {
      body: { extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'extensions.persistedQuery' }],
    });
  });

  it('__proto__ and constructor keys give details whose field is a string', async () => {
    for (const raw of [
      `{"__proto__": {"x": 1}, ${JSON.stringify(adultSignup()).slice(1)}`,
      `{"constructor": 1, ${JSON.stringify(adultSignup()).slice(1)}`,
      '{"__proto__": 1}',
      '{"constructor": {"prototype": 1}}',
    ]) {
      const reply = await t.http.rest('POST', '/auth/signup', { raw });
      expectInvalid(reply);
      expect(reply.body.details.length).toBeGreaterThan(0);
    }
    const query = await t.http.get('/courses?__proto__=1&constructor=2');
    expect(query.status).toBe(200);
    const learner = learnerSignup('2010-01-01', { email: uniqueEmail('proto') });
    expect((await t.http.rest('POST', '/auth/signup', { raw: JSON.stringify(learner) })).status).toBe(201);
  });
});

import { describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import type { Reply } from '../support/http';
import { adultSignup, PASSWORD, signUp } from '../support/users';

/**
 * Each test on an instance and a database of its own: the counters live in the database (shared by
 * every instance on it), so a test's limits meet only its own requests.
 */
async function withApp(env: Record<string, string>, run: (app: TestApp) => Promise<void>) {
  const app = await startTestApp(env);
  try {
    await run(app);
  } finally {
    await app.close();
  }
}

function expectHeaders(reply: Reply, limit: number) {
  expect(Number(reply.headers.get('x-ratelimit-limit'))).toBe(limit);
  const remaining = Number(reply.headers.get('x-ratelimit-remaining'));
  expect(remaining).toBeGreaterThanOrEqual(0);
  // This request was counted: fewer than the whole window remain.
  expect(remaining).toBeLessThan(limit);
  const reset = Number(reply.headers.get('x-ratelimit-reset'));
  const now = Date.now() / 1000;
  expect(reset).toBeGreaterThan(now - 1);
  expect(reset).toBeLessThanOrEqual(now + 61);
}

/** `headersOfBucket`: the X-RateLimit-* headers describe the bucket that ran out (request counting). */
function expectRateLimited(reply: Reply, headersOfBucket = true) {
  expect(reply.status).toBe(429);
  expect(reply.body).toEqual({ error: 'rate_limited', message: expect.any(String), retryAfter: expect.any(Number) });
  expect(reply.body.retryAfter).toBeGreaterThan(0);
  expect(Number(reply.headers.get('retry-after'))).toBe(reply.body.retryAfter);
  if (headersOfBucket) expect(reply.headers.get('x-ratelimit-remaining')).toBe('0');
}

describe('the default limit', () => {
  it('counts a signed-in user on their own, lets exactly the limit through under concurrency, then answers 429', () =>
    withApp({ RATE_LIMIT_DEFAULT: '8' }, async (app) => {
      const account = await signUp(app, adultSignup());
      const replies = await Promise.all(
        Array.from({ length: 14 }, () => app.http.get('/health', { token: account.accessToken })),
      );
      expect(replies.filter((r) => r.status === 200)).toHaveLength(8);
      for (const reply of replies) expectHeaders(reply, 8);
      expectRateLimited(replies.find((r) => r.status === 429)!);
      // Another user, and anonymous callers of the same address, still have their own room.
      const other = await signUp(app, adultSignup());
      expect((await app.http.get('/health', { token: other.accessToken })).status).toBe(200);
      expect((await app.http.get('/health')).status).toBe(200);
    }));

  it('shows the headers on GraphQL answers, success and error alike, and refuses with 429 RATE_LIMITED', () =>
    withApp({ RATE_LIMIT_DEFAULT: '8' }, async (app) => {
      const account = await signUp(app, adultSignup());
      const replies: Reply[] = [];
      for (let i = 0; i < 9; i++)
        replies.push(await app.http.gql(i === 3 ? '{ nope }' : '{ me { id } }', {}, account.accessToken));
      for (const reply of replies.slice(0, 8)) expectHeaders(reply, 8);
      expect(replies.slice(0, 8).map((r) => Number(r.headers.get('x-ratelimit-remaining')))).toEqual([
        7, 6, 5, 4, 3, 2, 1, 0,
      ]);
      expect(replies[3].body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
      const refused = replies[8];
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
      expect(Number(refused.headers.get('retry-after'))).toBe(refused.body.errors[0].extensions.retryAfter);
    }));
});

describe('the /auth limit', () => {
  /** Nine requests for a new password at once, with RATE_LIMIT_AUTH at 5: five through with the /auth bucket's headers, the rest refused. */
  async function expectFiveOfNineThrough(app: TestApp, path: string) {
    const replies = await Promise.all(
      Array.from({ length: 9 }, () => app.http.post(path, { email: 'someone@example.com' })),
    );
    expect(replies.filter((r) => r.status === 202)).toHaveLength(5);
    expectHeaders(
      replies.find((r) => r.status === 202)!,
      5,
    );
    expectRateLimited(replies.find((r) => r.status === 429)!);
  }

  it('counts anonymous callers per IP, REST and the GraphQL twins together', () =>
    withApp({ RATE_LIMIT_AUTH: '5' }, async (app) => {
      await expectFiveOfNineThrough(app, '/auth/forgot-password');
      // Paths outside /auth have room: only the stricter bucket is used up.
      expect((await app.http.get('/health')).status).toBe(200);
      const gql = await app.http.gql('mutation { forgotPassword(input: { email: "someone@example.com" }) }');
      expect(gql.body.errors?.[0].extensions).toEqual({ code: 'RATE_LIMITED', retryAfter: expect.any(Number) });
    }));

  it('counts reading the account (GET /auth/me) in the default bucket only, REST and GraphQL alike', () =>
    withApp({ RATE_LIMIT_AUTH: '5' }, async (app) => {
      const account = await signUp(app, adultSignup());
      const reads = await Promise.all(
        Array.from({ length: 9 }, () => app.http.get('/auth/me', { token: account.accessToken })),
      );
      expect(reads.map((r) => r.status)).toEqual(Array(9).fill(200));
      for (const reply of reads) expectHeaders(reply, 100000);
      // With the sign-in bucket used up (the sign-up took one of its five), the account is still read, over REST and GraphQL.
      const signIns = await Promise.all(
        Array.from({ length: 5 }, () => app.http.post('/auth/forgot-password', { email: account.email })),
      );
      expect(signIns.map((r) => r.status).sort()).toEqual([202, 202, 202, 202, 429]);
      const me = await app.http.get('/auth/me', { token: account.accessToken });
      expect(me.status).toBe(200);
      expect(me.body.user.id).toBe(account.id);
      expectHeaders(me, 100000);
      const gql = await app.http.gql('{ me { id } }', {}, account.accessToken);
      expect(gql.body).toEqual({ data: { me: { id: account.id } } });
    }));

  it('counts a path spelled in other letters (routes match in any case) as /auth, headers included', () =>
    withApp({ RATE_LIMIT_AUTH: '5' }, (app) => expectFiveOfNineThrough(app, '/AUTH/Forgot-Password')));

  it('limits log-in failures per e-mail address: then even the right password waits', () =>
    withApp({ RATE_LIMIT_LOGIN_FAILURES: '3' }, async (app) => {
      const account = await signUp(app, adultSignup());
      const failures = await Promise.all(
        Array.from({ length: 3 }, () =>
          app.http.post('/auth/login', { email: account.email, password: 'a wrong password' }),
        ),
      );
      expect(failures.map((r) => r.status)).toEqual([401, 401, 401]);
      expectRateLimited(await app.http.post('/auth/login', { email: account.email, password: PASSWORD }), false);
      const gql = await app.http.gql('mutation($input: LoginInput!) { login(input: $input) { accessToken } }', {
        input: { email: account.email, password: PASSWORD },
      });
      expect(gql.body.errors?.[0].extensions.code).toBe('RATE_LIMITED');
      // Another address from the same IP is not held back.
      const other = await signUp(app, adultSignup());
      expect((await app.http.post('/auth/login', { email: other.email, password: PASSWORD })).status).toBe(200);
    }));
});

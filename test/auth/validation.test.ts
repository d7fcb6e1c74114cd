import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, learnerSignup, signUp, signupInput } from '../support/users';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const yearsAgo = (years: number) => `${new Date().getUTCFullYear() - years}-01-01`;

/** The field names a 400 answer names in its details. */
function detailFields(body: { error: string; details?: { field: string }[] }): string[] {
  expect(body.error).toBe('validation_failed');
  return (body.details ?? []).map((d) => d.field);
}

describe('every bad input of the auth bodies answers 400 with details', () => {
  const signups: [string, Record<string, unknown>, string][] = [
    ['a missing e-mail', { email: undefined }, 'email'],
    ['a malformed e-mail', { email: 'not-an-address' }, 'email'],
    ['an e-mail that is a number', { email: 42 }, 'email'],
    ['a short password', { password: 'short' }, 'password'],
    [
      'the e-mail as password',
      { email: 'same-as-password@example.com', password: 'same-as-password@example.com' },
      'password',
    ],
    ['an empty display name', { displayName: '' }, 'displayName'],
    ['an unknown role', { role: 'wizard' }, 'role'],
    ['the admin role', { role: 'admin' }, 'role'],
    ['the content_admin role', { role: 'content_admin' }, 'role'],
    ['a bad country', { country: 'XX' }, 'country'],
    ['a lower-case country', { country: 'vietnam' }, 'country'],
    ['a bad locale', { locale: 'fr' }, 'locale'],
    ['a learner without birth date', { role: 'learner' }, 'birthDate'],
    ['a malformed birth date', { role: 'learner', birthDate: '01/02/2010' }, 'birthDate'],
    [
      'a birth date in the future',
      { role: 'learner', birthDate: `${new Date().getUTCFullYear() + 1}-01-01` },
      'birthDate',
    ],
    ['an impossible birth date', { role: 'learner', birthDate: '2012-02-30' }, 'birthDate'],
    ['a learner under 13 without guardianEmail', { role: 'learner', birthDate: yearsAgo(10) }, 'guardianEmail'],
    ['a malformed guardianEmail', { role: 'learner', birthDate: yearsAgo(10), guardianEmail: 'nope' }, 'guardianEmail'],
  ];

  it.each(signups)('sign-up with %s (REST)', async (_name, change, field) => {
    const reply = await t.http.post('/auth/signup', adultSignup(change));
    expect(reply.status).toBe(400);
    expect(detailFields(reply.body)).toContain(field);
    expect(reply.body.message).toEqual(expect.any(String));
  });

  it.each(signups)('sign-up with %s (GraphQL)', async (_name, change, field) => {
    const reply = await t.http.gql('mutation($input: SignupInput!) { signup(input: $input) { accessToken } }', {
      input: signupInput(adultSignup(change)),
    });
    const error = reply.body.errors?.[0];
    expect(error?.extensions.code).toBe('VALIDATION_FAILED');
    expect(error?.extensions.details?.map((d) => d.field)).toContain(field);
  });

  const bodies: [string, string, Record<string, unknown>, string][] = [
    ['/auth/login', 'no password', { email: 'a@example.com' }, 'password'],
    ['/auth/login', 'a malformed e-mail', { email: 'a', password: 'x' }, 'email'],
    ['/auth/refresh', 'no refresh token', {}, 'refreshToken'],
    ['/auth/refresh', 'a refresh token that is a number', { refreshToken: 5 }, 'refreshToken'],
    ['/auth/logout', 'no refresh token', {}, 'refreshToken'],
    ['/auth/verify-email', 'no token', {}, 'token'],
    ['/auth/resend-verification', 'a malformed e-mail', { email: 'nope' }, 'email'],
    ['/auth/forgot-password', 'no e-mail', {}, 'email'],
    ['/auth/reset-password', 'a short password', { token: 'abc', password: 'short' }, 'password'],
    ['/auth/reset-password', 'no token', { password: 'a long enough passphrase' }, 'token'],
  ];

  it.each(bodies)('%s with %s', async (path, _name, body, field) => {
    const reply = await t.http.post(path, body);
    expect(reply.status).toBe(400);
    expect(detailFields(reply.body)).toContain(field);
  });

  it('refuses a body that is not an object', async () => {
    const reply = await t.http.rest('POST', '/auth/login', { raw: '[1,2]' });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('validation_failed');
  });

  it('refuses an unknown verification token and an unknown reset token', async () => {
    const verify = await t.http.post('/auth/verify-email', { token: 'x'.repeat(43) });
    expect(verify.status).toBe(400);
    expect(detailFields(verify.body)).toContain('token');
    const reset = await t.http.post('/auth/reset-password', {
      token: 'x'.repeat(43),
      password: 'a long enough passphrase',
    });
    expect(reset.status).toBe(400);
  });

  it('accepts a learner of 13 without guardianEmail as active', async () => {
    const reply = await t.http.post('/auth/signup', learnerSignup(yearsAgo(14)));
    expect(reply.status).toBe(201);
    expect(reply.body.user.status).toBe('active');
  });
});

describe('bearer tokens', () => {
  let account: Awaited<ReturnType<typeof signUp>>;
  const claims = () => ({
    roles: ['guardian'],
    sub: account.id,
    iss: t.app.deps.config.JWT_ISSUER,
    aud: t.app.deps.config.JWT_AUDIENCE,
  });

  beforeAll(async () => {
    account = await signUp(t);
  });

  const variants: [string, () => string][] = [
    ['malformed', () => 'Bearer not.a.jwt'],
    ['not a bearer scheme', () => `Basic ${Buffer.from('a:b').toString('base64')}`],
    [
      'expired',
      () =>
        `Bearer ${jwt.sign({ ...claims(), exp: Math.floor(Date.now() / 1000) - 60 }, t.app.deps.config.JWT_SECRET)}`,
    ],
    ['wrongly signed', () => `Bearer ${jwt.sign(claims(), 'another-secret-that-is-long-enough-for-hs256')}`],
    ['alg none', () => `Bearer ${jwt.sign(claims(), null, { algorithm: 'none' })}`],
    [
      'for another audience',
      () => `Bearer ${jwt.sign({ ...claims(), aud: 'someone-else' }, t.app.deps.config.JWT_SECRET)}`,
    ],
  ];

  it('answers 401 without a token, in REST and GraphQL', async () => {
    const rest = await t.http.get('/auth/me');
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ error: 'unauthenticated', message: expect.any(String) });
    const gql = await t.http.gql('{ me { id } }');
    expect(gql.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it.each(variants)('refuses a %s token with 401 in REST and GraphQL', async (_name, header) => {
    const rest = await t.http.get('/auth/me', { headers: { authorization: header() } });
    expect(rest.status).toBe(401);
    expect(rest.body.error).toBe('unauthenticated');
    const gql = await t.http.rest('POST', '/graphql', {
      headers: { authorization: header() },
      body: { query: '{ me { id } }' },
    });
    expect(gql.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(gql.body.data?.me ?? null).toBeNull();
  });

  it('accepts the token it issued', async () => {
    const reply = await t.http.get('/auth/me', { token: account.accessToken });
    expect(reply.status).toBe(200);
    expect(reply.body.user.id).toBe(account.id);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import type { Reply } from '../support/http';
import { adultSignup, PASSWORD, type SignedIn, signUp } from '../support/users';

/** The HTTP conventions clients rely on (DESIGN.md 4.2): 401 challenges, 405 with Allow, 415, compression. */

let t: TestApp;
let account: SignedIn;

beforeAll(async () => {
  t = await startTestApp();
  account = await signUp(t, adultSignup());
});
afterAll(async () => {
  await t?.close();
});

function expectUnauthenticated(reply: Reply, challenge: string) {
  expect(reply.status).toBe(401);
  expect(reply.body).toEqual({ error: 'unauthenticated', message: expect.any(String) });
  expect(reply.headers.get('www-authenticate')).toBe(challenge);
}

describe('401 answers', () => {
  it('carry WWW-Authenticate: Bearer when no token was sent', async () => {
    expectUnauthenticated(await t.http.get('/auth/me'), 'Bearer');
    expectUnauthenticated(await t.http.get('/gdpr/requests/00000000-0000-4000-8000-000000000000/download'), 'Bearer');
  });

  it('say error="invalid_token" when the token sent was refused: not one, malformed, or of an ended session', async () => {
    expectUnauthenticated(await t.http.get('/auth/me', { token: 'not-a-token' }), 'Bearer error="invalid_token"');
    expectUnauthenticated(await t.http.get('/auth/me', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }), 'Bearer error="invalid_token"');
    const ended = await signUp(t, adultSignup());
    expect((await t.http.post('/auth/logout', { refreshToken: ended.refreshToken })).status).toBe(204);
    expectUnauthenticated(await t.http.get('/auth/me', { token: ended.accessToken }), 'Bearer error="invalid_token"');
    expectUnauthenticated(await t.http.get('/gdpr/requests/00000000-0000-4000-8000-000000000000/download', { token: ended.accessToken }), 'Bearer error="invalid_token"');
  });

  it('name no token error when what was refused is a password or a refresh token', async () => {
    expectUnauthenticated(await t.http.post('/auth/login', { email: account.email, password: `${PASSWORD} but wrong` }), 'Bearer');
    expectUnauthenticated(await t.http.post('/auth/refresh', { refreshToken: 'not-a-refresh-token' }), 'Bearer');
  });

  it('leave GraphQL over HTTP as it was: 200 with UNAUTHENTICATED in its errors', async () => {
    const reply = await t.http.gql('{ me { id } }', {}, 'not-a-token');
    expect(reply.status).toBe(200);
    expect(reply.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

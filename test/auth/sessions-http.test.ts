import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseDue } from '../../src/gdpr';
import { ACCESS_CHANGED } from '../../src/kernel/access';
import { homeOf } from '../support/regions';
import { startTestApp, type TestApp } from '../support/app';
import { Client } from '../support/http';
import { withMailAndApp } from '../support/setup';
import { tokenFrom } from '../support/smtp';
import { fewestStatements } from '../support/sql';
import { adultSignup, PASSWORD, type SignedIn, signInAdmin, signUp } from '../support/users';

// Over HTTP an access token stands no longer than its session.
// What ends the session happens on instance A; the old token is refused on instance B within one
// second, on every way in: a route served before express, the express pipeline, GraphQL, /ai/chat.
const ctx = withMailAndApp();
let a: TestApp;
let b: TestApp;
let admin: SignedIn;
/** B's express pipeline alone: what answers a request no route served before express names. */
let bExpress: Client;
let expressServer: Server;

beforeAll(async () => {
  a = ctx.t;
  b = await startTestApp({ SMTP_URL: ctx.smtp.url }, a.databaseUrl);
  admin = await signInAdmin(a);
  expressServer = createServer(b.app.express);
  await new Promise<void>((resolve) => expressServer.listen(0, '127.0.0.1', resolve));
  bExpress = new Client(`http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`);
});
afterAll(async () => {
  expressServer?.close();
  await b?.close();
});

/** What B answers the token on each way in: the REST status and error, GraphQL's code, /ai/chat's status. */
async function answersOnB(token: string) {
  const [direct, viaExpress, gql, chat] = await Promise.all([
    b.http.get('/auth/me', { token }),
    bExpress.get('/auth/me', { token }),
    b.http.gql('{ me { id } }', undefined, token),
    b.http.post('/ai/chat', { message: 'hi' }, { token }),
  ]);
  return {
    direct: [direct.status, direct.body?.error],
    viaExpress: [viaExpress.status, viaExpress.body?.error],
    graphql: gql.body.errors?.[0]?.extensions.code ?? 'OK',
    chat: chat.status,
  };
}

/** Polls B until every way in refuses the token as `expected`; fails when that takes a second or more. */
async function refusedOnBWithinOneSecond(token: string, status: 401 | 403) {
  const error = status === 401 ? 'unauthenticated' : 'account_suspended';
  const expected = { direct: [status, error], viaExpress: [status, error], graphql: error.toUpperCase(), chat: status };
  const started = Date.now();
  let seen = await answersOnB(token);
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() - started < 1000) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    seen = await answersOnB(token);
  }
  expect(seen).toEqual(expected);
  expect(Date.now() - started).toBeLessThan(1000);
}

async function stands(token: string) {
  const seen = await answersOnB(token);
  expect(seen.direct[0]).toBe(200);
  expect(seen.viaExpress[0]).toBe(200);
  expect(seen.graphql).toBe('OK');
  expect(seen.chat).not.toBe(401);
}

async function login(email: string) {
  const reply = await a.http.post('/auth/login', { email, password: PASSWORD });
  expect(reply.status).toBe(200);
  return reply.body as { accessToken: string; refreshToken: string };
}

describe('an access token ends with its session, over HTTP, on every instance', () => {
  it('every token the service signs names its session (sid): sign-up, log-in and refresh', async () => {
    const user = await signUp(a, adultSignup());
    const again = await login(user.email);
    const refreshed = await a.http.post('/auth/refresh', { refreshToken: again.refreshToken });
    const sids = [user.accessToken, again.accessToken, refreshed.body.accessToken].map(
      (token) => (jwt.decode(token) as { sid?: string }).sid,
    );
    expect(sids.every((sid) => typeof sid === 'string' && sid.length === 36)).toBe(true);
    // A refresh keeps the session; a new log-in is a session of its own.
    expect(sids[2]).toBe(sids[1]);
    expect(sids[1]).not.toBe(sids[0]);
  });

  it('logout: the logged-out session’s token is refused, another session of the account stands', async () => {
    const user = await signUp(a, adultSignup());
    const other = await login(user.email);
    await stands(user.accessToken);
    expect((await a.http.post('/auth/logout', { refreshToken: user.refreshToken })).status).toBe(204);
    await refusedOnBWithinOneSecond(user.accessToken, 401);
    await stands(other.accessToken);
  });

  it('a password reset refuses the tokens of every session', async () => {
    const user = await signUp(a, adultSignup());
    const other = await login(user.email);
    await stands(user.accessToken);
    expect((await a.http.post('/auth/forgot-password', { email: user.email })).status).toBe(202);
    const mail = await ctx.smtp.waitFor(user.email, /reset/i);
    expect(
      (await a.http.post('/auth/reset-password', { token: tokenFrom(mail), password: 'a brand new passphrase' }))
        .status,
    ).toBe(204);
    await refusedOnBWithinOneSecond(user.accessToken, 401);
    await refusedOnBWithinOneSecond(other.accessToken, 401);
    // The new password opens a session whose token stands.
    const fresh = await a.http.post('/auth/login', { email: user.email, password: 'a brand new passphrase' });
    await stands(fresh.body.accessToken);
  });

  it('a refresh token used twice refuses the tokens of its session family', async () => {
    const user = await signUp(a, adultSignup());
    const refreshed = await a.http.post('/auth/refresh', { refreshToken: user.refreshToken });
    expect(refreshed.status).toBe(200);
    await stands(refreshed.body.accessToken);
    expect((await a.http.post('/auth/refresh', { refreshToken: user.refreshToken })).status).toBe(401);
    await refusedOnBWithinOneSecond(user.accessToken, 401);
    await refusedOnBWithinOneSecond(refreshed.body.accessToken, 401);
  });

  it('a suspension refuses the account’s tokens with 403 account_suspended', async () => {
    const user = await signUp(a, adultSignup());
    await stands(user.accessToken);
    expect(
      (await a.http.post(`/admin/users/${user.id}/suspend`, { reason: 'abuse' }, { token: admin.accessToken })).status,
    ).toBe(200);
    await refusedOnBWithinOneSecond(user.accessToken, 403);
  });

  it('a deletion request, then the erasure, refuse the tokens of the sessions they end', async () => {
    const user = await signUp(a, adultSignup());
    expect((await a.http.post('/gdpr/delete', { password: PASSWORD }, { token: user.accessToken })).status).toBe(202);
    await refusedOnBWithinOneSecond(user.accessToken, 401);
    // Signing in again while the erasure is pending is allowed (reading itself); the erasure ends that session too.
    const pending = await login(user.email);
    expect((await b.http.get('/auth/me', { token: pending.accessToken })).status).toBe(200);
    expect(await eraseDue(await homeOf(a, user.id), new Date(Date.now() + 8 * 86_400_000))).toBeGreaterThanOrEqual(1);
    await refusedOnBWithinOneSecond(pending.accessToken, 401);
  });

  it('an instance started after the logout refuses the token too (read at start-up)', async () => {
    const user = await signUp(a, adultSignup());
    expect((await a.http.post('/auth/logout', { refreshToken: user.refreshToken })).status).toBe(204);
    const c = await startTestApp({}, a.databaseUrl);
    try {
      const reply = await c.http.get('/auth/me', { token: user.accessToken });
      expect([reply.status, reply.body.error]).toEqual([401, 'unauthenticated']);
    } finally {
      await c.close();
    }
  });

  it('the check costs no statement: a live token reads its account once (then it is in memory: account-cache.ts), an ended one nothing', async () => {
    const user = await signUp(a, adultSignup());
    const first = await fewestStatements(b, async () => {
      b.app.deps.pubSub.local(ACCESS_CHANGED, user.id);
      return b.http.get('/auth/me', { token: user.accessToken });
    });
    expect(first.result.status).toBe(200);
    expect(first.count).toBe(1);
    const live = await fewestStatements(b, () => b.http.get('/auth/me', { token: user.accessToken }));
    expect(live.result.status).toBe(200);
    expect(live.count).toBe(0);
    expect((await a.http.post('/auth/logout', { refreshToken: user.refreshToken })).status).toBe(204);
    await refusedOnBWithinOneSecond(user.accessToken, 401);
    const ended = await fewestStatements(b, () => b.http.get('/auth/me', { token: user.accessToken }));
    expect(ended.result.status).toBe(401);
    expect(ended.count).toBe(0);
  });
});

import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { homeOf } from '../support/regions';
import { startTestApp, type TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import { tokenFrom } from '../support/smtp';
import { adultSignup, PASSWORD, type SignedIn, signInAdmin, signUp } from '../support/users';
import { closeCodeOf, connect, operate, subscribe } from '../support/ws';

// A socket keeps no more rights than its token has now. Sockets live on instance B, what ends the session happens on instance A.
const SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
const ACCOUNT_CHANGED = 'subscription { accountChanged { id status } }';
const ctx = withMailAndApp();
let a: TestApp;
let b: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  a = ctx.t;
  b = await startTestApp({ SMTP_URL: ctx.smtp.url }, a.databaseUrl);
  admin = await signInAdmin(a);
});
afterAll(async () => {
  await b?.close();
});

/** A socket on `app` with a live subscription, and the code it is closed with. */
async function liveSocket(app: TestApp, token: string) {
  // Not lazy: the socket stays open when a subscription ends, so only the server closes it.
  const client = connect(app.url, token, false);
  const closed = closeCodeOf(client);
  const live = subscribe(client, ACCOUNT_CHANGED);
  await live.ready;
  return { client, closed, live };
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms)),
  ]);
}

async function login(email: string, password = PASSWORD) {
  const reply = await a.http.post('/auth/login', { email, password });
  expect(reply.status).toBe(200);
  return reply.body as { accessToken: string; refreshToken: string };
}

describe('a WebSocket holds no more than its token', () => {
  it('closes with 4401 when its token expires, and answers operations until then', async () => {
    const user = await signUp(a, adultSignup());
    // The same token, session and claims, expiring in two seconds.
    const claims = jwt.decode(user.accessToken) as Record<string, unknown>;
    const exp = Math.floor(Date.now() / 1000) + 2;
    const shortLived = jwt.sign({ ...claims, exp }, SECRET, { algorithm: 'HS256' });
    const { client, closed } = await liveSocket(b, shortLived);
    expect((await operate(client, '{ me { id } }')).data).toEqual({ me: { id: user.id } });
    expect(await within(closed, 5000, 'the close at expiry')).toBe(4401);
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000 - 50);
    await client.dispose();
  });

  it('logout of one session closes that session’s sockets on another instance, and only those', async () => {
    const user = await signUp(a, adultSignup());
    const other = await login(user.email);
    const first = await liveSocket(b, user.accessToken);
    const second = await liveSocket(b, other.accessToken);
    expect((await a.http.post('/auth/logout', { refreshToken: user.refreshToken })).status).toBe(204);
    expect(await within(first.closed, 3000, 'the close after logout')).toBe(4401);
    expect((await operate(second.client, '{ me { id } }')).data).toEqual({ me: { id: user.id } });
    await Promise.all([first.client.dispose(), second.live.close()]);
  });

  it('a password reset closes every socket of the account at once, on both instances', async () => {
    const user = await signUp(a, adultSignup());
    const other = await login(user.email);
    const sockets = [await liveSocket(b, user.accessToken), await liveSocket(a, other.accessToken)];
    expect((await a.http.post('/auth/forgot-password', { email: user.email })).status).toBe(202);
    const mail = await ctx.smtp.waitFor(user.email, /reset/i);
    expect(
      (await a.http.post('/auth/reset-password', { token: tokenFrom(mail), password: 'a brand new passphrase' }))
        .status,
    ).toBe(204);
    expect(await within(Promise.all(sockets.map((s) => s.closed)), 3000, 'the closes after the reset')).toEqual([
      4401, 4401,
    ]);
    await Promise.all(sockets.map(async (s) => s.client.dispose()));
  });

  it('suspension ends a live subscription with 4403 at once, on another instance', async () => {
    const user = await signUp(a, adultSignup());
    const { client, closed, live } = await liveSocket(b, user.accessToken);
    const suspended = await a.http.post(
      `/admin/users/${user.id}/suspend`,
      { reason: 'abuse' },
      { token: admin.accessToken },
    );
    expect(suspended.status).toBe(200);
    expect(await within(closed, 3000, 'the close after suspension')).toBe(4403);
    // No event of the account reached the suspended subscriber, and a new socket is closed as it connects.
    expect(live.events.filter((e) => e.data)).toEqual([]);
    const again = connect(b.url, user.accessToken);
    const refused = closeCodeOf(again);
    expect((await operate(again, '{ me { id } }')).errors?.[0].extensions?.closeCode).toBe(4403);
    expect(await refused).toBe(4403);
    await Promise.all([client.dispose(), again.dispose()]);
  });

  it('a deletion request closes the account’s sockets', async () => {
    const user = await signUp(a, adultSignup());
    const before = await liveSocket(b, user.accessToken);
    expect((await a.http.post('/gdpr/delete', { password: PASSWORD }, { token: user.accessToken })).status).toBe(202);
    expect(await within(before.closed, 3000, 'the close after the deletion request')).toBe(4401);
    await before.client.dispose();
  });

  it('checks the token on every operation, even when no event announced the change', async () => {
    const user = await signUp(a, adultSignup());
    const { client, closed } = await liveSocket(b, user.accessToken);
    expect((await operate(client, '{ me { id } }')).data).toEqual({ me: { id: user.id } });
    // Sessions end behind the service's back: nothing is published.
    await (
      await homeOf(b, user.id)
    ).orm.em
      .getConnection()
      .execute('update refresh_tokens set revoked_at = now() where user_id = ?', [user.id]);
    const refused = await operate(client, 'mutation { markAllNotificationsRead { updated } }');
    expect(refused.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await within(closed, 3000, 'the close after the refused operation')).toBe(4401);
    await client.dispose();

    // A new socket with the token of the ended session is closed at its first operation.
    const late = connect(b.url, user.accessToken);
    const lateClosed = closeCodeOf(late);
    expect((await operate(late, '{ me { id } }')).errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    expect(await lateClosed).toBe(4401);
    await late.dispose();
  });

  it('a refresh token used twice ends its session family, and the sockets of that session', async () => {
    const user = await signUp(a, adultSignup());
    const { client, closed } = await liveSocket(b, user.accessToken);
    expect((await a.http.post('/auth/refresh', { refreshToken: user.refreshToken })).status).toBe(200);
    // Refreshing keeps the session: the socket stays.
    expect((await operate(client, '{ me { id } }')).data).toEqual({ me: { id: user.id } });
    expect((await a.http.post('/auth/refresh', { refreshToken: user.refreshToken })).status).toBe(401);
    expect(await within(closed, 3000, 'the close after reuse')).toBe(4401);
    await client.dispose();
  });

  it('answers a variable that does not fit with VALIDATION_FAILED and details, not an internal error', async () => {
    const user = await signUp(a, adultSignup());
    const client = connect(b.url, user.accessToken, false);
    const reply = await operate(
      client,
      'query($filter: NotificationFilter) { notifications(filter: $filter) { edges { node { id } } } }',
      { filter: 'unred' },
    );
    expect(reply.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'filter' }] });
    const twoOperations = await operate(client, 'query A { me { id } } query B { me { email } }');
    expect(twoOperations.errors?.[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'operationName' }],
    });
    await client.dispose();
  });

  it('a suspension written without an event is caught by the next operation (4403)', async () => {
    const user = await signUp(a, adultSignup());
    const { client, closed } = await liveSocket(b, user.accessToken);
    await (
      await homeOf(b, user.id)
    ).orm.em
      .getConnection()
      .execute(`update users set status = 'suspended' where id = ?`, [user.id]);
    const refused = await operate(client, '{ me { id } }');
    expect(refused.errors?.[0].extensions?.code).toBe('ACCOUNT_SUSPENDED');
    expect(await within(closed, 3000, 'the close after the refused operation')).toBe(4403);
    await client.dispose();
  });
});

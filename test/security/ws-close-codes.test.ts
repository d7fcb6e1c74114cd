import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, PASSWORD, signInAdmin, signUp } from '../support/users';
import { closeCodeOf, connect, operate } from '../support/ws';

// What a client is told when the service closes its socket as it connects: 4401 means refresh the
// token (or sign in) and connect again, 4403 means this account may not connect, 4408 means
// connection_init never came. (4429, too many sockets, is in test/subscriptions/limits.test.ts.)
const SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Connects with `token` (none when undefined) and subscribes: how the socket was closed, and whether anything was answered. */
async function refusedConnection(
  token: string | undefined,
): Promise<{ code: number; reason: string; answered: boolean }> {
  const client = connect(t.url, token, false);
  let answered = false;
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    client.on('closed', (event) => resolve(event as { code: number; reason: string })),
  );
  client.subscribe(
    { query: '{ __typename }' },
    { next: () => (answered = true), error: () => undefined, complete: () => undefined },
  );
  const { code, reason } = await closed;
  await client.dispose();
  return { code, reason, answered };
}

describe('WebSocket close codes at connection', () => {
  it('closes with 4401 when the token is missing, malformed, not signed by the service or expired', async () => {
    const user = await signUp(t, adultSignup());
    const claims = jwt.decode(user.accessToken) as Record<string, unknown>;
    const tokens: [string, string | undefined, RegExp][] = [
      ['no token', undefined, /access token is missing, invalid or expired/],
      ['not a token', 'not-a-token', /access token is missing, invalid or expired/],
      [
        'another signer',
        jwt.sign(claims, 'another-secret-that-is-long-enough-for-hs256', { algorithm: 'HS256' }),
        /access token is missing, invalid or expired/,
      ],
      [
        'expired',
        jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 5 }, SECRET, { algorithm: 'HS256' }),
        /access token has expired/,
      ],
    ];
    for (const [what, token, reason] of tokens) {
      const closed = await refusedConnection(token);
      expect(closed.code, what).toBe(4401);
      expect(closed.reason, what).toMatch(reason);
      expect(closed.answered, what).toBe(false);
    }
  });

  it('closes with 4401 at once when the token’s session has ended (logout), where the same token answered before', async () => {
    const user = await signUp(t, adultSignup());
    const live = connect(t.url, user.accessToken, false);
    await new Promise((resolve) => live.on('connected', resolve));
    await live.dispose();
    expect((await t.http.post('/auth/logout', { refreshToken: user.refreshToken })).status).toBe(204);
    const closed = await refusedConnection(user.accessToken);
    expect(closed).toEqual({ code: 4401, reason: expect.stringMatching(/session .* has ended/), answered: false });
  });

  it('closes with 4403 when the account is suspended: the client is not to refresh and retry', async () => {
    const [user, admin] = await Promise.all([signUp(t, adultSignup()), signInAdmin(t)]);
    expect(
      (await t.http.post(`/admin/users/${user.id}/suspend`, { reason: 'abuse' }, { token: admin.accessToken })).status,
    ).toBe(200);
    const closed = await refusedConnection(user.accessToken);
    expect(closed).toEqual({ code: 4403, reason: expect.stringMatching(/suspended/), answered: false });
  });

  it('closes with 4403 when the account’s erasure is pending: it may sign in to read itself and cancel, over HTTP, not hold a socket', async () => {
    const user = await signUp(t, adultSignup());
    expect((await t.http.post('/gdpr/delete', { password: PASSWORD }, { token: user.accessToken })).status).toBe(202);
    const pending = await t.http.post('/auth/login', { email: user.email, password: PASSWORD });
    expect(pending.status).toBe(200);
    expect((await t.http.get('/auth/me', { token: pending.body.accessToken })).status).toBe(200);
    const client = connect(t.url, pending.body.accessToken, false);
    const closed = closeCodeOf(client);
    expect((await operate(client, '{ me { id } }')).errors?.[0].extensions?.code).toBe('ACCOUNT_DELETION_PENDING');
    expect(await closed).toBe(4403);
    await client.dispose();
  });

  it(
    'closes with 4408 a socket that sends no connection_init within 10 seconds, and not before',
    { timeout: 20_000 },
    async () => {
      const socket = new WebSocket(`${t.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const opened = Date.now();
      const code = await new Promise<number>((resolve) => socket.once('close', resolve));
      const waited = Date.now() - opened;
      expect(code).toBe(4408);
      expect(waited).toBeGreaterThanOrEqual(9_900);
      expect(waited).toBeLessThan(12_000);
    },
  );
});

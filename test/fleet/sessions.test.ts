import Redis from 'ioredis';
import { describe, expect, it } from 'vitest';
import { withFleet } from '../support/fleet';
import type { Client } from '../support/http';
import { asOwner } from '../support/sql';
import { adultSignup, bornYearsAgo, learnerSignup, signUp, uniqueEmail } from '../support/users';
import { closeCodeOf, connect, subscribe } from '../support/ws';

// Three instances of the built service on one database and one Redis, nginx in front: what one
// instance does, the others know, and what a client does through the proxy counts once.
const t = withFleet({ redis: true, env: { RATE_LIMIT_LOGIN_FAILURES: '5' } });

const ADDED = 'subscription { notificationAdded { type data } }';

/** Polls until `refused` holds for the client's answer; the milliseconds it took from `since`. */
async function msUntil(check: () => Promise<boolean>, since: number, timeoutMs = 5000): Promise<number> {
  while (!(await check())) {
    if (Date.now() - since > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - since;
}

/** Whether an instance refuses the token over REST and GraphQL, as an ended session's. */
async function refuses(client: Client, token: string): Promise<boolean> {
  const [rest, graph] = await Promise.all([
    client.get('/auth/me', { token }),
    client.gql('{ me { id } }', undefined, token),
  ]);
  return (
    rest.status === 401 &&
    rest.body.error === 'unauthenticated' &&
    graph.body.errors?.[0]?.extensions.code === 'UNAUTHENTICATED'
  );
}

describe('a fleet of three instances behind nginx', () => {
  it('refuses a session ended on one instance on every other within a second, over HTTP and WebSocket (4401)', async () => {
    const user = await signUp({ http: t.proxy }, adultSignup());
    for (const client of [...t.direct, t.proxy])
      expect((await client.get('/auth/me', { token: user.accessToken })).status).toBe(200);
    // A socket with a live subscription on each instance, and one wherever nginx sends it.
    const sockets = [...t.fleet.instances.map((instance) => instance.url), t.fleet.proxyUrl].map((url) => {
      const client = connect(url, user.accessToken, false);
      const closed = closeCodeOf(client).then((code) => ({ code, at: Date.now() }));
      return { client, closed, live: subscribe(client, ADDED) };
    });
    await Promise.all(sockets.map((socket) => socket.live.ready));

    expect((await t.direct[0].post('/auth/logout', { refreshToken: user.refreshToken })).status).toBe(204);
    const ended = Date.now();
    const http = await Promise.all(
      [...t.direct, t.proxy].map((client) => msUntil(() => refuses(client, user.accessToken), ended)),
    );
    const closes = await Promise.all(sockets.map((socket) => socket.closed));
    const ws = closes.map(({ at }) => Math.max(0, at - ended));
    console.log(
      `session ended on api-1: refused over HTTP after ${http.join(', ')} ms (api-1, api-2, api-3, nginx); sockets closed after ${ws.join(', ')} ms`,
    );
    expect(closes.map(({ code }) => code)).toEqual([4401, 4401, 4401, 4401]);
    expect(Math.max(...http, ...ws)).toBeLessThan(1000);
    await Promise.all(sockets.map(async (socket) => socket.client.dispose()));
  });

  it('delivers a notification raised through one instance to subscriptions held on the others', async () => {
    const guardian = await signUp({ http: t.proxy }, adultSignup({ country: 'US' }));
    const learner = await signUp(
      { http: t.proxy },
      learnerSignup(bornYearsAgo(15), { email: uniqueEmail('learner'), country: 'US' }),
    );
    // Only verified accounts link (the mails' links are followed in test/guardian).
    await asOwner(t, 'update users set email_verified_at = now() where id = any($1::uuid[])', [
      [guardian.id, learner.id],
    ]);
    const link = await t.proxy.post(
      '/guardian/declare',
      { learnerEmail: learner.email },
      { token: guardian.accessToken },
    );
    expect(link.status).toBe(201);
    expect(
      (await t.proxy.post(`/guardian/links/${link.body.id}/approve`, undefined, { token: learner.accessToken })).status,
    ).toBe(200);

    const held = [t.fleet.instances[1].url, t.fleet.instances[2].url, t.fleet.proxyUrl].map((url) =>
      subscribe(connect(url, guardian.accessToken), ADDED),
    );
    await Promise.all(held.map((subscription) => subscription.ready));
    // The learner asks through api-1 for what needs the guardian's consent: the guardian is notified.
    const asked = await t.direct[0].post(
      '/consent/grant',
      { consentTypeId: 'ai_conversation' },
      { token: learner.accessToken },
    );
    expect(asked.status).toBe(403);
    expect(asked.body.error).toBe('guardian_consent_required');
    const raised = Date.now();
    const took = await Promise.all(
      held.map((subscription) => msUntil(async () => subscription.events.length > 0, raised)),
    );
    console.log(
      `notification raised through api-1 reached api-2, api-3 and nginx's subscriptions after ${took.join(', ')} ms`,
    );
    for (const subscription of held) {
      expect(subscription.events).toEqual([
        {
          data: {
            notificationAdded: { type: 'CONSENT', data: { learnerId: learner.id, consentTypeId: 'ai_conversation' } },
          },
        },
      ]);
    }
    await Promise.all(held.map((subscription) => subscription.close()));
  });

  it('counts a limit once across the instances, in Redis', async () => {
    const email = uniqueEmail('guess');
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++)
      statuses.push((await t.direct[i % 3].post('/auth/login', { email, password: 'not the password at all' })).status);
    // RATE_LIMIT_LOGIN_FAILURES=5 for the fleet, not 5 on each instance.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429]);
    const redis = new Redis(t.fleet.redisUrl!);
    try {
      expect((await redis.keys('*lfe*')).length).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});

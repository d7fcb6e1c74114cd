import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_SOCKETS_PER_ACCOUNT } from '../../src/server/ws';
import type { TestApp } from '../support/app';
import { withTwoInstances } from '../support/setup';
import { notify } from '../support/notify';
import { homeOf } from '../support/regions';
import { fewestStatements } from '../support/sql';
import { adultSignup, PASSWORD, type SignedIn, signInAdmin, signUp } from '../support/users';
import { closeCodeOf, connect, eventually, subscribe, type Subscription } from '../support/ws';

// Delivering an event reads nothing per subscriber (the subscriber's account and
// the subscription's rules are kept per socket, dropped when the event bus says they changed).
// Subscribers live on `first`; what happens to them happens on `second` or on `first` itself.
const ADDED = 'subscription { notificationAdded { id title } }';
let first: TestApp;
let second: TestApp;
let admin: SignedIn;

const apps = withTwoInstances();
beforeAll(async () => {
  ({ first, second } = apps);
  admin = await signInAdmin(second);
});

/** `n` subscriptions of the account on `app`, each on a socket of its own that only the server closes. */
async function subscribers(app: TestApp, token: string, n: number) {
  const all = Array.from({ length: n }, () => {
    const client = connect(app.url, token, false);
    return {
      client,
      closed: closeCodeOf(client),
      live: subscribe<{ notificationAdded: { id: string; title: string } }>(client, ADDED),
    };
  });
  await Promise.all(all.map((s) => s.live.ready));
  return all;
}

/**
 * A socket's answer to a later query can come before its subscription listens, and an event
 * published before then is not replayed: events are sent until every subscriber has had one, and
 * only then are statements counted.
 */
async function everySubscriptionListens(userId: string, sockets: Awaited<ReturnType<typeof subscribers>>) {
  for (let round = 0; round < 40; round += 1) {
    await notify(second, userId, 'system');
    const listening = await eventually(
      () => sockets.every((s) => delivered(s.live).length > 0),
      'a first event',
      500,
    ).then(
      () => true,
      () => false,
    );
    if (listening) return;
  }
  throw new Error(
    `${sockets.filter((s) => delivered(s.live).length === 0).length} of ${sockets.length} subscriptions never received an event`,
  );
}

const delivered = (live: Subscription<{ notificationAdded: { id: string } }>) =>
  live.events.filter((e) => e.data).map((e) => e.data!.notificationAdded.id);

describe('one event to many subscribers', () => {
  // As many subscribers as an account may hold sockets (more sockets of one token are refused).
  it(`takes the same number of SQL statements on the subscribers’ instance for 1 subscriber as for ${MAX_SOCKETS_PER_ACCOUNT}`, async () => {
    const counts: number[] = [];
    for (const n of [1, MAX_SOCKETS_PER_ACCOUNT]) {
      const user = await signUp(first, adultSignup());
      const sockets = await subscribers(first, user.accessToken, n);
      await everySubscriptionListens(user.id, sockets);
      // Each run: one notification made on the other instance, until every subscriber has it.
      const { count } = await fewestStatements(first, async () => {
        const [created] = await notify(second, user.id, 'system');
        await eventually(
          () => sockets.every((s) => delivered(s.live).includes(created!.id)),
          `the event at ${n} subscribers`,
          10_000,
        );
      });
      counts.push(count);
      await Promise.all(sockets.map(async (s) => s.client.dispose()));
    }
    expect(counts[1]).toBe(counts[0]);
    // The notification itself: the account and the rules were read when the subscription opened.
    expect(counts[0]).toBe(1);
  });

  for (const where of ['the same instance', 'another instance'] as const) {
    it(`a suspension on ${where} stops the very next event`, async () => {
      const user = await signUp(first, adultSignup());
      const [socket] = await subscribers(first, user.accessToken, 1);
      await everySubscriptionListens(user.id, [socket]);
      const before = delivered(socket.live);

      const acting = where === 'the same instance' ? first : second;
      expect(
        (await acting.http.post(`/admin/users/${user.id}/suspend`, { reason: 'abuse' }, { token: admin.accessToken }))
          .status,
      ).toBe(200);
      await notify(acting, user.id, 'system');
      expect(await Promise.race([socket.closed, new Promise((resolve) => setTimeout(resolve, 3000, 'open'))])).toBe(
        4403,
      );
      expect(delivered(socket.live)).toEqual(before);
      await socket.client.dispose();
    });

    it(`a logout on ${where} stops the very next event of that session, and only of that session`, async () => {
      const user = await signUp(first, adultSignup());
      const [ended] = await subscribers(first, user.accessToken, 1);
      const other = (await second.http.post('/auth/login', { email: user.email, password: PASSWORD })).body as {
        accessToken: string;
      };
      const [kept] = await subscribers(first, other.accessToken, 1);
      await everySubscriptionListens(user.id, [ended, kept]);
      const before = delivered(ended.live);

      const acting = where === 'the same instance' ? first : second;
      expect((await acting.http.post('/auth/logout', { refreshToken: user.refreshToken })).status).toBe(204);
      const [after] = await notify(acting, user.id, 'system');
      await eventually(() => delivered(kept.live).includes(after!.id), 'the event on the other session');
      expect(await Promise.race([ended.closed, new Promise((resolve) => setTimeout(resolve, 3000, 'open'))])).toBe(
        4401,
      );
      expect(delivered(ended.live)).toEqual(before);
      await Promise.all([ended.client.dispose(), kept.client.dispose()]);
    });
  }

  it('events published together reach another instance all, in order, none folded (one NOTIFY for many)', async () => {
    const seen: unknown[] = [];
    const stop = first.app.deps.pubSub.listen('fanout-test:k', (detail) => void seen.push(detail));
    // 2,000 events of ~100 bytes, twice each (PostgreSQL folds identical payloads of one transaction).
    const sent = Array.from({ length: 2000 }, (_, i) => ({ i: Math.floor(i / 2), pad: 'x'.repeat(80) }));
    for (const detail of sent) second.app.deps.pubSub.publish('fanout-test', 'k', detail);
    await eventually(() => seen.length >= sent.length, 'every event', 10_000);
    stop();
    expect(seen).toEqual(sent);
  });

  it('a suspension written in SQL behind the service’s back stops the next event (the database announces it)', async () => {
    const user = await signUp(first, adultSignup());
    const [socket] = await subscribers(first, user.accessToken, 1);
    await everySubscriptionListens(user.id, [socket]);
    const before = socket.live.events.length;

    await (
      await homeOf(second, user.id)
    ).orm.em
      .getConnection()
      .execute(`update users set status = 'suspended' where id = ?`, [user.id]);
    await notify(second, user.id, 'system');
    await eventually(() => socket.live.events.length === before + 1, 'the refusal of the next event');
    expect(socket.live.events[before].errors?.[0].extensions?.code).toBe('ACCOUNT_SUSPENDED');
    expect(delivered(socket.live)).toHaveLength(before);
    expect(await socket.closed).toBe(4403);
    await socket.client.dispose();
  });
});

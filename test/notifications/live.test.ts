import { beforeAll, describe, expect, it } from 'vitest';
// The test support first: it loads what the service's decorators need before any of its modules.
import { withTwoInstances } from '../support/setup';
import { NOTIFICATION_ADDED } from '../../src/notifications/notifications.service';
import type { TestApp } from '../support/app';
import { notify } from '../support/notify';
import { adultSignup, signUp } from '../support/users';
import { connect, eventually, subscribe } from '../support/ws';

let first: TestApp;
let second: TestApp;

const apps = withTwoInstances();
beforeAll(() => {
  ({ first, second } = apps);
});

const ADDED = 'subscription { notificationAdded { id type title read } }';
const COUNT = 'subscription { unreadCountChanged { count } }';

describe('live notifications', () => {
  it("reach the owner's subscriptions from another instance within a second, and nobody else's", async () => {
    const [guardian, stranger] = [await signUp(first, adultSignup()), await signUp(first, adultSignup())];
    const added = subscribe(connect(first.url, guardian.accessToken), ADDED);
    const counts = subscribe(connect(first.url, guardian.accessToken), COUNT);
    const strangers = subscribe(connect(first.url, stranger.accessToken), ADDED);
    await Promise.all([added.ready, counts.ready, strangers.ready]);

    const started = Date.now();
    const [created] = await notify(second, guardian.id, 'progress');
    await eventually(() => added.events.length === 1 && counts.events.length === 1, 'the events', 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(added.events[0].data).toEqual({
      notificationAdded: { id: created!.id, type: 'PROGRESS', title: 'Title 0', read: false },
    });
    expect(counts.events[0].data).toEqual({ unreadCountChanged: { count: 1 } });

    // Reading it (on the second instance) changes the count the first instance pushes.
    await second.http.post(`/notifications/${created!.id}/read`, undefined, { token: guardian.accessToken });
    await eventually(() => counts.events.length === 2, 'the new count');
    expect(counts.events[1].data).toEqual({ unreadCountChanged: { count: 0 } });

    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(strangers.events).toEqual([]);
    await Promise.all([added.close(), counts.close(), strangers.close()]);
  });

  it('listen before an operation sent after them on the socket runs: what the client does next reaches it', async () => {
    const learner = await signUp(first, adultSignup());
    const [created] = await notify(second, learner.id, 'system');
    // No acknowledgement exists in the protocol: a query sent after the subscription answers only
    // once the subscription listens, and an event handed to the instance the moment it answers is delivered.
    for (let round = 0; round < 15; round += 1) {
      const added = subscribe(connect(first.url, learner.accessToken), ADDED);
      await added.ready;
      first.app.deps.pubSub.local(`${NOTIFICATION_ADDED}:${learner.id}`, {
        userId: learner.id,
        notificationId: created!.id,
      });
      await eventually(() => added.events.length === 1, `the event of round ${round}`, 3000);
      expect(added.events[0].data?.notificationAdded.id).toBe(created!.id);
      await added.close();
    }
  });

  it('need a valid token at connection time', async () => {
    const client = connect(first.url, 'not-a-token');
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: ADDED }, { next: resolve, error: resolve, complete: () => resolve('completed') });
    });
    expect((outcome as { code?: number }).code).toBe(4401);
    await client.dispose();
  });
});

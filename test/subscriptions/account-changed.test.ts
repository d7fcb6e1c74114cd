import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { withTwoInstances } from '../support/setup';
import { adultSignup, type SignedIn, signInAdmin, signUp } from '../support/users';
import { connect, eventually, subscribe } from '../support/ws';

let first: TestApp;
let second: TestApp;
let admin: SignedIn;

const apps = withTwoInstances();
beforeAll(async () => {
  ({ first, second } = apps);
  admin = await signInAdmin(second);
});

const ACCOUNT_CHANGED = 'subscription { accountChanged { id roles } }';

describe('subscriptions', () => {
  it('deliver an event produced on another instance, to its owner only', async () => {
    const [lan, minh] = [await signUp(first, adultSignup()), await signUp(first, adultSignup())];
    const lanEvents = subscribe(connect(first.url, lan.accessToken), ACCOUNT_CHANGED);
    const minhEvents = subscribe(connect(first.url, minh.accessToken), ACCOUNT_CHANGED);
    await Promise.all([lanEvents.ready, minhEvents.ready]);

    // The role is granted through the second instance; the subscribers are on the first.
    const granted = await second.http.post(
      `/admin/users/${lan.id}/roles`,
      { role: 'creator' },
      { token: admin.accessToken },
    );
    expect(granted.status).toBe(200);
    await eventually(() => lanEvents.events.length > 0, 'the event on the first instance', 3000);
    expect(lanEvents.events[0].data).toEqual({ accountChanged: { id: lan.id, roles: ['GUARDIAN', 'CREATOR'] } });

    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(minhEvents.events).toEqual([]);
    await Promise.all([lanEvents.close(), minhEvents.close()]);
  });

  it('refuse a connection without a valid token in connection_init', async () => {
    for (const token of [undefined, 'not-a-token']) {
      const client = connect(first.url, token);
      const outcome = await new Promise<unknown>((resolve) => {
        client.subscribe(
          { query: ACCOUNT_CHANGED },
          { next: resolve, error: resolve, complete: () => resolve('completed') },
        );
      });
      expect((outcome as { code?: number }).code, String(token)).toBe(4401);
      await client.dispose();
    }
  });
});

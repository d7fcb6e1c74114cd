import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../factory/support';
import { contentAdmin } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import { type SignedIn, signInAdmin } from '../support/users';
import { connect, eventually, subscribe } from '../support/ws';

// A role removed on one instance stops a running subscription on another at once.
const ENV = { FACTORY_OFFLINE_DELAY_MS: '250' };
const SUBSCRIPTION = 'subscription($id: ID!) { generationStatusChanged(id: $id) { id status progress } }';
const ctx = withMailAndApp(ENV);
let a: TestApp;
let b: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  a = ctx.t;
  b = await startTestApp(ENV, a.databaseUrl);
  admin = await signInAdmin(a);
});
afterAll(async () => {
  await b?.close();
});

describe('role changes reach open subscriptions', () => {
  it('after content_admin is removed, generationStatusChanged answers FORBIDDEN once and delivers nothing more', async () => {
    const editor = await contentAdmin(a);
    const started = await a.http.post('/factory/generate', request({ lessonCount: 3 }), { token: editor.accessToken });
    expect(started.status).toBe(202);
    const live = subscribe(connect(b.url, editor.accessToken, false), SUBSCRIPTION, { id: started.body.id });
    await live.ready;
    await eventually(() => live.events.some((e) => e.data), 'a first event', 10_000);

    const removed = await a.http.delete(`/admin/users/${editor.id}/roles/content_admin`, { token: admin.accessToken });
    expect(removed.status).toBe(200);
    expect(removed.body.roles).not.toContain('content_admin');
    const deliveredBefore = live.events.filter((e) => e.data).length;

    await eventually(() => live.events.some((e) => e.errors), 'the refusal on the next event', 5000);
    const refusal = live.events.findIndex((e) => e.errors);
    expect(live.events[refusal].errors![0].extensions?.code).toBe('FORBIDDEN');
    expect(live.events[refusal].data ?? null).toBeNull();
    // The generation goes on producing events; none reaches the former content admin.
    const progressSeen = Math.max(
      ...live.events.filter((e) => e.data).map((e) => e.data.generationStatusChanged.progress as number),
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const now = await a.http.get(`/factory/generations/${started.body.id}`, { token: admin.accessToken });
    expect(now.body.progress).toBeGreaterThan(progressSeen);
    expect(live.events.length).toBe(refusal + 1);
    expect(live.events.filter((e) => e.data).length).toBeLessThanOrEqual(deliveredBefore + 1);
    await live.close();
  });

  it('an admin keeps receiving while another subscriber loses the role (control)', async () => {
    const editor = await contentAdmin(a);
    const started = await a.http.post('/factory/generate', request({ lessonCount: 2 }), { token: editor.accessToken });
    const mine = subscribe(connect(b.url, admin.accessToken, false), SUBSCRIPTION, { id: started.body.id });
    await mine.ready;
    expect(
      (await a.http.delete(`/admin/users/${editor.id}/roles/content_admin`, { token: admin.accessToken })).status,
    ).toBe(200);
    await eventually(
      () => mine.events.some((e) => e.data?.generationStatusChanged.status === 'AWAITING_APPROVAL'),
      'the end of the pipeline',
      30_000,
    );
    expect(mine.events.some((e) => e.errors)).toBe(false);
    await mine.close();
  });
});

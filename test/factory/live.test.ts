import { describe, expect, it } from 'vitest';
import { contentAdmin } from '../learning/support';
import { startTestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import { adultSignup, signInAdmin, signUp, uniqueEmail } from '../support/users';
import { connect, eventually, subscribe } from '../support/ws';
import { request } from './support';

// Stages slow enough that a subscription opened under a loaded CI machine still sees most of them.
const ctx = withMailAndApp({ FACTORY_OFFLINE_DELAY_MS: '150' });
const SUBSCRIPTION =
  'subscription($id: ID!) { generationStatusChanged(id: $id) { id status currentStage progress stages { name status } } }';

describe('subscription generationStatusChanged(id)', () => {
  it('pushes every change of one generation to an admin, with progress rising to 100', async () => {
    const admin = await signInAdmin(ctx.t);
    const editor = await contentAdmin(ctx.t);
    const other = await ctx.t.http.post('/factory/generate', request({ topic: 'Someone else' }), {
      token: editor.accessToken,
    });
    const started = await ctx.t.http.post('/factory/generate', request({ lessonCount: 3 }), {
      token: editor.accessToken,
    });
    const live = subscribe(connect(ctx.t.url, admin.accessToken), SUBSCRIPTION, { id: started.body.id });
    await live.ready;
    await eventually(
      () => live.events.some((e) => e.data?.generationStatusChanged.status === 'AWAITING_APPROVAL'),
      'AWAITING_APPROVAL',
      20_000,
    );
    const seen = live.events.map((e) => e.data!.generationStatusChanged);
    expect(seen.every((g) => g.id === started.body.id)).toBe(true);
    expect(other.body.id).not.toBe(started.body.id);
    const progress = seen.map((g) => g.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(new Set(progress).size).toBeGreaterThanOrEqual(5);
    expect(progress.at(-1)).toBe(100);
    // The pipeline starts before the subscription listens (events are not replayed), and an event
    // names the generation, which is read as it stands when the event is handled: a stage passed
    // while the machine is busy shows as the one after it. What is pushed comes in the pipeline's order.
    const stages = [...new Set(seen.map((g) => g.currentStage).filter(Boolean))];
    const order = ['RESEARCH', 'OUTLINE', 'CONTENT', 'QUIZ', 'SAFETY'];
    const positions = stages.map((stage) => order.indexOf(stage!));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(stages.length).toBeGreaterThanOrEqual(3);
    await live.close();
  });

  it('is refused at subscribe time to a creator, and without a token at connection', async () => {
    const editor = await contentAdmin(ctx.t);
    const creator = await signUp(ctx.t, adultSignup({ role: 'creator', email: uniqueEmail('creator') }));
    const started = await ctx.t.http.post('/factory/generate', request({ lessonCount: 2 }), {
      token: editor.accessToken,
    });
    const refused = subscribe(connect(ctx.t.url, creator.accessToken), SUBSCRIPTION, { id: started.body.id });
    await refused.ready;
    await eventually(() => refused.events.length > 0, 'a refusal');
    expect(refused.events[0].errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(refused.events.some((e) => e.data?.generationStatusChanged)).toBe(false);
    await refused.close();

    const anonymous = subscribe(connect(ctx.t.url), SUBSCRIPTION, { id: started.body.id });
    // No token: the socket is closed with 4401 (sign in, then connect again), before any event.
    await expect(anonymous.ready).rejects.toMatchObject({ code: 4401 });
    expect(anonymous.events).toEqual([]);
  });

  it('reaches a subscriber on another instance of the service', async () => {
    const other = await startTestApp({}, ctx.t.databaseUrl);
    try {
      const admin = await signInAdmin(ctx.t);
      const started = await ctx.t.http.post('/factory/generate', request({ lessonCount: 2 }), {
        token: admin.accessToken,
      });
      const live = subscribe(connect(other.url, admin.accessToken), SUBSCRIPTION, { id: started.body.id });
      await live.ready;
      await eventually(
        () => live.events.some((e) => e.data?.generationStatusChanged.status === 'AWAITING_APPROVAL'),
        'awaiting_approval on the other instance',
        20_000,
      );
      await live.close();
    } finally {
      await other.close();
    }
  });
});

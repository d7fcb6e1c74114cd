import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { startModelServer } from '../support/model-server';
import type { SignedIn } from '../support/users';
import { generated, STAGES } from './support';

// A real model can take longer to answer than a job's lock lives. The job must keep its lock
// through the call, or the next poll takes the stage again and the model is asked twice.
let models: Awaited<ReturnType<typeof startModelServer>>;
let t: TestApp;
let editor: SignedIn;

beforeAll(async () => {
  models = await startModelServer();
  t = await startTestApp({
    FACTORY_PROVIDERS: 'research=open_weight',
    OPEN_WEIGHT_LLM_URL: models.url,
    JOBS_LOCK_LIFETIME_MS: '900',
    JOBS_PROCESS_EVERY_MS: '100',
  });
  editor = await contentAdmin(t);
});
afterAll(async () => {
  await t?.close();
  await models?.close();
});

describe('a stage whose model call outlasts the job lock', () => {
  it('runs once, and the model is asked once', async () => {
    models.state.delayMs = 3000;
    models.state.chat = () => ({
      content: JSON.stringify({ summary: { en: 'Loops', vi: 'Vòng lặp' }, concepts: [{ name: { en: 'loops', vi: 'vòng lặp' }, explanation: { en: 'repeat', vi: 'lặp lại' } }] }),
    });
    const done = await generated(t.http, editor.accessToken, { lessonCount: 1 });
    expect(done.stages.map((s: { name: string; attempts: number }) => [s.name, s.attempts])).toEqual(STAGES.map((name) => [name, 1]));
    expect(models.chats).toHaveLength(1);
  }, 30_000);
});

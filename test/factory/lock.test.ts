import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdingLock } from '../../src/jobs/lock';
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
      content: JSON.stringify({
        summary: { en: 'Loops', vi: 'Vòng lặp' },
        concepts: [{ name: { en: 'loops', vi: 'vòng lặp' }, explanation: { en: 'repeat', vi: 'lặp lại' } }],
      }),
    });
    const done = await generated(t.http, editor.accessToken, { lessonCount: 1 });
    expect(done.stages.map((s: { name: string; attempts: number }) => [s.name, s.attempts])).toEqual(
      STAGES.map((name) => [name, 1]),
    );
    expect(models.chats).toHaveLength(1);
  }, 30_000);
});

describe('a job handed twice to the process already running it', () => {
  it('does its work once, and renews the lock past a failed renewal', async () => {
    let touches = 0;
    // The job as Agenda hands it over: its id, and a renewal whose first call fails as on a restarting database.
    const job = {
      attrs: { _id: 'job-1' },
      touch: () => (++touches === 1 ? Promise.reject(new Error('connection lost')) : Promise.resolve()),
    } as never;
    let runs = 0;
    const work = async () => {
      runs += 1;
      await new Promise((resolve) => setTimeout(resolve, 1000));
      return 'done';
    };
    const [first, second] = await Promise.all([holdingLock(job, 600, work), holdingLock(job, 600, work)]);
    expect([first, second, runs]).toEqual(['done', undefined, 1]);
    expect(touches).toBeGreaterThanOrEqual(3);
    // Once finished, the job may run here again (a retry after a failure).
    expect(await holdingLock(job, 600, work)).toBe('done');
  });
});

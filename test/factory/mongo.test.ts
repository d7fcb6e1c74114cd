import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { generated } from './support';

// The deployment as designed keeps Agenda's jobs in MongoDB. No MongoDB server can run on the CI
// machines, so this runs only where MONGODB_URL names one.
const mongoUrl = process.env.MONGODB_URL;

describe.skipIf(!mongoUrl)('the course factory with Agenda on MongoDB (MONGODB_URL)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ MONGODB_URL: mongoUrl!, JOBS_PROCESS_EVERY_MS: '200' });
  });
  afterAll(() => t?.close());

  it('runs the five stages to awaiting_approval and publishes on approval', async () => {
    const editor = await contentAdmin(t);
    const done = await generated(t.http, editor.accessToken, { topic: 'Mongo-scheduled course' });
    expect(done.stages.every((s: { status: string }) => s.status === 'done')).toBe(true);
    const approved = await t.http.post(`/factory/generations/${done.id}/approve`, undefined, {
      token: editor.accessToken,
    });
    expect(approved.body.courseId).toEqual(expect.any(String));
  });
});

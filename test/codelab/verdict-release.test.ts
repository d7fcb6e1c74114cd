import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contentAdmin, exerciseBy, publishedCourse } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import type { Reply } from '../support/http';
import { learnerOfAge, type SignedIn } from '../support/users';
import { connect, eventually, subscribe } from '../support/ws';

vi.setConfig({ testTimeout: 180_000 });

/**
 * Two tests of 2 s each: the verdict is shown 4 s after the submission, well after the slow solution's 0.8 s
 * even when a busy machine slows the judging down.
 */
const DELAY_PER_TEST_MS = 2000;
const RELEASE_MS = 2 * DELAY_PER_TEST_MS;

let t: TestApp;
let learner: SignedIn;
let exerciseId: string;
let courseId: string;

beforeAll(async () => {
  // A run may take 5 s, so a solution can outlast the 2 s delay of one test and still pass.
  t = await startTestApp({
    CODELAB_VERDICT_DELAY_PER_TEST_MS: String(DELAY_PER_TEST_MS),
    CODELAB_TIME_LIMIT_MS: '5000',
    // The release job is found by the queue's scan: a scan every 200 ms, not every second, keeps its
    // lateness (the same for every solution) well under the 0.8 s this test looks for.
    JOBS_PROCESS_EVERY_MS: '200',
  });
  const editor = await contentAdmin(t);
  learner = await learnerOfAge(t, 20);
  const course = await publishedCourse(t, editor, {}, 1);
  courseId = course.id;
  expect(
    (await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken })).status,
  ).toBe(201);
  const exercise = await echoExercise(
    editor,
    [
      { name: 'shown', hidden: false, input: 'Q\n', expected: 'Q' },
      { name: 'secret', hidden: true, input: 'S\n', expected: 'S' },
    ],
    { courseId: course.id, lessonId: course.lessonIds[0] },
  );
  expect(exercise.status).toBe(201);
  exerciseId = exercise.body.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** A JavaScript exercise whose solutions print the line they read. */
function echoExercise(editor: SignedIn, tests: Record<string, unknown>[], more: Record<string, unknown> = {}) {
  const body = {
    title: { en: 'Echo', vi: 'Echo (vi)' },
    prompt: { en: 'Print the line you read.', vi: 'In dòng đã đọc.' },
    language: 'javascript',
    difficulty: 'easy',
    tests,
    ...more,
  };
  return exerciseBy(t, editor, body);
}

/** Reads every 100 ms until `done` holds, for up to a minute: the last answer. */
async function until(read: () => Promise<Reply>, done: (body: any) => boolean): Promise<Reply> {
  let reply = await read();
  for (const deadline = Date.now() + 60_000; !done(reply.body) && Date.now() < deadline;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    reply = await read();
  }
  return reply;
}

const FAST = 'console.log(readLine());\n';
/** The same answers, but 0.8 s of computing first when the input starts with S: only the hidden test's does. */
const SLOW =
  'const line = readLine();\nif (line.startsWith("S")) { const start = Date.now(); while (Date.now() - start < 800) {} }\nconsole.log(line);\n';

const SUBMISSION =
  'id exerciseId status verdict score tests { name hidden passed message timeMs } createdAt finishedAt';

/**
 * Submits, follows the submission by polling (REST, back to back) and by submissionUpdated, and notes
 * what every read before the verdict answered, when (in milliseconds after the submission's
 * createdAt) the first read that showed the verdict was sent and the push came, and the learner's
 * course progress just before the verdict was due.
 */
async function observe(code: string) {
  const posted = await t.http.post(
    `/codelab/exercises/${exerciseId}/submissions`,
    { code },
    { token: learner.accessToken },
  );
  expect(posted.status).toBe(202);
  expect(posted.body).toMatchObject({ status: 'queued', verdict: null, tests: [], finishedAt: null });
  const createdAt = Date.parse(posted.body.createdAt);
  const subscription = subscribe(
    connect(t.url, learner.accessToken),
    `subscription($id: ID!) { submissionUpdated(id: $id) { ${SUBMISSION} } }`,
    { id: posted.body.id },
  );
  let pushedAt = 0;
  const pushed = eventually(() => subscription.events.length > 0, 'the push', 20_000).then(
    () => (pushedAt = Date.now()),
  );
  const progressBefore = new Promise((resolve) => setTimeout(resolve, createdAt + RELEASE_MS - 300 - Date.now())).then(
    async () => (await t.http.get(`/progress/courses/${courseId}`, { token: learner.accessToken })).body,
  );
  await subscription.ready;
  const before: unknown[] = [];
  let sentAt = Date.now();
  let lastSentAt = sentAt;
  let reply = await t.http.get(`/codelab/submissions/${posted.body.id}`, { token: learner.accessToken });
  for (const deadline = Date.now() + 60_000; reply.body.status !== 'completed' && Date.now() < deadline;) {
    before.push(reply.body);
    // Reads back to back would crowd the service's database pool, and the release job with it.
    await new Promise((resolve) => setTimeout(resolve, 10));
    lastSentAt = sentAt;
    sentAt = Date.now();
    reply = await t.http.get(`/codelab/submissions/${posted.body.id}`, { token: learner.accessToken });
  }
  await pushed;
  // Nothing more comes after the release.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await subscription.close();
  return {
    body: reply.body,
    before,
    visibleAfter: sentAt - createdAt,
    // How finely the polling saw the moment: the time between the last read without the verdict and the first with it.
    pollStep: sentAt - lastSentAt,
    pushedAfter: pushedAt - createdAt,
    pushes: subscription.events,
    progressBefore: await progressBefore,
  };
}

describe('the verdict of a submission is released a fixed time after it, whatever the hidden tests took', () => {
  it('a solution that computes 0.8 s more on the hidden input only is shown at the same moment, with the same times, as one that does not (REST, GraphQL, submissionUpdated)', async () => {
    // The slow solution does take 0.8 s on the hidden input.
    const started = Date.now();
    const slowRun = await t.http.post(
      '/codelab/run',
      { language: 'javascript', code: SLOW, stdin: 'S\n' },
      { token: learner.accessToken },
    );
    expect(slowRun.body).toMatchObject({ status: 'ok', stdout: 'S\n' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(800);

    const fast = await observe(FAST);
    const slow = await observe(SLOW);

    for (const seen of [fast, slow]) {
      expect(seen.body).toMatchObject({ status: 'completed', verdict: 'accepted', score: 100 });
      // The time shown is the release's, a fixed delay after the submission.
      expect(Date.parse(seen.body.finishedAt) - Date.parse(seen.body.createdAt)).toBe(RELEASE_MS);
      expect(seen.body.tests).toEqual([
        { name: 'shown', hidden: false, passed: true, message: null, timeMs: expect.any(Number) },
        { name: 'secret', hidden: true, passed: true, message: null, timeMs: null },
      ]);
      // Until then nothing of judging shows: not its start, not its end.
      expect(seen.before.length).toBeGreaterThan(0);
      for (const early of seen.before)
        expect(early).toMatchObject({ status: 'running', verdict: null, score: 0, tests: [], finishedAt: null });
      // Sent a moment before the release, a read may come back with it.
      expect(seen.visibleAfter).toBeGreaterThanOrEqual(RELEASE_MS - 300);
      // One push, the verdict's.
      expect(seen.pushes).toHaveLength(1);
      expect(seen.pushes[0].data.submissionUpdated).toEqual(seen.body);
      expect(seen.pushedAfter).toBeGreaterThanOrEqual(RELEASE_MS - 25);
      const gql = await t.http.gql(
        `query($id: ID!) { codelabSubmission(id: $id) { ${SUBMISSION} } }`,
        { id: seen.body.id },
        learner.accessToken,
      );
      expect(gql.body.data.codelabSubmission).toEqual(seen.body);
    }
    // The moments differ by what a read's round trip and the job's timer make, far less than the 0.8 s
    // (a busy machine's slow reads coarsen what polling can see, so their step is allowed on top).
    expect(Math.abs(slow.visibleAfter - fast.visibleAfter)).toBeLessThan(400 + Math.max(slow.pollStep, fast.pollStep));
    expect(Math.abs(slow.pushedAfter - fast.pushedAfter)).toBeLessThan(400);

    // Nor the learner's progress, which hears of the first verdict only once it is shown (its reaction follows the release's commit).
    expect(fast.progressBefore.exercises).toEqual([]);
    const progress = await until(
      () => t.http.get(`/progress/courses/${courseId}`, { token: learner.accessToken }),
      (body) => body.exercises.length > 0,
    );
    expect(progress.body.exercises).toEqual([expect.objectContaining({ exerciseId, bestScore: 100, accepted: true })]);
  });

  it('judging that outlasts the delay is shown at twice it (or four times...), never at the moment it ended', async () => {
    // One hidden test: the delay is 2 s, and this solution computes 3 s on the hidden input.
    const editor = await contentAdmin(t);
    const single = await echoExercise(editor, [{ name: 'secret', hidden: true, input: 'S\n', expected: 'S' }]);
    const code = SLOW.replace('800', '3000');
    const posted = await t.http.post(
      `/codelab/exercises/${single.body.id}/submissions`,
      { code },
      { token: learner.accessToken },
    );
    const reply = await until(
      () => t.http.get(`/codelab/submissions/${posted.body.id}`, { token: learner.accessToken }),
      (body) => body.status === 'completed',
    );
    expect(reply.body).toMatchObject({ status: 'completed', verdict: 'accepted' });
    expect([2, 4, 8].map((k) => k * DELAY_PER_TEST_MS)).toContain(
      Date.parse(reply.body.finishedAt) - Date.parse(reply.body.createdAt),
    );
  });
});

import { beforeAll, describe, expect, it, vi } from 'vitest';
import { JUDGE_JOB } from '../../src/codelab/codelab.service';
import { contentAdmin, exerciseBy, publishedCourse } from '../learning/support';
import { startAiBackend } from '../support/ai-backend';
import { startTestApp, type TestApp } from '../support/app';
import { inEveryRegion } from '../support/regions';
import { withMailAndApp } from '../support/setup';
import { adultSignup, learnerOfAge, type SignedIn, signUp } from '../support/users';
import { connect, eventually, subscribe } from '../support/ws';

vi.setConfig({ testTimeout: 180_000 });

// The default BODY_LIMIT (100kb): the project and code limits of docs/codelab.md must answer on their own.
// Verdicts are shown 0.3 s a test after the submission (or a multiple of that when judging takes longer).
const ctx = withMailAndApp({
  CODELAB_PREWARM: 'true',
  CODELAB_WORKERS: '2',
  CODELAB_RUNS_PER_MINUTE: '1000',
  CODELAB_VERDICT_DELAY_PER_TEST_MS: '300',
});
let t: TestApp;
let editor: SignedIn;
let learner: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  ({ t } = ctx);
  editor = await contentAdmin(t);
  learner = await learnerOfAge(t, 20);
  stranger = await learnerOfAge(t, 20);
}, 120_000);

const SUBMISSION =
  'id exerciseId status verdict score tests { name hidden passed message timeMs } createdAt finishedAt';
const EXERCISE = 'id title { en vi } language difficulty tests { name hidden input expected call }';

const text = (en: string) => ({ en, vi: `${en} (vi)` });

/** A Python exercise with a visible and a hidden stdin test, and a hidden function-call test. */
function exerciseBody(overrides: Record<string, unknown> = {}) {
  return {
    title: text('Double it'),
    prompt: text('Read n and print 2n; also write double(n).'),
    language: 'python',
    starterCode: 'n = int(input())\n',
    difficulty: 'easy',
    tests: [
      { name: 'two', hidden: false, input: '2\n', expected: '4\n' },
      { name: 'secret-io', hidden: true, input: '21\n', expected: '42' },
      { name: 'secret-call', hidden: true, input: '[5]', expected: '10', call: 'double' },
    ],
    ...overrides,
  };
}

const SOLUTION =
  'def double(n):\n    return 2 * n\n\nif __name__ == "__main__":\n    import sys\n    data = sys.stdin.read().split()\n    if data:\n        print(double(int(data[0])))\n';

async function judged(who: SignedIn, id: string) {
  let reply = await t.http.get(`/codelab/submissions/${id}`, { token: who.accessToken });
  const deadline = Date.now() + 90_000;
  while (reply.body.status !== 'completed' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    reply = await t.http.get(`/codelab/submissions/${id}`, { token: who.accessToken });
  }
  return reply.body;
}

describe('POST /codelab/run and runCode', () => {
  it('runs Python and JavaScript with stdin', async () => {
    const py = await t.http.post(
      '/codelab/run',
      { language: 'python', code: 'print(input()[::-1])', stdin: 'abc\n' },
      { token: learner.accessToken },
    );
    expect(py.status).toBe(200);
    expect(py.body).toMatchObject({ status: 'ok', stdout: 'cba\n', stderr: '' });
    expect(typeof py.body.timeMs).toBe('number');
    const gql = await t.http.gql(
      'mutation($input: RunCodeInput!) { runCode(input: $input) { status stdout } }',
      { input: { language: 'javascript', code: 'console.log(readLine().toUpperCase())', stdin: 'hi' } },
      learner.accessToken,
    );
    expect(gql.body.data.runCode).toEqual({ status: 'ok', stdout: 'HI\n' });
  });

  it('answers with the status of the program: a syntax error is still 200', async () => {
    const reply = await t.http.post(
      '/codelab/run',
      { language: 'javascript', code: 'let = ;' },
      { token: learner.accessToken },
    );
    expect(reply.status).toBe(200);
    expect(reply.body.status).toBe('syntax_error');
  });

  it('refuses anonymous callers, unknown languages and code over 64 KiB', async () => {
    expect((await t.http.post('/codelab/run', { language: 'python', code: 'print(1)' })).status).toBe(401);
    const bad = await t.http.post('/codelab/run', { language: 'ruby', code: 'puts 1' }, { token: learner.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'validation_failed', details: [{ field: 'language' }] });
    const big = await t.http.post(
      '/codelab/run',
      { language: 'python', code: `#${'x'.repeat(64 * 1024)}` },
      { token: learner.accessToken },
    );
    expect(big.status).toBe(400);
    const gql = await t.http.gql('mutation { runCode(input: { language: "python", code: "print(1)" }) { status } }');
    expect(gql.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('exercises', () => {
  it('come with a starter set, and hidden tests show their name only (REST and GraphQL)', async () => {
    const list = await t.http.get('/codelab/exercises?limit=100', { token: learner.accessToken });
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeGreaterThanOrEqual(12);
    const hidden = list.body.items.flatMap((e: { tests: { hidden: boolean }[] }) => e.tests.filter((x) => x.hidden));
    expect(hidden.length).toBeGreaterThan(0);
    for (const test of hidden) expect(test).toMatchObject({ input: null, expected: null, call: null });
    const python = await t.http.get('/codelab/exercises?language=javascript', { token: learner.accessToken });
    expect(python.body.items.every((e: { language: string }) => e.language === 'javascript')).toBe(true);
  });

  it('content admins create and replace exercises; learners cannot; bad input names its field', async () => {
    const created = await t.http.post('/codelab/exercises', exerciseBody(), { token: editor.accessToken });
    expect(created.status).toBe(201);
    // The learner's region reads its copy, which replication brings a moment after the commit.
    await inEveryRegion(t, 'select 1 from codelab_exercises where id = ?', [created.body.id]);
    expect(created.body.tests[1]).toEqual({
      name: 'secret-io',
      hidden: true,
      input: '21\n',
      expected: '42',
      call: null,
    });
    const asLearner = await t.http.get(`/codelab/exercises/${created.body.id}`, { token: learner.accessToken });
    expect(asLearner.body.tests[1]).toEqual({
      name: 'secret-io',
      hidden: true,
      input: null,
      expected: null,
      call: null,
    });
    expect(JSON.stringify(asLearner.body)).not.toContain('21\\n');
    const gql = await t.http.gql(
      `query($id: ID!) { codelabExercise(id: $id) { ${EXERCISE} } }`,
      { id: created.body.id },
      learner.accessToken,
    );
    expect(gql.body.data.codelabExercise.tests[2]).toEqual({
      name: 'secret-call',
      hidden: true,
      input: null,
      expected: null,
      call: null,
    });

    const replaced = await t.http.put(`/codelab/exercises/${created.body.id}`, exerciseBody({ difficulty: 'medium' }), {
      token: editor.accessToken,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.difficulty).toBe('medium');

    expect((await t.http.post('/codelab/exercises', exerciseBody(), { token: learner.accessToken })).status).toBe(403);
    const gqlRefused = await t.http.gql(
      'mutation($input: ExerciseInput!) { createExercise(input: $input) { id } }',
      { input: exerciseBody() },
      learner.accessToken,
    );
    expect(gqlRefused.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const invalid = await t.http.post('/codelab/exercises', exerciseBody({ difficulty: 'trivial', tests: [] }), {
      token: editor.accessToken,
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['difficulty', 'tests']);
    expect(
      (await t.http.get('/codelab/exercises/00000000-0000-4000-8000-000000000000', { token: learner.accessToken }))
        .status,
    ).toBe(404);
  });
});

describe('submissions', () => {
  let exerciseId: string;
  beforeAll(async () => {
    exerciseId = (await exerciseBy(t, editor, exerciseBody())).body.id;
  });

  it('are queued (202), judged by a job, and accepted with a score of 100', async () => {
    const queued = await t.http.post(
      `/codelab/exercises/${exerciseId}/submissions`,
      { code: SOLUTION },
      { token: learner.accessToken },
    );
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ status: 'queued', exerciseId, verdict: null });
    const done = await judged(learner, queued.body.id);
    expect(done).toMatchObject({ status: 'completed', verdict: 'accepted', score: 100 });
    expect(done.tests.map((r: { name: string; passed: boolean }) => [r.name, r.passed])).toEqual([
      ['two', true],
      ['secret-io', true],
      ['secret-call', true],
    ]);
    expect(done.finishedAt).toBeTruthy();
    // The submission keeps the verdict; its judging job is gone from the scheduler's table once done.
    await expect
      .poll(async () => {
        const counts = await Promise.all(
          t.app.deps.regions.map((region) =>
            region.sql.query<{ n: number }>(
              `select count(*)::int as n from agenda_jobs where name = ? and data->>'submissionId' = ?`,
              [JUDGE_JOB, queued.body.id],
            ),
          ),
        );
        return counts.reduce((sum, [{ n }]) => sum + n, 0);
      })
      .toBe(0);
  }, 120_000);

  it('gives wrong_answer with a partial score, and hidden tests tell nothing of their data', async () => {
    const queued = await t.http.post(
      `/codelab/exercises/${exerciseId}/submissions`,
      { code: 'def double(n):\n    return n + 2\nprint(4)' },
      { token: learner.accessToken },
    );
    const done = await judged(learner, queued.body.id);
    expect(done).toMatchObject({ verdict: 'wrong_answer', score: 33 });
    const [visible, secretIo, secretCall] = done.tests;
    expect(visible).toMatchObject({ passed: true, message: null, timeMs: expect.any(Number) });
    expect(secretIo).toEqual({ name: 'secret-io', hidden: true, passed: false, message: null, timeMs: null });
    expect(secretCall).toEqual({ name: 'secret-call', hidden: true, passed: false, message: null, timeMs: null });
    const gql = await t.http.gql(
      `query($id: ID!) { codelabSubmission(id: $id) { ${SUBMISSION} } }`,
      { id: queued.body.id },
      learner.accessToken,
    );
    expect(gql.body.data.codelabSubmission.tests[1]).toEqual(secretIo);
    expect(JSON.stringify(gql.body)).not.toMatch(/expected|got/);
  }, 120_000);

  it('is no oracle for hidden inputs: failing a hidden test by a runtime error or by the output limit answers the same, wrong_answer', async () => {
    // Passes the visible test (2) and the hidden call; fails the hidden stdin test (21) one way or the other.
    const failing = (how: string) =>
      `def double(n):\n    return 2 * n\n\nif __name__ == "__main__":\n    import sys\n    data = sys.stdin.read().split()\n    if data:\n        n = int(data[0])\n        if n > 10:\n            ${how}\n        print(double(n))\n`;
    const ways = ['raise ValueError("the input is above 10")', 'print("x" * 100000)'];
    const answers = [];
    for (const how of ways) {
      const queued = await t.http.post(
        `/codelab/exercises/${exerciseId}/submissions`,
        { code: failing(how) },
        { token: learner.accessToken },
      );
      const done = await judged(learner, queued.body.id);
      const gql = await t.http.gql(
        `query($id: ID!) { codelabSubmission(id: $id) { ${SUBMISSION} } }`,
        { id: queued.body.id },
        learner.accessToken,
      );
      expect(gql.body.data.codelabSubmission.tests).toEqual(done.tests);
      expect(gql.body.data.codelabSubmission.verdict).toBe(done.verdict);
      answers.push({
        verdict: done.verdict,
        score: done.score,
        hidden: done.tests.filter((r: { hidden: boolean }) => r.hidden),
      });
    }
    expect(answers[0]).toEqual({
      verdict: 'wrong_answer',
      score: 67,
      hidden: [
        { name: 'secret-io', hidden: true, passed: false, message: null, timeMs: null },
        { name: 'secret-call', hidden: true, passed: true, message: null, timeMs: null },
      ],
    });
    expect(answers[1]).toEqual(answers[0]);
  }, 180_000);

  it('gives the limit verdicts: syntax error, runtime error and time limit', async () => {
    const cases: [string, string][] = [
      ['def double(n) return n', 'syntax_error'],
      ['raise ValueError("no")', 'runtime_error'],
      ['while True:\n    pass', 'time_limit_exceeded'],
    ];
    const ids = await Promise.all(
      cases.map(
        async ([code]) =>
          (await t.http.post(`/codelab/exercises/${exerciseId}/submissions`, { code }, { token: learner.accessToken }))
            .body.id as string,
      ),
    );
    const results = await Promise.all(ids.map((id) => judged(learner, id)));
    results.forEach((r, i) =>
      expect(r, cases[i][1]).toMatchObject({ status: 'completed', verdict: cases[i][1], score: 0 }),
    );
  }, 180_000);

  it("are their owner's only: another learner gets 404, anonymous 401, and the owner's list has them", async () => {
    const queued = await t.http.post(
      `/codelab/exercises/${exerciseId}/submissions`,
      { code: SOLUTION },
      { token: learner.accessToken },
    );
    expect((await t.http.get(`/codelab/submissions/${queued.body.id}`, { token: stranger.accessToken })).status).toBe(
      404,
    );
    expect((await t.http.get(`/codelab/submissions/${queued.body.id}`)).status).toBe(401);
    const gql = await t.http.gql(
      `query($id: ID!) { codelabSubmission(id: $id) { id } }`,
      { id: queued.body.id },
      stranger.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const mine = await t.http.get('/codelab/me/submissions', { token: learner.accessToken });
    expect(mine.body.items.map((s: { id: string }) => s.id)).toContain(queued.body.id);
    expect((await t.http.get('/codelab/me/submissions', { token: stranger.accessToken })).body.items).toEqual([]);
    expect(
      (await t.http.post(`/codelab/exercises/${exerciseId}/submissions`, { code: 1 }, { token: learner.accessToken }))
        .status,
    ).toBe(400);
    await judged(learner, queued.body.id);
  }, 120_000);

  it('submissionUpdated pushes the released verdict to the owner, and refuses anyone else when it opens', async () => {
    const queued = await t.http.post(
      `/codelab/exercises/${exerciseId}/submissions`,
      { code: SOLUTION },
      { token: learner.accessToken },
    );
    const owner = subscribe(
      connect(t.url, learner.accessToken),
      `subscription($id: ID!) { submissionUpdated(id: $id) { id status verdict } }`,
      { id: queued.body.id },
    );
    const other = subscribe(
      connect(t.url, stranger.accessToken),
      `subscription($id: ID!) { submissionUpdated(id: $id) { id status verdict } }`,
      { id: queued.body.id },
    );
    await owner.ready;
    await other.ready.catch(() => undefined);
    await eventually(
      () => owner.events.some((e) => e.data?.submissionUpdated.status === 'completed') || false,
      'the verdict',
      90_000,
    ).catch(async () => {
      // The verdict may have been given before the subscription opened: it is then in the store.
      expect((await judged(learner, queued.body.id)).verdict).toBe('accepted');
    });
    if (owner.events.length) expect(owner.events.at(-1)?.data?.submissionUpdated).toMatchObject({ id: queued.body.id });
    // The refusal may come after the owner's verdict (which can be given before either opened).
    await eventually(() => other.events.length > 0, 'the refusal', 10_000);
    expect(other.events.every((e) => !e.data)).toBe(true);
    expect(other.events[0]?.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    await owner.close();
    await other.close();
  }, 120_000);
});

describe("the best score per exercise feeds the learner's progress (the exerciseJudged event)", () => {
  /** Progress is written by the progress area's reaction after the verdict's commit: poll it. */
  async function progressUntil(who: SignedIn, courseId: string, done: (p: any) => boolean) {
    let reply = await t.http.get(`/progress/courses/${courseId}`, { token: who.accessToken });
    for (let i = 0; i < 100 && !done(reply.body); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      reply = await t.http.get(`/progress/courses/${courseId}`, { token: who.accessToken });
    }
    return reply;
  }

  // Progress is the same whatever the language: these judge JavaScript, whose runs take milliseconds
  // where each Python run starts a process of its own.
  const JS_EXERCISE = (overrides: Record<string, unknown> = {}) =>
    exerciseBody({ language: 'javascript', starterCode: 'const n = Number(readLine());\n', ...overrides });
  const JS_SOLUTION =
    'function double(n) {\n  return 2 * n;\n}\nif (stdin.length) console.log(double(Number(readLine())));\n';
  const JS_WRONG = 'function double(n) {\n  return n + 2;\n}\nconsole.log(4);\n';

  it('keeps the best score, and an accepted exercise linked to a lesson completes it (REST and GraphQL)', async () => {
    const course = await publishedCourse(t, editor, {}, 2);
    const pupil = await learnerOfAge(t, 20);
    expect(
      (await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: pupil.accessToken })).status,
    ).toBe(201);
    const exercise = (await exerciseBy(t, editor, JS_EXERCISE({ courseId: course.id, lessonId: course.lessonIds[0] })))
      .body;

    const wrong = await t.http.post(
      `/codelab/exercises/${exercise.id}/submissions`,
      { code: JS_WRONG },
      { token: pupil.accessToken },
    );
    expect((await judged(pupil, wrong.body.id)).score).toBe(33);
    const partial = await progressUntil(pupil, course.id, (p) => p.exercises?.length === 1);
    expect(partial.status).toBe(200);
    expect(partial.body).toMatchObject({
      lessonsCompleted: 0,
      exercisesAccepted: 0,
      exercises: [{ exerciseId: exercise.id, lessonId: course.lessonIds[0], bestScore: 33, accepted: false }],
    });

    const right = await t.http.post(
      `/codelab/exercises/${exercise.id}/submissions`,
      { code: JS_SOLUTION },
      { token: pupil.accessToken },
    );
    expect((await judged(pupil, right.body.id)).verdict).toBe('accepted');
    const complete = await progressUntil(pupil, course.id, (p) => p.lessonsCompleted === 1);
    expect(complete.body).toMatchObject({
      lessonsCompleted: 1,
      percent: 50,
      exercisesAccepted: 1,
      exercises: [{ exerciseId: exercise.id, bestScore: 100, accepted: true }],
    });

    // A worse submission later does not lower the best.
    const worse = await t.http.post(
      `/codelab/exercises/${exercise.id}/submissions`,
      { code: 'console.log(0)' },
      { token: pupil.accessToken },
    );
    expect((await judged(pupil, worse.body.id)).score).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const gql = await t.http.gql(
      '{ myProgress { courses { courseId lessonsCompleted exercisesAccepted exercises { exerciseId bestScore accepted } } } }',
      undefined,
      pupil.accessToken,
    );
    expect(gql.body.data.myProgress.courses).toEqual([
      {
        courseId: course.id,
        lessonsCompleted: 1,
        exercisesAccepted: 1,
        exercises: [{ exerciseId: exercise.id, bestScore: 100, accepted: true }],
      },
    ]);
  }, 180_000);

  it('completes no lesson of a course the learner is not enrolled in, and exercises without a course stay out of course progress', async () => {
    const course = await publishedCourse(t, editor, {}, 1);
    const pupil = await learnerOfAge(t, 20);
    const linked = (await exerciseBy(t, editor, JS_EXERCISE({ courseId: course.id, lessonId: course.lessonIds[0] })))
      .body;
    const loose = (await exerciseBy(t, editor, JS_EXERCISE())).body;
    const ids = [
      (
        await t.http.post(
          `/codelab/exercises/${linked.id}/submissions`,
          { code: JS_SOLUTION },
          { token: pupil.accessToken },
        )
      ).body.id,
      (
        await t.http.post(
          `/codelab/exercises/${loose.id}/submissions`,
          { code: JS_SOLUTION },
          { token: pupil.accessToken },
        )
      ).body.id,
    ];
    for (const id of ids) expect((await judged(pupil, id)).verdict).toBe('accepted');
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Enrolled afterwards: the earlier acceptance completed nothing, but its best score is there.
    await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: pupil.accessToken });
    const progress = await t.http.get(`/progress/courses/${course.id}`, { token: pupil.accessToken });
    expect(progress.body).toMatchObject({
      lessonsCompleted: 0,
      completed: false,
      exercisesAccepted: 1,
      exercises: [{ exerciseId: linked.id, bestScore: 100 }],
    });
  }, 180_000);
});

describe('body limits: the limits of 4.8 answer with their own error, not BODY_LIMIT (100kb)', () => {
  const KiB = 1024;
  /** The body limits the area declares: six bytes of JSON for every byte of text (`\u0001`), plus room for the other fields. */
  const PROJECT_BODY = 6 * 256 * KiB + 64 * KiB;
  const RUN_BODY = 6 * 128 * KiB + 16 * KiB;
  const project = (content: string) => ({ title: 'Big', language: 'python', files: [{ path: 'main.py', content }] });
  /** The same JSON with trailing whitespace, so the body is exactly `size` bytes. */
  const padded = (value: unknown, size: number) => {
    const json = JSON.stringify(value);
    expect(Buffer.byteLength(json)).toBeLessThanOrEqual(size);
    return json + ' '.repeat(size - Buffer.byteLength(json));
  };
  const CREATE = 'mutation($input: ProjectInput!) { createProject(input: $input) { id files { path } } }';

  it('a project of exactly 256 KiB is stored and one byte more is validation_failed on files (REST create and replace, GraphQL)', async () => {
    const full = 'x'.repeat(256 * KiB - 'main.py'.length);
    const created = await t.http.post('/projects', project(full), { token: learner.accessToken });
    expect(created.status).toBe(201);
    const over = await t.http.post('/projects', project(`${full}x`), { token: learner.accessToken });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      error: 'validation_failed',
      details: [{ field: 'files', message: 'at most 256 KiB a project' }],
    });
    expect(
      (await t.http.put(`/projects/${created.body.id}`, project(full), { token: learner.accessToken })).status,
    ).toBe(200);
    const replaced = await t.http.put(`/projects/${created.body.id}`, project(`${full}x`), {
      token: learner.accessToken,
    });
    expect(replaced.status).toBe(400);
    expect(replaced.body.details[0].field).toBe('files');

    const gql = await t.http.gql(CREATE, { input: project(full) }, learner.accessToken);
    expect(gql.status).toBe(200);
    expect(gql.body.data.createProject.files).toEqual([{ path: 'main.py' }]);
    const gqlOver = await t.http.gql(CREATE, { input: project(`${full}x`) }, learner.accessToken);
    expect(gqlOver.body.errors?.[0].extensions).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'files' }],
    });
  });

  it('any JSON encoding of a 256 KiB project gets through: a body of exactly the project body limit is read, one byte more is 413 payload_too_large', async () => {
    // 256 KiB of control characters: 1.5 MiB of JSON escapes.
    const escaped = project('\u0001'.repeat(256 * KiB - 'main.py'.length));
    const atLimit = await t.http.rest('POST', '/projects', {
      token: learner.accessToken,
      raw: padded(escaped, PROJECT_BODY),
    });
    expect(atLimit.status).toBe(201);
    const overLimit = await t.http.rest('POST', '/projects', {
      token: learner.accessToken,
      raw: padded(escaped, PROJECT_BODY + 1),
    });
    expect(overLimit.status).toBe(413);
    expect(overLimit.body).toEqual({ error: 'payload_too_large', message: expect.any(String) });
    const put = await t.http.rest('PUT', `/projects/${atLimit.body.id}`, {
      token: learner.accessToken,
      raw: padded(escaped, PROJECT_BODY + 1),
    });
    expect(put.status).toBe(413);

    const gqlAt = await t.http.rest('POST', '/graphql', {
      token: learner.accessToken,
      raw: padded({ query: CREATE, variables: { input: escaped } }, PROJECT_BODY),
    });
    expect(gqlAt.body.data.createProject.id).toBeTruthy();
    const gqlOver = await t.http.rest('POST', '/graphql', {
      token: learner.accessToken,
      raw: padded({ query: CREATE, variables: { input: escaped } }, PROJECT_BODY + 1),
    });
    expect(gqlOver.status).toBe(413);
    expect(gqlOver.body.error).toBe('payload_too_large');
  });

  it('code of 64 KiB runs whatever its JSON encoding (up to the run body limit); 64 KiB + 1 is validation_failed; over the body limit is 413', async () => {
    // Quotes double in JSON: 64 KiB of code is a 128 KiB body, over BODY_LIMIT.
    const code = (size: number) => `print(1)\n#${'"'.repeat(size - 'print(1)\n#'.length)}`;
    const ran = await t.http.post(
      '/codelab/run',
      { language: 'python', code: code(64 * KiB) },
      { token: learner.accessToken },
    );
    expect(ran.status).toBe(200);
    expect(ran.body).toMatchObject({ status: 'ok', stdout: '1\n' });
    const over = await t.http.post(
      '/codelab/run',
      { language: 'python', code: code(64 * KiB + 1) },
      { token: learner.accessToken },
    );
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error: 'validation_failed', details: [{ field: 'code' }] });
    const body = { language: 'javascript', code: 'console.log(stdin.length)', stdin: '\u0002'.repeat(64 * KiB) };
    const atLimit = await t.http.rest('POST', '/codelab/run', {
      token: learner.accessToken,
      raw: padded(body, RUN_BODY),
    });
    expect(atLimit.body).toMatchObject({ status: 'ok', stdout: `${64 * KiB}\n` });
    expect(
      (await t.http.rest('POST', '/codelab/run', { token: learner.accessToken, raw: padded(body, RUN_BODY + 1) }))
        .status,
    ).toBe(413);
    const gql = await t.http.gql(
      'mutation($input: RunCodeInput!) { runCode(input: $input) { status stdout } }',
      { input: { language: 'python', code: code(64 * KiB) } },
      learner.accessToken,
    );
    expect(gql.body.data.runCode).toEqual({ status: 'ok', stdout: '1\n' });
  });

  it('everything else keeps BODY_LIMIT: 413 over 100kb on other routes and other GraphQL operations', async () => {
    const big = 'x'.repeat(101 * KiB);
    const portfolio = await t.http.put(
      '/portfolio/me',
      { handle: 'big-body', bio: big },
      { token: learner.accessToken },
    );
    expect(portfolio.status).toBe(413);
    expect(portfolio.body.error).toBe('payload_too_large');
    const query = await t.http.gql(`query { myPortfolio { handle } } # ${big}`, undefined, learner.accessToken);
    expect(query.status).toBe(413);
    // A large mutation's room is not lent to another field asked beside it.
    const mixed = await t.http.gql(
      'mutation($input: ProjectInput!, $p: PortfolioInput!) { createProject(input: $input) { id } updatePortfolio(input: $p) { handle } }',
      { input: project('print(1)'), p: { handle: 'mixed-body', bio: big } },
      learner.accessToken,
    );
    expect(mixed.status).toBe(413);
  });
});

describe('rate limit on runs', () => {
  it('answers 429 with retryAfter once a user has used the runs of the minute', async () => {
    const limited = await startTestApp({ CODELAB_RUNS_PER_MINUTE: '2', CODELAB_WORKERS: '1' });
    try {
      const who = await signUp(limited, adultSignup());
      const run = () =>
        limited.http.post(
          '/codelab/run',
          { language: 'javascript', code: 'console.log(1)' },
          { token: who.accessToken },
        );
      expect((await run()).status).toBe(200);
      expect((await run()).status).toBe(200);
      const third = await run();
      expect(third.status).toBe(429);
      expect(third.body).toMatchObject({ error: 'rate_limited' });
      expect(third.body.retryAfter).toBeGreaterThan(0);
      const other = await signUp(limited, adultSignup());
      expect(
        (
          await limited.http.post(
            '/codelab/run',
            { language: 'javascript', code: 'console.log(2)' },
            { token: other.accessToken },
          )
        ).status,
      ).toBe(200);
    } finally {
      await limited.close();
    }
  }, 120_000);
});

describe('POST /codelab/submissions/:id/hint and requestHint', () => {
  it("asks the AI tutor with the AI proxy's checks, sends no hidden test data, and only for the owner", async () => {
    const backend = await startAiBackend();
    const app = await startTestApp({
      AI_BACKEND_URL: backend.url,
      AI_BACKEND_SECRET: 'a-secret-of-sixteen-chars-at-least',
    });
    try {
      const admin = await contentAdmin(app);
      const exercise = await exerciseBy(app, admin, exerciseBody());
      const owner = await learnerOfAge(app, 20);
      const other = await learnerOfAge(app, 20);
      const queued = await app.http.post(
        `/codelab/exercises/${exercise.body.id}/submissions`,
        { code: 'print(1)' },
        { token: owner.accessToken },
      );

      const noConsent = await app.http.post(`/codelab/submissions/${queued.body.id}/hint`, undefined, {
        token: owner.accessToken,
      });
      expect(noConsent.status).toBe(403);
      expect(noConsent.body.error).toBe('consent_required');
      expect((await app.http.post(`/codelab/submissions/${queued.body.id}/hint`)).status).toBe(401);

      await app.http.post('/consent/grant', { consentTypeId: 'ai_conversation' }, { token: owner.accessToken });
      const hint = await app.http.post(`/codelab/submissions/${queued.body.id}/hint`, undefined, {
        token: owner.accessToken,
      });
      expect(hint.status).toBe(200);
      expect(hint.body).toMatchObject({ submissionId: queued.body.id, conversationId: 'conv-1' });
      expect(hint.body.hint).toContain('Read n and print 2n');
      const sent = backend.seen.filter((r) => r.path === '/chat').at(-1)!;
      expect(sent.body).toContain('print(1)');
      expect(sent.body).not.toMatch(/secret-io|secret-call|\\"21|\[5\]/);
      // Asked before the verdict is shown: the tutor is not told it either.
      expect(sent.body).not.toContain('The judge said');

      await app.http.post('/consent/grant', { consentTypeId: 'ai_conversation' }, { token: other.accessToken });
      expect(
        (await app.http.post(`/codelab/submissions/${queued.body.id}/hint`, undefined, { token: other.accessToken }))
          .status,
      ).toBe(404);
      const gql = await app.http.gql(
        'mutation($id: ID!) { requestHint(id: $id) { hint } }',
        { id: queued.body.id },
        other.accessToken,
      );
      expect(gql.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    } finally {
      await app.close();
      await backend.close();
    }
  }, 120_000);
});

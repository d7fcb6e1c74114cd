import { Client as PgClient } from 'pg';
import { describe, expect, it } from 'vitest';
import { contentAdmin } from '../learning/support';
import { withMailAndApp } from '../support/setup';
import { settled } from '../support/sql';
import { adultSignup, learnerOfAge, signInAdmin, signUp, uniqueEmail } from '../support/users';
import { GENERATION, generated, request, STAGES, waitForStatus } from './support';

const ctx = withMailAndApp({ JOBS_PROCESS_EVERY_MS: '200' });

async function sql(text: string, params: unknown[] = []) {
  const pg = new PgClient({ connectionString: ctx.t.databaseUrl });
  await pg.connect();
  try {
    return (await pg.query(text, params)).rows;
  } finally {
    await pg.end();
  }
}
const count = async (text: string, params: unknown[]) => Number((await sql(text, params))[0].count);

describe('POST /factory/generate and the pipeline', () => {
  it('answers 202 with the queued generation, then runs the five stages to awaiting_approval', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const started = await http.post(
      '/factory/generate',
      request({ topic: 'JavaScript games', ageRange: '12-15', lessonCount: 4, level: 'intermediate' }),
      { token: editor.accessToken },
    );
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({
      topic: 'JavaScript games',
      level: 'intermediate',
      ageRange: '12-15',
      lessonCount: 4,
      progress: 0,
      courseId: null,
      requestedById: editor.id,
    });
    expect(['queued', 'running']).toContain(started.body.status);
    expect(started.body.stages.map((s: { name: string }) => s.name)).toEqual(STAGES);

    const done = await waitForStatus(http, editor.accessToken, started.body.id, ['awaiting_approval']);
    expect(done.progress).toBe(100);
    expect(done.currentStage).toBeNull();
    for (const stage of done.stages) {
      expect(stage).toMatchObject({ status: 'done', attempts: 1, error: null });
      expect(new Date(stage.finishedAt).getTime()).toBeGreaterThanOrEqual(new Date(stage.startedAt).getTime());
    }
    const [research, outline, content, quiz, safety] = done.stages;
    expect(research.output.concepts.length).toBeGreaterThanOrEqual(3);
    expect(research.output.summary.vi).toContain('JavaScript games');
    expect(outline.output.lessons).toHaveLength(4);
    expect(content.output).toEqual({ lessons: 4, written: 4 });
    expect(quiz.output).toEqual({ lessons: 4, written: 4 });
    expect(safety.output).toMatchObject({
      checkedBy: ['builtin'],
      flaggedLessons: [],
      findings: 0,
      courseFindings: [],
    });
  });

  it('shows each lesson with bilingual content, a code example and a quiz with answers (GraphQL)', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const done = await generated(http, editor.accessToken, { topic: 'Lập trình Python', lessonCount: 2 });
    const reply = await http.gql(
      `query($id: ID!) { factoryGeneration(id: $id) { ${GENERATION} lessons { position title { en vi } objectives { en vi } content { en vi } quiz findings { category } flagged revision } } }`,
      { id: done.id },
      editor.accessToken,
    );
    expect(reply.body.errors).toBeUndefined();
    const lessons = reply.body.data.factoryGeneration.lessons;
    expect(lessons.map((l: { position: number }) => l.position)).toEqual([1, 2]);
    const [first] = lessons;
    expect(first.title).toEqual({ en: 'Programs and instructions', vi: 'Chương trình và câu lệnh' });
    expect(first.content.en).toContain('```python');
    expect(first.content.vi).toContain('Lập trình Python');
    expect(first.content.vi).toMatch(/câu lệnh/);
    expect(first.objectives.vi.length).toBeGreaterThan(0);
    expect(first.quiz.questions.length).toBeGreaterThanOrEqual(2);
    for (const q of first.quiz.questions) {
      expect(q.options[q.answerIndex]).toBeDefined();
      expect(q.explanation.vi.length).toBeGreaterThan(10);
    }
    expect(first).toMatchObject({ findings: [], flagged: false, revision: 0 });
  });
});

describe('approving, rejecting and retrying', () => {
  it('publishes the course with its lessons and quiz, records the approver and tells the requester', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const admin = await signInAdmin(ctx.t);
    const done = await generated(http, editor.accessToken, { topic: 'Approved Python course' });

    const approved = await http.post(`/factory/generations/${done.id}/approve`, undefined, {
      token: admin.accessToken,
    });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ id: done.id, status: 'approved', decidedById: admin.id });
    expect(approved.body.courseId).toEqual(expect.any(String));

    const course = await http.get(`/courses/${approved.body.courseId}`);
    expect(course.status).toBe(200);
    expect(course.body).toMatchObject({
      title: { en: 'Approved Python course: a beginner course' },
      level: 'beginner',
      minAge: 9,
      maxAge: 12,
      published: true,
    });
    expect(course.body.lessons).toHaveLength(3);
    expect(course.body.lessons[0].quiz.length).toBeGreaterThan(0);

    // Told through the outbox, after the answer: once nothing is left to deliver, exactly once.
    await settled(ctx.t);
    const inbox = await http.get('/notifications', { token: editor.accessToken });
    expect(
      inbox.body.items.filter((n: { data: { generationId?: string } }) => n.data.generationId === done.id),
    ).toEqual([
      expect.objectContaining({
        type: 'system',
        title: 'Your course is published',
        data: { generationId: done.id, courseId: approved.body.courseId },
      }),
    ]);
  });

  it('publishes once when approve is clicked twice at the same time: one 200, the other 409 conflict', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const done = await generated(http, editor.accessToken, { topic: 'Double click course' });
    const [a, b] = await Promise.all([
      http.post(`/factory/generations/${done.id}/approve`, undefined, { token: editor.accessToken }),
      http.post(`/factory/generations/${done.id}/approve`, undefined, { token: editor.accessToken }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const [ok, refused] = a.status === 200 ? [a, b] : [b, a];
    expect(refused.body).toMatchObject({ error: 'conflict', message: expect.stringContaining(ok.body.courseId) });
    const again = await http.post(`/factory/generations/${done.id}/approve`, undefined, { token: editor.accessToken });
    expect(again.status).toBe(409);
    expect(
      await count(`select count(*) from courses where title->>'en' = $1`, ['Double click course: a beginner course']),
    ).toBe(1);
    await settled(ctx.t);
    expect(await count(`select count(*) from notifications where data->>'generationId' = $1`, [done.id])).toBe(1);
  });

  it('approves only from awaiting_approval (409), rejects from awaiting_approval, and retries only failed ones', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const started = await http.post('/factory/generate', request({ topic: 'Too early to approve', lessonCount: 30 }), {
      token: editor.accessToken,
    });
    const early = await http.post(`/factory/generations/${started.body.id}/approve`, undefined, {
      token: editor.accessToken,
    });
    expect(early.status).toBe(409);
    expect(early.body.error).toBe('conflict');

    const done = await waitForStatus(http, editor.accessToken, started.body.id, ['awaiting_approval'], 30_000);
    expect(
      (await http.post(`/factory/generations/${done.id}/retry`, undefined, { token: editor.accessToken })).status,
    ).toBe(409);
    const rejected = await http.post(`/factory/generations/${done.id}/reject`, undefined, {
      token: editor.accessToken,
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'rejected', decidedById: editor.id, courseId: null });
    const late = await http.post(`/factory/generations/${done.id}/approve`, undefined, { token: editor.accessToken });
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ error: 'conflict', message: expect.stringContaining('rejected') });
    expect(
      (await http.post(`/factory/generations/${done.id}/reject`, undefined, { token: editor.accessToken })).status,
    ).toBe(409);
  });

  it('approves and rejects through GraphQL too', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const started = await http.gql(
      `mutation($input: GenerateCourseInput!) { generateCourse(input: $input) { ${GENERATION} } }`,
      { input: request({ topic: 'GraphQL course' }) },
      editor.accessToken,
    );
    expect(started.body.errors).toBeUndefined();
    const id = started.body.data.generateCourse.id;
    await waitForStatus(http, editor.accessToken, id, ['awaiting_approval']);
    const approved = await http.gql(
      'mutation($id: ID!) { approveGeneration(id: $id) { status courseId } }',
      { id },
      editor.accessToken,
    );
    expect(approved.body.data.approveGeneration).toMatchObject({ status: 'APPROVED', courseId: expect.any(String) });
    const reject = await http.gql(
      'mutation($id: ID!) { rejectGeneration(id: $id) { status } }',
      { id },
      editor.accessToken,
    );
    expect(reject.body.errors?.[0].extensions.code).toBe('CONFLICT');
    const retry = await http.gql(
      'mutation($id: ID!) { retryGeneration(id: $id) { status } }',
      { id },
      editor.accessToken,
    );
    expect(retry.body.errors?.[0].extensions.code).toBe('CONFLICT');
    const regenerate = await http.gql(
      'mutation($id: ID!) { regenerateFlaggedLessons(id: $id) { status } }',
      { id },
      editor.accessToken,
    );
    expect(regenerate.body.errors?.[0]).toMatchObject({
      message: expect.stringContaining('approved cannot become queued'),
      extensions: { code: 'CONFLICT' },
    });
  });
});

describe('listing and reading generations', () => {
  it('lists generations newest first with a cursor (REST and GraphQL)', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const ids: string[] = [];
    for (const topic of ['List one', 'List two', 'List three'])
      ids.push((await http.post('/factory/generate', request({ topic }), { token: editor.accessToken })).body.id);
    const first = await http.get('/factory/generations?limit=2', { token: editor.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.items.map((g: { id: string }) => g.id)).toEqual([ids[2], ids[1]]);
    expect(first.body.items[0].stages).toHaveLength(5);
    expect(first.body.items[0].stages[0]).not.toHaveProperty('output');
    const second = await http.get(`/factory/generations?limit=2&cursor=${first.body.nextCursor}`, {
      token: editor.accessToken,
    });
    expect(second.body.items[0].id).toBe(ids[0]);
    expect((await http.get('/factory/generations?limit=101', { token: editor.accessToken })).status).toBe(400);

    const gql = await http.gql(
      '{ factoryGenerations(first: 1) { edges { node { id status progress } } pageInfo { hasNextPage endCursor } } }',
      undefined,
      editor.accessToken,
    );
    expect(gql.body.data.factoryGenerations.edges[0].node.id).toBe(ids[2]);
    expect(gql.body.data.factoryGenerations.pageInfo.hasNextPage).toBe(true);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      for (const [method, path] of [
        ['GET', ''],
        ['POST', '/approve'],
        ['POST', '/reject'],
        ['POST', '/retry'],
        ['POST', '/regenerate'],
      ]) {
        const reply = await http.rest(method, `/factory/generations/${id}${path}`, { token: editor.accessToken });
        expect(reply.status, `${method} ${path}`).toBe(404);
        expect(reply.body.error).toBe('not_found');
      }
    }
    const gql = await http.gql(
      'query($id: ID!) { factoryGeneration(id: $id) { id } }',
      { id: 'nope' },
      editor.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});

describe('validation', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['a topic too short', { topic: 'ab' }, 'topic'],
    ['a topic too long', { topic: 'x'.repeat(201) }, 'topic'],
    ['an unknown level', { level: 'expert' }, 'level'],
    ['an age range that is not min-max', { ageRange: 'ten to twelve' }, 'ageRange'],
    ['an age below 5', { ageRange: '4-10' }, 'ageRange'],
    ['an age above 18', { ageRange: '10-19' }, 'ageRange'],
    ['min above max', { ageRange: '12-8' }, 'ageRange'],
    ['no lessons', { lessonCount: 0 }, 'lessonCount'],
    ['more than 30 lessons', { lessonCount: 31 }, 'lessonCount'],
    ['a fractional lesson count', { lessonCount: 2.5 }, 'lessonCount'],
    ['a missing topic', { topic: undefined }, 'topic'],
  ];
  it.each(cases)('refuses %s with 400 validation_failed naming the field', async (_what, overrides, field) => {
    const { http } = ctx.t;
    const admin = await signInAdmin(ctx.t);
    const reply = await http.post('/factory/generate', request(overrides), { token: admin.accessToken });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe('validation_failed');
    expect(reply.body.details.map((d: { field: string }) => d.field)).toContain(field);
    const gql = await http.gql(
      'mutation($input: GenerateCourseInput!) { generateCourse(input: $input) { id } }',
      { input: request(overrides) },
      admin.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(gql.body.errors?.[0].extensions.details?.map((d: { field: string }) => d.field).join()).toContain(field);
  });

  it('accepts the edges of every range', async () => {
    const admin = await signInAdmin(ctx.t);
    for (const overrides of [
      { topic: 'abc', ageRange: '5-5', lessonCount: 1 },
      { topic: 'y'.repeat(200), ageRange: '18-18', lessonCount: 30, level: 'advanced' },
    ]) {
      expect(
        (await ctx.t.http.post('/factory/generate', request(overrides), { token: admin.accessToken })).status,
      ).toBe(202);
    }
  });
});

describe('who may use the factory', () => {
  const endpoints = (id: string): [string, string, unknown?][] => [
    ['POST', '/factory/generate', request()],
    ['GET', '/factory/generations'],
    ['GET', `/factory/generations/${id}`],
    ['POST', `/factory/generations/${id}/approve`],
    ['POST', `/factory/generations/${id}/reject`],
    ['POST', `/factory/generations/${id}/retry`],
    ['POST', `/factory/generations/${id}/regenerate`],
  ];

  it('answers 401 without a token and 403 to learners, guardians and creators, and changes nothing', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    const done = await generated(http, editor.accessToken, { topic: 'Not for everyone' });
    const others = [
      await learnerOfAge(ctx.t, 14),
      ...(await Promise.all(
        ['guardian', 'creator'].map((role) => signUp(ctx.t, adultSignup({ role, email: uniqueEmail(role) }))),
      )),
    ];
    for (const [method, path, body] of endpoints(done.id)) {
      const anonymous = await http.rest(method, path, { body });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      expect(anonymous.body.error).toBe('unauthenticated');
      for (const user of others) {
        const reply = await http.rest(method, path, { body, token: user.accessToken });
        expect(reply.status, `${method} ${path}`).toBe(403);
        expect(reply.body.error).toBe('forbidden');
      }
    }
    expect((await http.get(`/factory/generations/${done.id}`, { token: editor.accessToken })).body.status).toBe(
      'awaiting_approval',
    );
    const gql = await http.gql(
      'mutation($id: ID!) { approveGeneration(id: $id) { id } }',
      { id: done.id },
      others[2].accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const list = await http.gql('{ factoryGenerations { edges { node { id } } } }');
    expect(list.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('when the job queue cannot take a stage', () => {
  it('fails the generation saying so, loses nothing, and a retry queues it again', async () => {
    const { http } = ctx.t;
    const editor = await contentAdmin(ctx.t);
    await sql('alter table agenda_jobs rename to agenda_jobs_away');
    let started;
    try {
      started = await http.post('/factory/generate', request({ topic: 'Queue is down' }), {
        token: editor.accessToken,
      });
    } finally {
      await sql('alter table agenda_jobs_away rename to agenda_jobs');
    }
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'failed', error: 'research: could not be queued' });
    expect(started.body.stages[0]).toMatchObject({ name: 'research', status: 'failed', error: 'could not be queued' });
    const retried = await http.post(`/factory/generations/${started.body.id}/retry`, undefined, {
      token: editor.accessToken,
    });
    expect(retried.body.status).toBe('queued');
    await waitForStatus(http, editor.accessToken, started.body.id, ['awaiting_approval']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, learnerOfAge, type SignedIn, signUp } from '../support/users';
import { withBasicData } from '../support/family';
import { contentAdmin, courseBody, publishedCourse } from './support';

let t: TestApp;
let editor: SignedIn;

beforeAll(async () => {
  t = await startTestApp();
  editor = await contentAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

describe('content admins create, edit and publish courses', () => {
  it('creates an unpublished course with lessons and quizzes, publishes and unpublishes it', async () => {
    const created = await t.http.post('/courses', courseBody(), { token: editor.accessToken });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: { en: 'Python for beginners', vi: 'Python cho người mới bắt đầu' },
      level: 'beginner',
      minAge: 10,
      maxAge: 14,
      published: false,
    });
    expect(created.body.lessons.map((l: { position: number }) => l.position)).toEqual([1, 2]);
    // Learners never see answers.
    expect(JSON.stringify(created.body.lessons)).not.toContain('answerIndex');

    const hidden = await t.http.get(`/courses/${created.body.id}`);
    expect(hidden.status).toBe(404);
    const published = await t.http.post(`/courses/${created.body.id}/publish`, undefined, {
      token: editor.accessToken,
    });
    expect(published.body.published).toBe(true);
    expect((await t.http.get(`/courses/${created.body.id}`)).status).toBe(200);

    const edited = await t.http.put(
      `/courses/${created.body.id}`,
      { passMark: 80, title: { en: 'Python 1', vi: 'Python 1' } },
      { token: editor.accessToken },
    );
    expect(edited.body).toMatchObject({ passMark: 80, title: { en: 'Python 1' } });
    const lesson = await t.http.post(`/courses/${created.body.id}/lessons`, courseBody().lessons[0], {
      token: editor.accessToken,
    });
    expect(lesson.status).toBe(201);
    expect(lesson.body.position).toBe(3);
    const changedLesson = { ...courseBody().lessons[0], title: { en: 'Loops', vi: 'Vòng lặp' }, quiz: null };
    const replaced = await t.http.put(`/courses/${created.body.id}/lessons/${lesson.body.id}`, changedLesson, {
      token: editor.accessToken,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id: lesson.body.id, position: 3, title: { en: 'Loops' }, quiz: null });
    expect(
      (
        await t.http.put(`/courses/${created.body.id}/lessons/00000000-0000-4000-8000-000000000000`, changedLesson, {
          token: editor.accessToken,
        })
      ).status,
    ).toBe(404);
    const learner = await withBasicData(t, await learnerOfAge(t, 13));
    expect(
      (
        await t.http.put(`/courses/${created.body.id}/lessons/${lesson.body.id}`, changedLesson, {
          token: learner.accessToken,
        })
      ).status,
    ).toBe(403);
    const gql = await t.http.gql(
      'mutation($id: ID!) { unpublishCourse(id: $id) { published } }',
      { id: created.body.id },
      editor.accessToken,
    );
    expect(gql.body.data.unpublishCourse.published).toBe(false);
  });

  it('refuses others (401, 403) and bad courses (400 with details)', async () => {
    expect((await t.http.post('/courses', courseBody())).status).toBe(401);
    const learner = await withBasicData(t, await learnerOfAge(t, 15));
    const refused = await t.http.post('/courses', courseBody(), { token: learner.accessToken });
    expect(refused.status).toBe(403);
    for (const [change, field] of [
      [{ level: 'expert' }, 'level'],
      [{ minAge: 3 }, 'minAge'],
      [{ minAge: 15, maxAge: 12 }, 'minAge'],
      [{ language: 'fr' }, 'language'],
      [{ title: { en: '', vi: 'x' } }, 'title'],
      [
        {
          lessons: [
            {
              ...courseBody().lessons[0],
              quiz: [
                {
                  prompt: { en: 'q', vi: 'q' },
                  options: [
                    { en: 'a', vi: 'a' },
                    { en: 'b', vi: 'b' },
                  ],
                  answerIndex: 5,
                  explanation: { en: 'e', vi: 'e' },
                },
              ],
            },
          ],
        },
        'answerIndex',
      ],
    ] as const) {
      const reply = await t.http.post('/courses', courseBody(change as Record<string, unknown>), {
        token: editor.accessToken,
      });
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(reply.body.details.map((d: { field: string }) => d.field).join(' ')).toContain(field);
    }
  });
});

describe('the catalog', () => {
  it("shows published courses by level, language and words, fitting a learner's age by default, in pages", async () => {
    const marker = `Marker${Date.now()}`;
    await publishedCourse(t, editor, { title: { en: `${marker} kids`, vi: 'Trẻ em' }, minAge: 8, maxAge: 10 });
    await publishedCourse(t, editor, {
      title: { en: `${marker} teens`, vi: 'Thiếu niên' },
      minAge: 13,
      maxAge: 17,
      level: 'intermediate',
      language: 'en',
    });
    const list = async (query: string, who?: SignedIn) =>
      (await t.http.get(`/courses?q=${marker}&${query}`, { token: who?.accessToken })).body.items.map(
        (c: { title: { en: string } }) => c.title.en,
      );
    expect(await list('')).toEqual([`${marker} teens`, `${marker} kids`]);
    expect(await list('level=intermediate')).toEqual([`${marker} teens`]);
    expect(await list('language=vi')).toEqual([`${marker} kids`]);
    expect(await list('age=9')).toEqual([`${marker} kids`]);
    const nine = await withBasicData(t, await learnerOfAge(t, 9, { guardianEmail: 'parent@example.com' }));
    expect(await list('', nine)).toEqual([`${marker} kids`]);
    expect(await list('', await withBasicData(t, await learnerOfAge(t, 14)))).toEqual([`${marker} teens`]);
    // An adult learner is older than every course's maxAge: the catalog shows them all, not none.
    const adult = await withBasicData(t, await learnerOfAge(t, 30));
    expect(await list('', adult)).toEqual([`${marker} teens`, `${marker} kids`]);
    expect(await list('age=9', adult)).toEqual([`${marker} kids`]);
    const adultGql = await t.http.gql(
      `{ courses(q: "${marker}") { edges { node { title { en } } } } }`,
      undefined,
      adult.accessToken,
    );
    expect(adultGql.body.data.courses.edges.map((e: { node: { title: { en: string } } }) => e.node.title.en)).toEqual([
      `${marker} teens`,
      `${marker} kids`,
    ]);
    const page = await t.http.get(`/courses?q=${marker}&limit=1`);
    expect(page.body.items).toHaveLength(1);
    const next = await t.http.get(`/courses?q=${marker}&limit=1&cursor=${page.body.nextCursor}`);
    expect(next.body.items[0].title.en).toBe(`${marker} kids`);
    const gql = await t.http.gql(
      `{ courses(q: "${marker}", level: BEGINNER) { edges { node { title { en } lessons { position quiz { prompt { en } } } } } } }`,
    );
    expect(gql.body.data.courses.edges[0].node.lessons[0].quiz[0].prompt.en).toBe('2 + 2?');
    for (const query of ['level=expert', 'age=abc', 'language=fr', 'limit=0'])
      expect((await t.http.get(`/courses?${query}`)).status, query).toBe(400);
  });
});

describe('enrollment', () => {
  it("enrolls (201), refuses twice (409), lists the caller's courses, and leaves (204)", async () => {
    const course = await publishedCourse(t, editor);
    const learner = await withBasicData(t, await learnerOfAge(t, 13));
    const enrolled = await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body).toMatchObject({ course: { id: course.id }, enrolledAt: expect.any(String) });
    expect(
      (await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken })).status,
    ).toBe(409);
    expect(
      (await t.http.get('/courses/me', { token: learner.accessToken })).body.items.map(
        (e: { course: { id: string } }) => e.course.id,
      ),
    ).toEqual([course.id]);
    expect((await t.http.delete(`/courses/${course.id}/enrollment`, { token: learner.accessToken })).status).toBe(204);
    expect((await t.http.delete(`/courses/${course.id}/enrollment`, { token: learner.accessToken })).status).toBe(404);
    const gql = await t.http.gql(
      'mutation($id: ID!) { enroll(courseId: $id) { course { id } } }',
      { id: course.id },
      learner.accessToken,
    );
    expect(gql.body.data.enroll.course.id).toBe(course.id);
    expect((await t.http.post(`/courses/${course.id}/enrollment`)).status).toBe(401);
    expect(
      (
        await t.http.post('/courses/00000000-0000-4000-8000-000000000000/enrollment', undefined, {
          token: learner.accessToken,
        })
      ).status,
    ).toBe(404);
  });

  it('keeps a learner waiting for a guardian out (403 guardian_required)', async () => {
    const course = await publishedCourse(t, editor);
    const child = await withBasicData(t, await learnerOfAge(t, 9));
    const reply = await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: child.accessToken });
    expect(reply.status).toBe(403);
    expect(reply.body.error).toBe('guardian_required');
  });

  it('lets any adult browse', async () => {
    const adult = await signUp(t, adultSignup());
    expect((await t.http.get('/courses', { token: adult.accessToken })).status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { promptOf, startModelServer } from '../support/model-server';
import { adultSignup, type SignedIn, signUp, uniqueEmail } from '../support/users';

let t: TestApp;
let models: Awaited<ReturnType<typeof startModelServer>>;
let creator: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  models = await startModelServer();
  // Research and content go to a model server (failing unless a test says otherwise); the quiz stage is the built-in offline generator.
  t = await startTestApp({
    FACTORY_PROVIDERS: 'research=open_weight,content=open_weight',
    OPEN_WEIGHT_LLM_URL: models.url,
    LLM_MALFORMED_RETRIES: '0',
  });
  creator = await signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('creator') }));
  other = await signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('creator') }));
});
afterAll(async () => {
  await t?.close();
  await models?.close();
});

const text = (en: string) => ({ en, vi: `${en} (vi)` });

async function draft(content: string) {
  const created = await t.http.post(
    '/creator/courses',
    { title: text('Python loops'), description: text('for and while'), level: 'beginner', minAge: 10, maxAge: 14 },
    { token: creator.accessToken },
  );
  const lesson = await t.http.post(
    `/creator/courses/${created.body.id}/lessons`,
    { title: text('for loops'), objectives: { en: ['Repeat'], vi: ['Lặp'] }, content: text(content) },
    { token: creator.accessToken },
  );
  return { id: created.body.id as string, lessonId: lesson.body.id as string };
}

describe('POST /creator/courses/:id/assist', () => {
  it("proposes a quiz through the factory's providers, safety-checked, and saves nothing", async () => {
    const { id, lessonId } = await draft('A for loop repeats a block.');
    const reply = await t.http.post(
      `/creator/courses/${id}/assist`,
      { task: 'quiz', lessonId },
      { token: creator.accessToken },
    );
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ task: 'quiz', findings: [], model: expect.any(String) });
    expect(reply.body.suggestion.questions.length).toBeGreaterThan(0);
    const listed = await t.http.get('/creator/courses', { token: creator.accessToken });
    expect(listed.body.items.find((c: { id: string }) => c.id === id).lessons[0].quiz).toBeNull();
  });

  it('reviews a draft with the safety classifier', async () => {
    const { id } = await draft('Gamble at the casino after class.');
    const reply = await t.http.gql(
      'mutation($id: ID!) { assistCreatorCourse(courseId: $id, input: { task: REVIEW }) { findings { category field } suggestion } }',
      { id },
      creator.accessToken,
    );
    expect(reply.body.data.assistCreatorCourse.findings.map((f: { category: string }) => f.category)).toContain(
      'age_fit',
    );
    expect(reply.body.data.assistCreatorCourse.suggestion.ready).toBe(false);
  });

  it('translates a lesson through the content provider, runs the safety check on the translation, and saves nothing', async () => {
    const { id, lessonId } = await draft('A for loop repeats a block.');
    models.state.chat = (request) => {
      const prompt = promptOf(request);
      if (!prompt.startsWith('Translate')) return { status: 500 };
      const texts = JSON.parse(prompt.split('\n').at(-1)!) as Record<string, string>;
      const answer = Object.fromEntries(
        Object.keys(texts).map((key) => [
          key,
          key === 'content' ? 'Vòng lặp for lặp lại. Gamble at the casino.' : 'vòng lặp for',
        ]),
      );
      return { content: JSON.stringify(answer) };
    };
    try {
      const reply = await t.http.post(
        `/creator/courses/${id}/assist`,
        { task: 'translate', lessonId, prompt: 'vi' },
        { token: creator.accessToken },
      );
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({
        task: 'translate',
        model: expect.any(String),
        suggestion: {
          from: 'en',
          to: 'vi',
          lessonId,
          texts: { title: 'vòng lặp for', content: expect.stringContaining('casino') },
        },
      });
      // The safety check ran on what came back: gambling is not for 10-year-olds.
      expect(reply.body.findings).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'content.vi' })]));
      const asked = promptOf(models.chats.at(-1)!);
      expect(asked).toContain('from English to Vietnamese');
      expect(asked).toContain('A for loop repeats a block.');
      // The whole draft over GraphQL (title, description, lesson titles), into English when asked.
      const gql = await t.http.gql(
        'mutation($id: ID!) { assistCreatorCourse(courseId: $id, input: { task: TRANSLATE, prompt: "en" }) { suggestion findings { field } } }',
        { id },
        creator.accessToken,
      );
      expect(Object.keys(gql.body.data.assistCreatorCourse.suggestion.texts).sort()).toEqual([
        'description',
        'lessons.1.title',
        'title',
      ]);
      expect(gql.body.data.assistCreatorCourse.suggestion).toMatchObject({ from: 'vi', to: 'en' });
      const listed = await t.http.get('/creator/courses', { token: creator.accessToken });
      expect(listed.body.items.find((c: { id: string }) => c.id === id).lessons[0].content.vi).toBe(
        'A for loop repeats a block. (vi)',
      );
    } finally {
      models.state.chat = () => ({ status: 500 });
    }
  });

  it('answers 502 upstream_error when the model provider fails, 400 for what it cannot do, 403/404 for others', async () => {
    const { id } = await draft('A for loop repeats a block.');
    const failed = await t.http.post(
      `/creator/courses/${id}/assist`,
      { task: 'outline', prompt: 'games' },
      { token: creator.accessToken },
    );
    expect(failed.status).toBe(502);
    expect(failed.body.error).toBe('upstream_error');
    expect(
      (await t.http.post(`/creator/courses/${id}/assist`, { task: 'translate' }, { token: creator.accessToken }))
        .status,
    ).toBe(502);
    const wrongLanguage = await t.http.post(
      `/creator/courses/${id}/assist`,
      { task: 'translate', prompt: 'klingon' },
      { token: creator.accessToken },
    );
    expect(wrongLanguage.body).toMatchObject({
      error: 'validation_failed',
      details: [{ field: 'prompt', message: expect.any(String) }],
    });
    expect(
      (await t.http.post(`/creator/courses/${id}/assist`, { task: 'poem' }, { token: creator.accessToken })).status,
    ).toBe(400);
    expect(
      (await t.http.post(`/creator/courses/${id}/assist`, { task: 'quiz' }, { token: creator.accessToken })).status,
    ).toBe(400);
    expect(
      (
        await t.http.post(
          `/creator/courses/${id}/assist`,
          { task: 'quiz', lessonId: '00000000-0000-4000-8000-000000000000' },
          { token: creator.accessToken },
        )
      ).status,
    ).toBe(404);
    expect(
      (await t.http.post(`/creator/courses/${id}/assist`, { task: 'review' }, { token: other.accessToken })).status,
    ).toBe(403);
    expect((await t.http.post(`/creator/courses/${id}/assist`, { task: 'review' })).status).toBe(401);
  });
});

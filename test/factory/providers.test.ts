import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { contentAdmin } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { type ChatRequest, promptOf, startModelServer } from '../support/model-server';
import type { SignedIn } from '../support/users';
import { request, waitForStatus } from './support';

// Research on an open-weight model, content on a commercial one, both OpenAI-compatible servers
// played by a real HTTP server; outline and quiz stay on the built-in generator.
let models: Awaited<ReturnType<typeof startModelServer>>;
let t: TestApp;
let editor: SignedIn;

beforeAll(async () => {
  models = await startModelServer();
  t = await startTestApp({
    FACTORY_PROVIDERS: 'research=open_weight,content=commercial',
    OPEN_WEIGHT_LLM_URL: models.url,
    OPEN_WEIGHT_LLM_MODEL: 'qwen-test',
    COMMERCIAL_LLM_URL: models.url,
    COMMERCIAL_LLM_MODEL: 'small-test',
    COMMERCIAL_LLM_API_KEY: 'sk-test-key',
    MODERATION_URL: models.url,
    FACTORY_STAGE_ATTEMPTS: '2',
    FACTORY_RETRY_DELAY_MS: '300',
    LLM_MALFORMED_RETRIES: '1',
    JOBS_PROCESS_EVERY_MS: '100',
  });
  editor = await contentAdmin(t);
});
afterAll(async () => {
  await t?.close();
  await models?.close();
});

const research = {
  summary: { en: 'Loops repeat work', vi: 'Vòng lặp lặp lại công việc' },
  concepts: [{ name: { en: 'for loops', vi: 'vòng lặp for' }, explanation: { en: 'Repeat n times', vi: 'Lặp n lần' } }],
};
const lessonOf = (r: ChatRequest) => Number(/Write lesson (\d+)/.exec(promptOf(r))?.[1]);
const content = (r: ChatRequest) => ({
  content: {
    en: `Lesson ${lessonOf(r)}: for loops repeat instructions.`,
    vi: `Bài ${lessonOf(r)}: vòng lặp for lặp lại câu lệnh.`,
  },
});
const good = (r: ChatRequest) => ({ content: JSON.stringify(r.model === 'qwen-test' ? research : content(r)) });
const researchCalls = () => models.chats.filter((c) => c.model === 'qwen-test');

beforeEach(() => {
  models.chats.length = 0;
  models.state.chat = good;
  models.state.flag = () => [];
});

describe('an OpenAI-compatible model provider', () => {
  it('asks each stage for JSON and stores what the model answered', async () => {
    const started = await t.http.post('/factory/generate', request({ lessonCount: 2 }), { token: editor.accessToken });
    const done = await waitForStatus(t.http, editor.accessToken, started.body.id, ['awaiting_approval']);
    expect(done.stages[0].output).toEqual(research);
    expect(Number.isInteger(done.stages[0].providerMs)).toBe(true);
    const lessons = (await t.http.get(`/factory/generations/${done.id}`, { token: editor.accessToken })).body.lessons;
    expect(lessons[1].content).toEqual({
      en: 'Lesson 2: for loops repeat instructions.',
      vi: 'Bài 2: vòng lặp for lặp lại câu lệnh.',
    });

    expect(researchCalls()).toHaveLength(1);
    const [call] = researchCalls();
    expect(call.response_format).toEqual({ type: 'json_object' });
    expect(promptOf(call)).toContain('Python for young coders');
    expect(call.headers.authorization).toBeUndefined();
    const contentCalls = models.chats.filter((c) => c.model === 'small-test');
    expect(contentCalls.map(lessonOf)).toEqual([1, 2]);
    expect(contentCalls[0].headers.authorization).toBe('Bearer sk-test-key');
  });

  it('sends a malformed answer back with the problem and keeps the corrected one', async () => {
    let calls = 0;
    models.state.chat = (r) =>
      r.model === 'qwen-test' && calls++ === 0 ? { content: 'Sure! Here are the concepts: loops, lists.' } : good(r);
    const started = await t.http.post('/factory/generate', request({ lessonCount: 1 }), { token: editor.accessToken });
    const done = await waitForStatus(t.http, editor.accessToken, started.body.id, ['awaiting_approval']);
    expect(done.stages[0]).toMatchObject({ status: 'done', attempts: 1, output: research });
    const [first, second] = researchCalls();
    expect(first.messages).toHaveLength(2);
    expect(second.messages.slice(2)).toEqual([
      { role: 'assistant', content: 'Sure! Here are the concepts: loops, lists.' },
      { role: 'user', content: expect.stringContaining('not valid: it is not JSON') },
    ]);
  });

  it('names the missing field when the JSON does not fit the schema', async () => {
    let calls = 0;
    models.state.chat = (r) =>
      r.model === 'qwen-test' && calls++ === 0
        ? { content: JSON.stringify({ summary: { en: 'only English' }, concepts: [] }) }
        : good(r);
    const started = await t.http.post('/factory/generate', request({ lessonCount: 1 }), { token: editor.accessToken });
    await waitForStatus(t.http, editor.accessToken, started.body.id, ['awaiting_approval']);
    expect(researchCalls()[1].messages.at(-1)!.content).toMatch(/not valid: summary\.vi/);
  });

  it('retries a failing stage with backoff, then fails the generation keeping the error; retry goes on from there', async () => {
    models.state.chat = (r) => (r.model === 'qwen-test' ? { status: 503 } : good(r));
    const started = await t.http.post('/factory/generate', request({ lessonCount: 1 }), { token: editor.accessToken });
    const failed = await waitForStatus(t.http, editor.accessToken, started.body.id, ['failed']);
    expect(failed.error).toBe('research: chat:qwen-test answered HTTP 503');
    expect(failed.stages[0]).toMatchObject({
      status: 'failed',
      attempts: 2,
      error: 'chat:qwen-test answered HTTP 503',
    });
    expect(failed.stages.slice(1).every((s: { status: string }) => s.status === 'pending')).toBe(true);
    const [a, b] = researchCalls();
    expect(b.at - a.at).toBeGreaterThanOrEqual(300);
    expect(researchCalls()).toHaveLength(2);

    models.state.chat = good;
    const retried = await t.http.post(`/factory/generations/${failed.id}/retry`, undefined, {
      token: editor.accessToken,
    });
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ status: 'queued', error: null });
    expect(retried.body.stages[0]).toMatchObject({ status: 'pending', attempts: 0, error: null });
    const done = await waitForStatus(t.http, editor.accessToken, failed.id, ['awaiting_approval']);
    expect(done.stages[0]).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('fails after the malformed answers of every attempt, saying so', async () => {
    models.state.chat = (r) => (r.model === 'qwen-test' ? { content: '{"summary": "not what was asked"}' } : good(r));
    const started = await t.http.post('/factory/generate', request({ lessonCount: 1 }), { token: editor.accessToken });
    const failed = await waitForStatus(t.http, editor.accessToken, started.body.id, ['failed']);
    expect(failed.error).toMatch(/^research: chat:qwen-test gave malformed output 2 times: summary/);
    // Two attempts, each asking once and once more after the correction.
    expect(researchCalls()).toHaveLength(4);
  });
});

describe('the safety check on generated lessons', () => {
  it('flags a lesson with personal data and a link, blocks approval, and clears once the lesson is written again', async () => {
    models.state.chat = (r) => {
      if (r.model !== 'small-test' || lessonOf(r) !== 1 || promptOf(r).includes('rejected by the child-safety check'))
        return good(r);
      return {
        content: JSON.stringify({
          content: {
            en: 'Call me on 0912 345 678 or see https://example.com/loops',
            vi: 'Gọi cho tôi số 0912 345 678 nhé',
          },
        }),
      };
    };
    const started = await t.http.post('/factory/generate', request({ lessonCount: 2 }), { token: editor.accessToken });
    const flagged = await waitForStatus(t.http, editor.accessToken, started.body.id, ['flagged']);
    expect(flagged.progress).toBe(100);
    expect(flagged.stages[4].output).toMatchObject({ flaggedLessons: [1], checkedBy: ['builtin', 'moderation'] });
    const before = (await t.http.get(`/factory/generations/${flagged.id}`, { token: editor.accessToken })).body.lessons;
    expect(before[0].flagged).toBe(true);
    expect(
      before[0].findings.map((f: { category: string; field: string }) => `${f.category}:${f.field}`).sort(),
    ).toEqual(['external_link:content.en', 'personal_data:content.en', 'personal_data:content.vi']);
    expect(before[1]).toMatchObject({ flagged: false, findings: [] });

    const refused = await t.http.post(`/factory/generations/${flagged.id}/approve`, undefined, {
      token: editor.accessToken,
    });
    expect(refused.status).toBe(409);

    const again = await t.http.post(`/factory/generations/${flagged.id}/regenerate`, undefined, {
      token: editor.accessToken,
    });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('queued');
    const done = await waitForStatus(t.http, editor.accessToken, flagged.id, ['awaiting_approval']);
    const after = (await t.http.get(`/factory/generations/${done.id}`, { token: editor.accessToken })).body.lessons;
    expect(after[0]).toMatchObject({
      flagged: false,
      findings: [],
      revision: 1,
      content: { en: 'Lesson 1: for loops repeat instructions.' },
    });
    expect(after[1]).toEqual(before[1]);
    const rewrite = models.chats.filter((c) => c.model === 'small-test').at(-1)!;
    expect(promptOf(rewrite)).toMatch(/rejected by the child-safety check for: personal_data/);
    // Only the flagged lesson was written again: lessons 1 and 2, then lesson 1 once more.
    expect(models.chats.filter((c) => c.model === 'small-test').map(lessonOf)).toEqual([1, 2, 1]);
    expect(
      (await t.http.post(`/factory/generations/${done.id}/approve`, undefined, { token: editor.accessToken })).status,
    ).toBe(200);
  });

  it('adds the findings of the configured moderation endpoint', async () => {
    models.state.chat = (r) =>
      r.model === 'small-test'
        ? {
            content: JSON.stringify({
              content: { en: 'The knights fight a dragon duel with loops.', vi: 'Các hiệp sĩ đấu với rồng.' },
            }),
          }
        : good(r);
    models.state.flag = (text) => (text.includes('dragon duel') ? ['violence/graphic'] : []);
    const started = await t.http.post('/factory/generate', request({ lessonCount: 1 }), { token: editor.accessToken });
    const flagged = await waitForStatus(t.http, editor.accessToken, started.body.id, ['flagged']);
    const lessons = (await t.http.get(`/factory/generations/${flagged.id}`, { token: editor.accessToken })).body
      .lessons;
    expect(lessons[0].findings).toEqual([
      {
        category: 'violence',
        source: 'moderation',
        field: 'content.en',
        excerpt: 'The knights fight a dragon duel with loops.',
      },
    ]);
    expect(models.moderated.at(-1)).toContain('The knights fight a dragon duel with loops.');
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signature } from '../../src/ai/ai.backend';
import { type AiBackendFake, startAiBackend } from '../support/ai-backend';
import { homeOf } from '../support/regions';
import { startTestApp, type TestApp } from '../support/app';
import { linkFamily } from '../support/family';
import { type SmtpServer, startSmtpServer } from '../support/smtp';
import { adultSignup, learnerOfAge, type SignedIn, signUp, verifiedGuardian } from '../support/users';

const SECRET = 'test-ai-backend-secret-0123456789';
let t: TestApp;
let smtp: SmtpServer;
let backend: AiBackendFake;

beforeAll(async () => {
  smtp = await startSmtpServer();
  backend = await startAiBackend();
  t = await startTestApp({
    SMTP_URL: smtp.url,
    AI_BACKEND_URL: backend.url,
    AI_BACKEND_SECRET: SECRET,
    AI_QUOTA_FREE: '50',
    AI_MESSAGE_MAX_LENGTH: '50',
    AI_BACKEND_TIMEOUT_MS: '500',
  });
});
afterAll(async () => {
  await t?.close();
  await backend?.close();
  await smtp?.close();
});
beforeEach(() => {
  Object.assign(backend.state, { behaviour: 'ok', delayMs: 0, streamAborted: false });
});

/** A statement on the database of the account it is about, its id the last parameter (its home region's); global's without one. */
async function sql(query: string, params: unknown[] = []) {
  const home = params.length ? await homeOf(t, String(params.at(-1))) : t.app.deps;
  return home.orm.em.getConnection().execute(query, params);
}
const chat = (who: SignedIn | undefined, message = 'What is a loop?') =>
  t.http.post('/ai/chat', { message }, { token: who?.accessToken });
const gqlChat = (who: SignedIn, message = 'What is a loop?') =>
  t.http.gql(
    'mutation($m: String!) { aiChat(input: { message: $m }) { conversationId reply tokens } }',
    { m: message },
    who.accessToken,
  );

/** An adult learner who gave the ai_conversation consent. */
async function adultWithConsent(): Promise<SignedIn> {
  const learner = await learnerOfAge(t, 20);
  await t.http.post('/consent/grant', { consentTypeId: 'ai_conversation' }, { token: learner.accessToken });
  return learner;
}

/** A 14-year-old and their guardian, who gave the consents named. */
async function childWithGuardian(consents: string[] = ['ai_conversation']) {
  const guardian = await verifiedGuardian(t, smtp, { country: 'US' });
  const learner = await learnerOfAge(t, 14, { country: 'US' });
  await linkFamily(t, guardian, learner);
  for (const consentTypeId of consents)
    await t.http.post('/consent/grant', { consentTypeId, learnerId: learner.id }, { token: guardian.accessToken });
  return { guardian, learner };
}

describe('POST /ai/chat', () => {
  it("forwards an allowed message with a signed identity, never the caller's token, and counts it", async () => {
    const learner = await adultWithConsent();
    const reply = await chat(learner, 'Hi there');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ conversationId: 'conv-1', reply: 'You said: Hi there', tokens: 42 });
    for (const header of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
      expect(reply.headers.get(header)).toBeTruthy();

    const request = backend.seen.at(-1)!;
    expect(request.headers).toMatchObject({
      'x-ai-user-id': learner.id,
      'x-ai-user-roles': 'learner',
      'x-ai-user-tier': 'free',
      'x-ai-user-locale': 'en',
      'x-ai-memory': 'false',
    });
    expect(request.headers.authorization).toBeUndefined();
    expect(JSON.stringify(request.headers)).not.toContain(learner.accessToken);
    const identity = {
      userId: learner.id,
      roles: ['learner'],
      tier: 'free',
      locale: 'en',
      memory: false,
      requestId: '',
    };
    const expected = signature(
      SECRET,
      String(request.headers['x-ai-timestamp']),
      'POST',
      '/chat',
      identity,
      request.body,
    );
    expect(request.headers['x-ai-signature']).toBe(`v1=${expected}`);

    const quota = await t.http.get('/ai/quota', { token: learner.accessToken });
    expect(quota.body).toMatchObject({
      tier: 'free',
      period: 'day',
      limit: 50,
      used: 1,
      remaining: 49,
      resetsAt: expect.any(String),
    });
    const gql = await gqlChat(learner, 'Again');
    expect(gql.body.data.aiChat.reply).toBe('You said: Again');
    expect((await t.http.gql('{ aiQuota { used remaining } }', {}, learner.accessToken)).body.data.aiQuota).toEqual({
      used: 2,
      remaining: 48,
    });
  });

  it('refuses bad input with 400 and details', async () => {
    const learner = await adultWithConsent();
    for (const body of [{}, { message: '' }, { message: '   ' }, { message: 'x'.repeat(51) }, { message: 5 }]) {
      const reply = await t.http.post('/ai/chat', body, { token: learner.accessToken });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body.details[0].field).toBe('message');
    }
    const gql = await gqlChat(learner, 'x'.repeat(51));
    expect(gql.body.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('takes a conversation id as GraphQL coerces it, up to 100 characters, and refuses a longer one or an unknown field with their details', async () => {
    const learner = await adultWithConsent();
    const gql = (input: object) =>
      t.http.gql(
        'mutation($input: AiChatInput!) { aiChat(input: $input) { conversationId } }',
        { input },
        learner.accessToken,
      );
    const longest = 'c'.repeat(100);
    const taken: [object, string][] = [
      [{ message: 'Hi', conversationId: longest }, longest],
      [{ message: 'Hi', conversationId: null }, 'conv-1'],
      [{ message: 'Hi', conversationId: 7 }, '7'],
    ];
    for (const [body, conversationId] of taken) {
      const reply = await t.http.post('/ai/chat', body, { token: learner.accessToken });
      expect(reply.status, JSON.stringify(body)).toBe(200);
      expect(reply.body.conversationId).toBe(conversationId);
      expect((await gql(body)).body.data.aiChat.conversationId).toBe(conversationId);
    }
    const refused: [object, string][] = [
      [{ message: 'Hi', conversationId: `${longest}c` }, 'conversationId'],
      [{ message: 'Hi', mood: 'happy' }, 'mood'],
      [{ message: 'Hi', conversationId: ['c1'] }, 'conversationId'],
    ];
    for (const [body, field] of refused) {
      const reply = await t.http.post('/ai/chat', body, { token: learner.accessToken });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toMatchObject({ error: 'validation_failed', details: [{ field }] });
      expect((await gql(body)).body.errors?.[0].extensions.code, JSON.stringify(body)).toBe('VALIDATION_FAILED');
    }
  });
});

describe('the checks, in order, in REST and GraphQL', () => {
  async function expectRefused(who: SignedIn | undefined, status: number, error: string) {
    const rest = await chat(who);
    expect(rest.status).toBe(status);
    expect(rest.body.error).toBe(error);
    if (who) expect((await gqlChat(who)).body.errors?.[0].extensions.code).toBe(error.toUpperCase());
  }

  it('1. a token', async () => {
    await expectRefused(undefined, 401, 'unauthenticated');
    expect(
      (await t.http.gql('mutation { aiChat(input: { message: "hi" }) { reply } }')).body.errors?.[0].extensions.code,
    ).toBe('UNAUTHENTICATED');
  });

  it('2. an active learner (under 13 with a guardian)', async () => {
    await expectRefused(await learnerOfAge(t, 10), 403, 'guardian_required');
  });

  it("3. the ai_conversation consent, a guardian's under 18", async () => {
    await expectRefused(await learnerOfAge(t, 20), 403, 'consent_required');
    const { learner } = await childWithGuardian([]);
    await expectRefused(learner, 403, 'guardian_consent_required');
  });

  it("4. the guardian's switch", async () => {
    const { guardian, learner } = await childWithGuardian();
    expect((await chat(learner)).status).toBe(200);
    await t.http.put(`/guardian/learners/${learner.id}/ai-access`, { enabled: false }, { token: guardian.accessToken });
    await expectRefused(learner, 403, 'forbidden');
  });

  it("5. for memory: the tier, the ai_memory consent and the guardian's memory switch; the memory flag follows", async () => {
    const { guardian, learner } = await childWithGuardian(['ai_conversation']);
    const memory = () => t.http.get('/ai/memory', { token: learner.accessToken });
    expect((await memory()).body.error).toBe('tier_required');
    await sql('update users set tier = ? where id = ?', ['starter', learner.id]);
    // A tier written outside the service reaches this instance's cache of callers with the
    // database's notification, a moment after the statement: not necessarily before the next request.
    await expect.poll(async () => (await memory()).body.error, { timeout: 2000 }).toBe('guardian_consent_required');
    await t.http.post(
      '/consent/grant',
      { consentTypeId: 'ai_memory', learnerId: learner.id },
      { token: guardian.accessToken },
    );
    const allowed = await memory();
    expect(allowed.status).toBe(200);
    expect(allowed.body).toEqual({
      items: [{ id: 'mem-1', content: 'Likes Python', createdAt: '2026-11-01T10:00:00Z' }],
    });
    await chat(learner);
    expect(backend.seen.at(-1)!.headers['x-ai-memory']).toBe('true');

    await t.http.put(
      `/guardian/learners/${learner.id}/ai-access`,
      { memoryEnabled: false },
      { token: guardian.accessToken },
    );
    const switchedOff = await memory();
    expect(switchedOff.status).toBe(403);
    expect(switchedOff.body.error).toBe('forbidden');
    expect((await t.http.gql('{ aiMemory }', {}, learner.accessToken)).body.errors?.[0].extensions.code).toBe(
      'FORBIDDEN',
    );
    await chat(learner);
    expect(backend.seen.at(-1)!.headers['x-ai-memory']).toBe('false');

    // Forgetting is always allowed.
    const forgot = await t.http.delete('/ai/memory', { token: learner.accessToken });
    expect(forgot.status).toBe(204);
    expect(backend.seen.at(-1)).toMatchObject({ method: 'DELETE', path: '/memory' });
  });

  it("6. the quota of the day, lowered by the guardian's limit", async () => {
    const { guardian, learner } = await childWithGuardian();
    await t.http.put(
      `/guardian/learners/${learner.id}/ai-access`,
      { dailyMessageLimit: 2 },
      { token: guardian.accessToken },
    );
    expect((await chat(learner)).status).toBe(200);
    expect((await gqlChat(learner)).body.data.aiChat).toBeTruthy();
    const over = await chat(learner);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ error: 'quota_exceeded', message: expect.any(String), retryAfter: expect.any(Number) });
    expect(over.body.retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect(Number(over.headers.get('retry-after'))).toBe(over.body.retryAfter);
    expect((await gqlChat(learner)).body.errors?.[0].extensions).toMatchObject({
      code: 'QUOTA_EXCEEDED',
      retryAfter: expect.any(Number),
    });
    expect((await t.http.get('/ai/quota', { token: learner.accessToken })).body).toMatchObject({
      limit: 2,
      used: 2,
      remaining: 0,
    });
  });

  it('lets exactly the remaining messages through when 20 arrive at once', async () => {
    const learner = await adultWithConsent();
    await sql(
      `insert into ai_usage (user_id, day, messages, tokens) values (?, (now() at time zone 'utc')::date, 45, 0)`,
      [learner.id],
    );
    const replies = await Promise.all(Array.from({ length: 20 }, () => chat(learner)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
    expect(replies.filter((r) => r.status === 429).every((r) => r.body.error === 'quota_exceeded')).toBe(true);
    expect((await t.http.get('/ai/quota', { token: learner.accessToken })).body).toMatchObject({
      used: 50,
      remaining: 0,
    });
  });
});

describe('conversations', () => {
  it("lists the backend's conversations in REST and GraphQL", async () => {
    const learner = await adultWithConsent();
    const reply = await t.http.get('/ai/conversations', { token: learner.accessToken });
    expect(reply.status).toBe(200);
    expect(reply.body.items[0]).toMatchObject({ id: 'conv-1', title: 'Loops' });
    expect((await t.http.gql('{ aiConversations }', {}, learner.accessToken)).body.data.aiConversations[0].id).toBe(
      'conv-1',
    );
    expect((await t.http.get('/ai/conversations')).status).toBe(401);
  });
});

describe('streaming', () => {
  // A client that accepts compression still gets each event as it comes, served before express or by it (a query string).
  it.each(['/ai/chat', '/ai/chat?via=express'])(
    'passes events through as they arrive, uncompressed, and records the usage at the end (%s)',
    async (path) => {
      const learner = await adultWithConsent();
      const started = Date.now();
      const response = await fetch(`${t.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${learner.accessToken}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'accept-encoding': 'gzip, br',
        },
        body: JSON.stringify({ message: 'Stream it' }),
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      expect(response.headers.get('content-encoding')).toBeNull();
      expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
      const arrivals: number[] = [];
      let text = '';
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        arrivals.push(Date.now() - started);
        text += Buffer.from(chunk).toString();
      }
      expect(text).toContain('data: {"delta":"part 0 "}');
      expect(text).toContain('event: done');
      // The first piece came long before the backend finished (5 pieces, 60 ms apart).
      expect(arrivals.length).toBeGreaterThan(1);
      expect(arrivals[0]).toBeLessThan(arrivals.at(-1)! - 150);
      await expect
        .poll(async () => (await sql('select tokens from ai_usage where user_id = ?', [learner.id]))[0]?.tokens)
        .toBe('7');
    },
  );

  it('aborts the backend request when the client goes away', async () => {
    const learner = await adultWithConsent();
    backend.state.streamChunks = 50;
    const leaving = new AbortController();
    const response = await fetch(`${t.url}/ai/chat`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${learner.accessToken}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ message: 'Long answer' }),
      signal: leaving.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    leaving.abort();
    await expect.poll(() => backend.state.streamAborted, { timeout: 3000 }).toBe(true);
    backend.state.streamChunks = 5;
  });

  it('runs the same checks before streaming', async () => {
    const response = await t.http.rest('POST', '/ai/chat', {
      headers: { accept: 'text/event-stream' },
      body: { message: 'hi' },
    });
    expect(response.status).toBe(401);
    const noConsent = await learnerOfAge(t, 20);
    const refused = await t.http.rest('POST', '/ai/chat', {
      token: noConsent.accessToken,
      headers: { accept: 'text/event-stream' },
      body: { message: 'hi' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('consent_required');
  });
});

describe('backend faults', () => {
  it("answers 502 for a 5xx and the backend's status for a 4xx, and gives the message back to the quota", async () => {
    const learner = await adultWithConsent();
    backend.state.behaviour = 'fail';
    const failed = await chat(learner);
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ error: 'upstream_error', reason: 'ai_service_error', message: expect.any(String) });
    backend.state.behaviour = 'refuse';
    const refused = await chat(learner);
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe('not_found');
    expect((await t.http.get('/ai/quota', { token: learner.accessToken })).body.used).toBe(0);
  });

  it('answers 503 when the backend is too slow', async () => {
    const learner = await adultWithConsent();
    backend.state.delayMs = 800;
    const slow = await chat(learner);
    expect(slow.status).toBe(503);
    expect(slow.body.error).toBe('upstream_unavailable');
  });
});

describe('the circuit breaker', () => {
  it('fails fast while the backend is down and closes again once it answers', async () => {
    const down = await startAiBackend();
    const app = await startTestApp(
      { AI_BACKEND_URL: down.url, AI_BACKEND_SECRET: SECRET, AI_BREAKER_FAILURES: '3', AI_BREAKER_RESET_MS: '700' },
      t.databaseUrl,
    );
    try {
      const learner = await adultWithConsent();
      const port = down.port;
      await down.close();
      for (let i = 0; i < 3; i++)
        expect((await app.http.post('/ai/chat', { message: 'hi' }, { token: learner.accessToken })).status).toBe(503);
      const back = await startAiBackend(port);
      const fast = await app.http.post('/ai/chat', { message: 'hi' }, { token: learner.accessToken });
      expect(fast.status).toBe(503);
      expect(fast.body.message).toMatch(/unavailable/i);
      expect(back.seen).toHaveLength(0);
      await new Promise((resolve) => setTimeout(resolve, 800));
      const recovered = await app.http.post('/ai/chat', { message: 'hi' }, { token: learner.accessToken });
      expect(recovered.status).toBe(200);
      expect(back.seen).toHaveLength(1);
      await back.close();
    } finally {
      await app.close();
    }
  });
});

describe('limits and configuration', () => {
  it('rate-limits /ai per user with the headers on every answer', async () => {
    const app = await startTestApp(
      { AI_BACKEND_URL: backend.url, AI_BACKEND_SECRET: SECRET, RATE_LIMIT_AI: '3' },
      t.databaseUrl,
    );
    try {
      const learner = await adultWithConsent();
      const replies = [];
      for (let i = 0; i < 3; i++)
        replies.push(await app.http.post('/ai/chat', { message: 'hi' }, { token: learner.accessToken }));
      replies.push(await app.http.get('/ai/quota', { token: learner.accessToken }));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      expect(replies.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0']);
      expect(replies[3].body).toEqual({
        error: 'rate_limited',
        message: expect.any(String),
        retryAfter: expect.any(Number),
      });
      const gql = await app.http.gql('{ aiQuota { used } }', {}, learner.accessToken);
      expect(gql.body.errors?.[0].extensions.code).toBe('RATE_LIMITED');
      // A limited chat takes no message of the quota (the one its quota's statement took beside the
      // count is given back before it is answered), is never sent to the backend, and is answered
      // 429 before what it sent is judged, streamed or not.
      const sentBefore = backend.seen.length;
      const limited = [
        await app.http.post('/ai/chat', { message: 'hi' }, { token: learner.accessToken }),
        await app.http.post('/ai/chat', { message: 42 }, { token: learner.accessToken }),
        await app.http.post(
          '/ai/chat',
          { message: 'hi' },
          { token: learner.accessToken, headers: { accept: 'text/event-stream' } },
        ),
      ];
      expect(limited.map((r) => [r.status, r.body.error])).toEqual(Array(3).fill([429, 'rate_limited']));
      expect(backend.seen.length).toBe(sentBefore);
      const [usage] = await (
        await homeOf(app, learner.id)
      ).sql.unlogged<{ messages: number }>('select messages from ai_usage where user_id = ?', [learner.id]);
      expect(usage.messages).toBe(3);
    } finally {
      await app.close();
    }
  });

  it('answers 503 saying what to configure without AI_BACKEND_URL; the quota still works', async () => {
    const app = await startTestApp({}, t.databaseUrl);
    try {
      const learner = await adultWithConsent();
      const reply = await app.http.post('/ai/chat', { message: 'hi' }, { token: learner.accessToken });
      expect(reply.status).toBe(503);
      expect(reply.body).toEqual({
        error: 'upstream_unavailable',
        reason: 'ai_not_configured',
        message: expect.stringContaining('AI_BACKEND_URL'),
      });
      expect((await app.http.get('/ai/quota', { token: learner.accessToken })).body).toMatchObject({
        limit: 20,
        used: 0,
      });
      expect((await app.http.get('/ai/conversations', { token: learner.accessToken })).status).toBe(503);
    } finally {
      await app.close();
    }
  });

  it('refuses AI_BACKEND_URL without a secret at start-up', async () => {
    await expect(startTestApp({ AI_BACKEND_URL: backend.url }, t.databaseUrl)).rejects.toThrow(/AI_BACKEND_SECRET/);
  });
});

describe('adults without a learner role', () => {
  it('follow the same checks', async () => {
    const guardian = await signUp(t, adultSignup());
    expect((await chat(guardian)).body.error).toBe('consent_required');
  });
});

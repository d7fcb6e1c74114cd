import { makeDataDir } from '../support/data-dir';
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiBackendFake, startAiBackend } from '../support/ai-backend';
import { homeOf } from '../support/regions';
import { startTestApp, type TestApp } from '../support/app';
import { freePort } from '../support/ports';
import { fewestStatements, fewestStatementsSent } from '../support/sql';
import pg from 'pg';
import { UsageRecorder } from '../../src/ai/ai.usage';
import type { CallOptions } from '../support/http';
import { sizeInBytes } from '../../src/kernel/body-limit';
import { learnerOfAge, type SignedIn } from '../support/users';

const SECRET = 'test-ai-backend-secret-0123456789';
const JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';
const env = { AI_BACKEND_URL: '', AI_BACKEND_SECRET: SECRET, AI_QUOTA_FREE: '50' };
let backend: AiBackendFake;
/** Two instances of the service on one database, as deployed behind a load balancer. */
let one: TestApp;
let two: TestApp;

beforeAll(async () => {
  backend = await startAiBackend();
  env.AI_BACKEND_URL = backend.url;
  one = await startTestApp(env);
  two = await startTestApp(env, one.databaseUrl);
});
afterAll(async () => {
  await two?.close();
  await one?.close();
  await backend?.close();
});

/** A statement on the database of the account it is about, its id the last parameter (its home region's); global's without one. */
async function sql(query: string, params: unknown[] = []) {
  const home = params.length ? await homeOf(one, String(params.at(-1))) : one.app.deps;
  return home.orm.em.getConnection().execute(query, params);
}
const chat = (t: TestApp, who: SignedIn) =>
  t.http.post('/ai/chat', { message: 'What is a loop?' }, { token: who.accessToken });

async function adultWithConsent(overrides: Record<string, unknown> = {}): Promise<SignedIn> {
  const learner = await learnerOfAge(one, 20, overrides);
  await one.http.post('/consent/grant', { consentTypeId: 'ai_conversation' }, { token: learner.accessToken });
  return learner;
}

/** Asks `t` until it refuses with `error`; returns how long that took. */
async function refusedWithin(t: TestApp, who: SignedIn, error: string, limitMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const reply = await chat(t, who);
    if (reply.status !== 200) {
      expect(reply.body.error).toBe(error);
      return Date.now() - started;
    }
    if (Date.now() - started > limitMs) throw new Error(`still answered 200 after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('cached decisions of the AI proxy', () => {
  it('a chat whose decision is known costs one SQL statement (the quota); tokens follow in batches', async () => {
    const learner = await adultWithConsent();
    expect((await chat(one, learner)).status).toBe(200);
    expect((await fewestStatements(one, async () => expect((await chat(one, learner)).status).toBe(200))).count).toBe(
      1,
    );
  });

  it("a chat whose decision is known sends two statements: its limits in one (the default and the AI buckets), and the quota's", async () => {
    const learner = await adultWithConsent();
    expect((await chat(one, learner)).status).toBe(200);
    const { statements } = await fewestStatementsSent(one, async () =>
      expect((await chat(one, learner)).status).toBe(200),
    );
    const kindOf = (statement: string) =>
      statement.includes('"rate_limits"') ? 'limits' : statement.includes('ai_usage') ? 'quota' : statement;
    expect(statements.map(kindOf)).toEqual(['limits', 'quota']);
  });

  it("a chat sends its quota's statement while its limits are being counted: the two round trips overlap", async () => {
    const learner = await adultWithConsent();
    expect((await chat(one, learner)).status).toBe(200);
    const events: string[] = [];
    const prototype = pg.Client.prototype as unknown as { query(...args: unknown[]): unknown };
    const original = prototype.query;
    const kindOf = (text: string) =>
      text.includes('"rate_limits"') ? 'limits' : text.includes('ai_usage') ? 'quota' : undefined;
    prototype.query = function (this: unknown, ...args: unknown[]) {
      const [query] = args as [string | { text: string }];
      const kind = kindOf(typeof query === 'string' ? query : query.text);
      if (kind) events.push(`${kind} sent`);
      // A pool asks its client with a callback, a client of its own without one.
      const callback = args.at(-1);
      if (kind && typeof callback === 'function')
        args[args.length - 1] = (...outcome: unknown[]) => {
          events.push(`${kind} answered`);
          return (callback as (...a: unknown[]) => unknown)(...outcome);
        };
      const answer = original.apply(this, args);
      if (kind && answer instanceof Promise)
        answer.finally(() => events.push(`${kind} answered`)).catch(() => undefined);
      return answer;
    };
    try {
      expect((await chat(one, learner)).status).toBe(200);
    } finally {
      prototype.query = original;
    }
    expect(events.slice(0, 2)).toEqual(['limits sent', 'quota sent']);
    expect(events).toContain('limits answered');
  });

  it('counts every chat in the default bucket, refused ones too, and answers a used-up one 429 before its token or body is judged', async () => {
    // Counted in the table every instance shares: the learner's grant of consent (on `one`) is the first of four.
    const limited = await startTestApp({ ...env, RATE_LIMIT_DEFAULT: '4', TRUST_PROXY: '1' }, one.databaseUrl);
    try {
      const learner = await adultWithConsent();
      const send = (options: CallOptions, path = '/ai/chat') =>
        limited.http.rest('POST', path, { token: learner.accessToken, ...options });
      const answers = [
        await send({ body: { message: 'What is a loop?' } }),
        await send({ raw: '{"message":' }),
        await send({ body: { message: 7 } }),
        await send({ raw: '{"message":' }),
        await send({ body: { message: 7 } }),
        await send({ body: { message: 'What is a loop?' } }),
        await send({ body: { message: 'What is a loop?' } }, '/ai/chat?via=express'),
      ];
      expect(answers.map((a) => [a.status, a.body.error])).toEqual([
        [200, undefined],
        [400, 'invalid_json'],
        [400, 'validation_failed'],
        ...Array(4).fill([429, 'rate_limited']),
      ]);
      expect(answers.map((a) => a.headers.get('x-ratelimit-remaining'))).toEqual(['2', '1', '0', '0', '0', '0', '0']);
      expect((await sql('select messages from ai_usage where user_id = ?', [learner.id]))[0]).toEqual({ messages: 1 });
      // Without a token, the address is counted: refused 401 until its bucket is used up.
      const anonymous = [];
      for (let i = 0; i < 5; i++) {
        const from = { headers: { 'x-forwarded-for': '203.0.113.41' } };
        anonymous.push((await limited.http.post('/ai/chat', { message: 'hi' }, from)).status);
      }
      expect(anonymous).toEqual([401, 401, 401, 401, 429]);
    } finally {
      await limited.close();
    }
  });

  it('refuses text no request may carry, as the GraphQL path does', async () => {
    const learner = await adultWithConsent();
    for (const message of ['a\u0000b', 'a\ud800b']) {
      const reply = await one.http.post('/ai/chat', { message }, { token: learner.accessToken });
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ error: 'validation_failed', details: [{ field: 'message' }] });
    }
    const unknownField = await one.http.post('/ai/chat', { message: 'hi', extra: 1 }, { token: learner.accessToken });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.details[0].field).toBe('extra');
  });

  it('a revoked consent refuses the very next request on the instance that took the revocation', async () => {
    const learner = await adultWithConsent();
    for (let i = 0; i < 3; i++) expect((await chat(one, learner)).status).toBe(200);
    const revoked = await one.http.post(
      '/consent/revoke',
      { consentTypeId: 'ai_conversation' },
      { token: learner.accessToken },
    );
    expect(revoked.status).toBe(200);
    const next = await chat(one, learner);
    expect(next.status).toBe(403);
    expect(next.body.error).toBe('consent_required');
    // And granted again, the next request passes.
    await one.http.post('/consent/grant', { consentTypeId: 'ai_conversation' }, { token: learner.accessToken });
    expect((await chat(one, learner)).status).toBe(200);
  });

  it('a revoked consent refuses requests on another instance within one second', async () => {
    const learner = await adultWithConsent();
    expect((await chat(two, learner)).status).toBe(200);
    expect((await chat(two, learner)).status).toBe(200);
    await one.http.post('/consent/revoke', { consentTypeId: 'ai_conversation' }, { token: learner.accessToken });
    expect(await refusedWithin(two, learner, 'consent_required', 1000)).toBeLessThan(1000);
  });

  it('a change made outside the service (SQL by hand) reaches every instance: account suspended, tier changed', async () => {
    const learner = await adultWithConsent();
    expect((await chat(one, learner)).status).toBe(200);
    expect((await chat(two, learner)).status).toBe(200);
    expect(backend.seen.at(-1)!.headers['x-ai-user-tier']).toBe('free');
    await sql('update users set tier = ? where id = ?', ['pro', learner.id]);
    await expect
      .poll(
        async () =>
          (await chat(two, learner)).status === 200 ? backend.seen.at(-1)!.headers['x-ai-user-tier'] : 'refused',
        { timeout: 1000, interval: 20 },
      )
      .toBe('pro');
    await sql('update users set status = ? where id = ?', ['suspended', learner.id]);
    await refusedWithin(one, learner, 'account_suspended', 1000);
    await refusedWithin(two, learner, 'account_suspended', 1000);
  });

  it('a consent removed by hand in SQL reaches every instance; each table that decides is watched by its own area, not the AI', async () => {
    const learner = await adultWithConsent();
    expect((await chat(one, learner)).status).toBe(200);
    expect((await chat(two, learner)).status).toBe(200);
    await sql('delete from consents where subject_id = ?', [learner.id]);
    await refusedWithin(one, learner, 'consent_required', 1000);
    await refusedWithin(two, learner, 'consent_required', 1000);
    const triggers = await sql(
      `select c.relname as "table", t.tgname as "trigger" from pg_trigger t join pg_class c on c.oid = t.tgrelid
       where not t.tgisinternal and t.tgfoid = 'access_changed_notify'::regproc order by 1, 2`,
    );
    expect(triggers).toEqual([
      { table: 'consents', trigger: 'consent_access_changed' },
      { table: 'country_policies', trigger: 'country_policy_changed' },
      { table: 'learner_ai_access', trigger: 'ai_access_setting_changed' },
      { table: 'users', trigger: 'account_deleted_notify' },
    ]);
  });

  it("a guardian's daily limit lowered on one instance holds on the other", async () => {
    const learner = await adultWithConsent();
    expect((await chat(two, learner)).status).toBe(200);
    // Guardians set it for children; for this adult the row is written as an admin tool would.
    await sql(
      'insert into learner_ai_access (learner_id, enabled, memory_enabled, daily_message_limit, updated_at) values (?, true, true, 1, now())',
      [learner.id],
    );
    await expect.poll(async () => (await chat(two, learner)).status, { timeout: 1000, interval: 20 }).toBe(429);
  });
});

describe('the chat served before express', () => {
  /** Headers a client reads; X-Request-Id is new each time unless the client names it. */
  const SHOWN = [
    'content-type',
    'access-control-allow-origin',
    'access-control-allow-credentials',
    'access-control-expose-headers',
    'vary',
    'x-ratelimit-limit',
    'retry-after',
    'x-request-id',
  ];
  const answer = async (path: string, options: CallOptions) => {
    const reply = await one.http.rest('POST', path, {
      ...options,
      headers: { origin: one.app.deps.config.WEB_ORIGIN, 'x-request-id': 'same-id-both-ways', ...options.headers },
    });
    const { requestId: _, ...body } = reply.body ?? {};
    return {
      status: reply.status,
      body,
      headers: Object.fromEntries(SHOWN.map((name) => [name, reply.headers.get(name)])),
    };
  };

  it('answers every case as the express pipeline does (reached with a query string): status, error object, headers', async () => {
    const learner = await adultWithConsent();
    const withoutConsent = await learnerOfAge(one, 20);
    const limit = sizeInBytes(one.app.deps.config.BODY_LIMIT);
    const cases: [string, CallOptions, number][] = [
      ['answered', { token: learner.accessToken, body: { message: 'What is a loop?' } }, 200],
      ['no token', { body: { message: 'hi' } }, 401],
      ['a token that is not one', { token: 'not-a-token', body: { message: 'hi' } }, 401],
      ['no consent', { token: withoutConsent.accessToken, body: { message: 'hi' } }, 403],
      ['malformed JSON', { token: learner.accessToken, raw: '{"message":' }, 400],
      ['JSON that is not an object', { token: learner.accessToken, raw: '"hi"' }, 400],
      ['a field of the wrong type', { token: learner.accessToken, body: { message: 7 } }, 400],
      [
        'not JSON at all',
        { token: learner.accessToken, raw: 'message=hi', headers: { 'content-type': 'text/plain' } },
        415,
      ],
      ['a body over BODY_LIMIT', { token: learner.accessToken, body: { message: 'x'.repeat(limit) } }, 413],
    ];
    for (const [what, options, status] of cases) {
      const direct = await answer('/ai/chat', options);
      expect(direct.status, what).toBe(status);
      if (status !== 200) expect(typeof direct.body.error, what).toBe('string');
      expect(direct.headers['x-request-id'], what).toBe('same-id-both-ways');
      expect(direct.headers['access-control-allow-origin'], what).toBe(one.app.deps.config.WEB_ORIGIN);
      expect(await answer('/ai/chat?via=express', options), what).toEqual(direct);
    }
  });
});

describe('the daily quota across instances', () => {
  it('lets exactly the remaining messages through when 20 arrive at once at two instances', async () => {
    const learner = await adultWithConsent();
    await sql(
      `insert into ai_usage (user_id, day, messages, tokens) values (?, (now() at time zone 'utc')::date, 45, 0)`,
      [learner.id],
    );
    const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => chat(i % 2 ? one : two, learner)));
    expect(replies.filter((r) => r.status === 200)).toHaveLength(5);
    expect(replies.filter((r) => r.status === 429).every((r) => r.body.error === 'quota_exceeded')).toBe(true);
    expect((await one.http.get('/ai/quota', { token: learner.accessToken })).body).toMatchObject({
      used: 50,
      remaining: 0,
    });
    expect((await two.http.get('/ai/quota', { token: learner.accessToken })).body).toMatchObject({
      used: 50,
      remaining: 0,
    });
  });
});

describe('token usage written in batches', () => {
  it('adds up the tokens of many answers in the day row', async () => {
    const learner = await adultWithConsent();
    await Promise.all(Array.from({ length: 10 }, (_, i) => chat(i % 2 ? one : two, learner)));
    // The fake backend reports 42 tokens per answer.
    await expect
      .poll(async () => (await sql('select messages, tokens from ai_usage where user_id = ?', [learner.id]))[0], {
        timeout: 3000,
      })
      .toEqual({ messages: 10, tokens: '420' });
  });

  it('takes the day rows in the order of their people, as the quota does, so that the two never deadlock', async () => {
    // Of a global country: the rows are held and flushed on the test's own database, global's.
    const inGlobal = () => adultWithConsent({ country: 'DE' });
    const people = await Promise.all([inGlobal(), inGlobal(), inGlobal()]);
    for (const person of people) expect((await chat(one, person)).status).toBe(200);
    const [first, , last] = people.map((p) => p.id).sort();
    const today = `(now() at time zone 'utc')::date`;
    const tokens = async () =>
      (
        await sql(
          `select tokens from ai_usage where user_id in (?, ?, ?) and day = ${today}`,
          people.map((p) => p.id),
        )
      ).map((r) => Number(r.tokens));
    // The service's own batch of the answers' tokens (42 each) is written before the rows are held.
    await expect.poll(tokens, { timeout: 3000 }).toEqual([42, 42, 42]);
    const holder = new pg.Client({ connectionString: one.databaseUrl });
    const prober = new pg.Client({ connectionString: one.databaseUrl });
    await Promise.all([holder.connect(), prober.connect()]);
    try {
      // Another writer holds the first person's row: an ordered flush waits there before touching the others.
      await holder.query('begin');
      await holder.query(`select 1 from ai_usage where user_id = $1 and day = ${today} for update`, [first]);
      const recorder = new UsageRecorder(one.app.deps.sql, one.app.deps.log, 60_000);
      for (const person of [...people].reverse()) recorder.record(person.id, 5);
      const flushed = recorder.flush();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await prober.query('begin');
      await expect(
        prober.query(`select 1 from ai_usage where user_id = $1 and day = ${today} for update nowait`, [last]),
      ).resolves.toMatchObject({ rowCount: 1 });
      await prober.query('rollback');
      await holder.query('commit');
      await flushed;
      expect(await tokens()).toEqual([47, 47, 47]);
    } finally {
      await holder.end();
      await prober.end();
    }
  });

  it('writes what is waiting when the process stops on SIGTERM', async () => {
    const main = join(__dirname, '..', '..', 'dist', 'src', 'main.js');
    const dataDir = makeDataDir('lp-ai-sigterm-');
    const port = await freePort();
    let output = '';
    const child: ChildProcess = spawn(process.execPath, [main], {
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: one.databaseUrl,
        JWT_SECRET,
        LOG_LEVEL: 'info',
        AI_BACKEND_URL: backend.url,
        AI_BACKEND_SECRET: SECRET,
        // Nothing is written before the shutdown: only the drain can save these tokens.
        AI_USAGE_FLUSH_MS: '600000',
        CODELAB_PREWARM: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      const deadline = Date.now() + 45_000;
      while (!output.includes('Listening') && child.exitCode === null) {
        if (Date.now() > deadline) throw new Error(`service did not start:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const learner = await adultWithConsent();
      const base = `http://127.0.0.1:${port}`;
      for (let i = 0; i < 3; i++) {
        const reply = await fetch(`${base}/ai/chat`, {
          method: 'POST',
          headers: { authorization: `Bearer ${learner.accessToken}`, 'content-type': 'application/json' },
          body: '{"message":"hi"}',
        });
        expect(reply.status).toBe(200);
      }
      expect((await sql('select messages, tokens from ai_usage where user_id = ?', [learner.id]))[0]).toEqual({
        messages: 3,
        tokens: '0',
      });
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect((await sql('select messages, tokens from ai_usage where user_id = ?', [learner.id]))[0]).toEqual({
        messages: 3,
        tokens: '126',
      });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});

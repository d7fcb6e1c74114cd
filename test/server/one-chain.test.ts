import { randomUUID } from 'node:crypto';
import type { Client as SocketClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiBackendFake, startAiBackend } from '../support/ai-backend';
import { startTestApp, type TestApp } from '../support/app';
import type { Reply } from '../support/http';
import { adultSignup, learnerOfAge, type SignedIn, signInAdmin, signUp } from '../support/users';
import { closeCodeOf, operate } from '../support/ws';

/*
 * Every way in meets the same checks in the same order and answers each alike: the caller (no
 * token, a role or consent missing, an ended session, a suspended account), each limit, a bad
 * input. Each row runs one check through every transport it applies to: REST, GraphQL over HTTP,
 * GraphQL over the socket, the AI tutor's stream, an area's own route (the certificate's PDF, the
 * metrics) and a payment webhook; each answer is reduced to what a client reads of it (the HTTP
 * status and error code, GraphQL's code, a socket's close code), and the row expects one outcome.
 */

const SECRET = 'test-ai-backend-secret-0123456789';
const LIMITS = { RATE_LIMIT_DEFAULT: '4', RATE_LIMIT_AI: '2', RATE_LIMIT_AUTH: '2' };

let t: TestApp;
/** The same service on the same database with small limits (each instance counts in memory). */
let limited: TestApp;
let backend: AiBackendFake;

beforeAll(async () => {
  backend = await startAiBackend();
  const env = { AI_BACKEND_URL: backend.url, AI_BACKEND_SECRET: SECRET, TRUST_PROXY: '1' };
  t = await startTestApp(env);
  limited = await startTestApp({ ...env, ...LIMITS }, t.databaseUrl);
});
afterAll(async () => {
  await limited?.close();
  await t?.close();
  await backend?.close();
});

/** What a client reads of an answer. */
interface Outcome {
  status?: number;
  code?: string;
  /** A 429 says when to retry: Retry-After, as its body says. */
  retryAfter?: boolean;
  close?: number;
}

interface Expected {
  status: number;
  code: string;
  close?: number;
}

type Kind = 'http' | 'graphql' | 'socket' | 'connect';

/** What a transport of each kind says of the expected refusal: GraphQL and the socket name the code; a refused socket closes. */
function expectedOf(kind: Kind, { status, code, close }: Expected): Outcome {
  const limit = status === 429 ? { retryAfter: true } : {};
  if (kind === 'http') return { status, code, ...limit };
  if (kind === 'graphql') return status === 429 ? { status, code, ...limit } : { code };
  if (kind === 'connect') return { close };
  return { code };
}

const fromHttp = (reply: Reply): Outcome => ({
  status: reply.status,
  code: reply.body?.error,
  ...(reply.status === 429 ? { retryAfter: Number(reply.headers.get('retry-after')) === reply.body.retryAfter } : {}),
});

function fromGraphql(reply: Reply): Outcome {
  const extensions = reply.body.errors?.[0]?.extensions;
  const code = String(extensions?.code ?? 'none').toLowerCase();
  if (reply.status !== 429) return { code };
  return { status: 429, code, retryAfter: Number(reply.headers.get('retry-after')) === extensions.retryAfter };
}

/** A graphql-ws client whose socket comes from `address` (behind the one proxy TRUST_PROXY trusts). */
function socket(app: TestApp, token?: string, address?: string): SocketClient {
  const headers = address ? { 'x-forwarded-for': address } : {};
  return createClient({
    url: `${app.url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: class extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { headers });
      }
    },
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
  });
}

/** One operation over a socket of its own: the code it was refused with. */
async function overSocket(app: TestApp, token: string | undefined, query: string, variables?: object) {
  const client = socket(app, token);
  try {
    const result = await operate(client, query, variables as Record<string, unknown>);
    return { code: String(result.errors?.[0]?.extensions?.code ?? 'none').toLowerCase() };
  } finally {
    await client.dispose();
  }
}

/** The close code of a socket that tries to connect with `token`. */
async function connecting(app: TestApp, token?: string): Promise<Outcome> {
  const client = socket(app, token);
  const closed = closeCodeOf(client);
  void operate(client, '{ __typename }');
  const close = await closed;
  await client.dispose();
  return { close };
}

type Call = readonly [Kind, () => Promise<Outcome>];

/** Runs each transport's call and expects the one outcome of the check from each. */
async function expectAlike(expected: Expected, calls: Record<string, Call>) {
  const outcomes: Record<string, Outcome> = {};
  const wanted: Record<string, Outcome> = {};
  for (const [transport, [kind, call]] of Object.entries(calls)) {
    outcomes[transport] = await call();
    wanted[transport] = expectedOf(kind, expected);
  }
  expect(outcomes).toEqual(wanted);
}

const ME = '{ me { id } }';
const AI_CHAT = 'mutation($input: AiChatInput!) { aiChat(input: $input) { reply } }';
const RUN_CODE = 'mutation($input: RunCodeInput!) { runCode(input: $input) { status } }';
const ai = (app: TestApp, who: SignedIn | undefined, body: unknown = { message: 'What is a loop?' }) =>
  app.http.post('/ai/chat', body, { token: who?.accessToken });
const pdf = (app: TestApp, who: SignedIn | undefined) =>
  app.http.get(`/certificates/${randomUUID()}/pdf`, { token: who?.accessToken });
const gql = (app: TestApp, query: string, who?: SignedIn, variables?: object) =>
  app.http.gql(query, variables as Record<string, unknown>, who?.accessToken);

/** Each transport's call that reads the caller's own account (or the nearest the transport has). */
const callerCalls = (app: TestApp, who?: SignedIn): Record<string, Call> => ({
  rest: ['http', async () => fromHttp(await app.http.get('/auth/me', { token: who?.accessToken }))],
  graphql: ['graphql', async () => fromGraphql(await gql(app, ME, who))],
  socket: ['connect', () => connecting(app, who?.accessToken)],
  aiStream: ['http', async () => fromHttp(await ai(app, who))],
  certificatePdf: ['http', async () => fromHttp(await pdf(app, who))],
});

async function adultLearnerWithConsent(app: TestApp): Promise<SignedIn> {
  const learner = await learnerOfAge(app, 20);
  const granted = await app.http.post(
    '/consent/grant',
    { consentTypeId: 'ai_conversation' },
    { token: learner.accessToken },
  );
  expect(granted.status).toBeLessThan(300);
  return learner;
}

describe('the caller, checked first by every way in', () => {
  it('without a token: 401 unauthenticated, a socket closed with 4401', () =>
    expectAlike({ status: 401, code: 'unauthenticated', close: 4401 }, callerCalls(t)));

  it('with a role the operation does not allow: 403 forbidden, the metrics of an admin too', async () => {
    const learner = await learnerOfAge(t, 20);
    const users = '{ users(first: 1) { edges { node { id } } } }';
    await expectAlike(
      { status: 403, code: 'forbidden' },
      {
        rest: ['http', async () => fromHttp(await t.http.get('/admin/users', { token: learner.accessToken }))],
        graphql: ['graphql', async () => fromGraphql(await gql(t, users, learner))],
        socket: ['socket', () => overSocket(t, learner.accessToken, users)],
        // Through a proxy, /metrics is an admin's (from the machine itself, a scraper's).
        metrics: [
          'http',
          async () =>
            fromHttp(
              await t.http.get('/metrics', {
                token: learner.accessToken,
                headers: { 'x-forwarded-for': '203.0.113.7' },
              }),
            ),
        ],
      },
    );
  });

  it('without the consent the operation needs: 403 consent_required, over the AI stream too', async () => {
    const learner = await learnerOfAge(t, 20);
    await expectAlike(
      { status: 403, code: 'consent_required' },
      {
        rest: ['http', async () => fromHttp(await t.http.get('/ai/conversations', { token: learner.accessToken }))],
        graphql: ['graphql', async () => fromGraphql(await gql(t, AI_CHAT, learner, { input: { message: 'Hi' } }))],
        socket: ['socket', () => overSocket(t, learner.accessToken, AI_CHAT, { input: { message: 'Hi' } })],
        aiStream: ['http', async () => fromHttp(await ai(t, learner))],
      },
    );
  });

  it('whose session ended (logout): 401 unauthenticated, a socket closed with 4401', async () => {
    const user = await signUp(t, adultSignup());
    expect((await t.http.post('/auth/logout', { refreshToken: user.refreshToken })).status).toBe(204);
    await expectAlike({ status: 401, code: 'unauthenticated', close: 4401 }, callerCalls(t, user));
  });

  it('whose account is suspended: 403 account_suspended, a socket closed with 4403', async () => {
    const admin = await signInAdmin(t);
    const user = await learnerOfAge(t, 20);
    const suspended = await t.http.post(
      `/admin/users/${user.id}/suspend`,
      { reason: 'abuse' },
      { token: admin.accessToken },
    );
    expect(suspended.status).toBe(200);
    await expectAlike({ status: 403, code: 'account_suspended', close: 4403 }, callerCalls(t, user));
  });
});

describe('the limits, each decided once for every way in', () => {
  /** Calls `call` until the limit of `allowed` is spent; the next call's outcome. */
  const past = (allowed: number, call: () => Promise<Outcome>) => async () => {
    for (let i = 0; i < allowed; i++) expect((await call()).status ?? 0).not.toBe(429);
    return call();
  };

  /** The same over one socket: its operations until the limit is spent, then the next one's code. */
  const pastOnSocket =
    (allowed: number, token: string, query: string, variables?: Record<string, unknown>, address?: string) =>
    async (): Promise<Outcome> => {
      const client = socket(limited, token, address);
      try {
        for (let i = 0; i < allowed; i++) expect((await operate(client, query, variables)).errors).toBeUndefined();
        const refused = await operate(client, query, variables);
        return { code: String(refused.errors?.[0]?.extensions?.code).toLowerCase() };
      } finally {
        await client.dispose();
      }
    };

  it('the default limit, per user (per address when anonymous): 429 rate_limited with Retry-After', async () => {
    const [rest, graphql, stream, file, sockets] = await Promise.all(
      Array.from({ length: 5 }, () => learnerOfAge(t, 20)),
    );
    const allowed = Number(LIMITS.RATE_LIMIT_DEFAULT);
    const webhook = () =>
      limited.http.rest('POST', '/payments/webhooks/sandbox', {
        raw: '{"id":"evt_1"}',
        headers: { 'x-sandbox-signature': 'not a signature', 'x-forwarded-for': '203.0.113.21' },
      });
    await expectAlike(
      { status: 429, code: 'rate_limited' },
      {
        rest: [
          'http',
          past(allowed, async () => fromHttp(await limited.http.get('/auth/me', { token: rest.accessToken }))),
        ],
        graphql: ['graphql', past(allowed, async () => fromGraphql(await gql(limited, ME, graphql)))],
        socket: ['socket', pastOnSocket(allowed, sockets.accessToken, ME)],
        aiStream: ['http', past(allowed, async () => fromHttp(await ai(limited, stream)))],
        certificatePdf: ['http', past(allowed, async () => fromHttp(await pdf(limited, file)))],
        webhook: ['http', past(allowed, async () => fromHttp(await webhook()))],
      },
    );
  });

  it('the AI limit, per user: 429 rate_limited with Retry-After, GraphQL over HTTP included', async () => {
    const [rest, graphql, stream, sockets] = await Promise.all(
      Array.from({ length: 4 }, () => adultLearnerWithConsent(t)),
    );
    const allowed = Number(LIMITS.RATE_LIMIT_AI);
    const quota = '{ aiQuota { limit } }';
    await expectAlike(
      { status: 429, code: 'rate_limited' },
      {
        rest: [
          'http',
          past(allowed, async () => fromHttp(await limited.http.get('/ai/quota', { token: rest.accessToken }))),
        ],
        graphql: [
          'graphql',
          past(allowed, async () => fromGraphql(await gql(limited, AI_CHAT, graphql, { input: { message: 'Hi' } }))),
        ],
        socket: ['socket', pastOnSocket(allowed, sockets.accessToken, quota)],
        aiStream: ['http', past(allowed, async () => fromHttp(await ai(limited, stream)))],
      },
    );
  });

  it('the sign-in limit, per address: 429 rate_limited with Retry-After, GraphQL over HTTP included', async () => {
    const allowed = Number(LIMITS.RATE_LIMIT_AUTH);
    const forgot = 'mutation($input: EmailInput!) { forgotPassword(input: $input) }';
    const input = { input: { email: 'someone@example.com' } };
    const from = (address: string) => ({ headers: { 'x-forwarded-for': address } });
    const account = await learnerOfAge(t, 20);
    await expectAlike(
      { status: 429, code: 'rate_limited' },
      {
        rest: [
          'http',
          past(allowed, async () =>
            fromHttp(await limited.http.post('/auth/forgot-password', input.input, from('203.0.113.31'))),
          ),
        ],
        graphql: [
          'graphql',
          past(allowed, async () =>
            fromGraphql(
              await limited.http.rest('POST', '/graphql', {
                body: { query: forgot, variables: input },
                ...from('203.0.113.32'),
              }),
            ),
          ),
        ],
        socket: ['socket', pastOnSocket(allowed, account.accessToken, forgot, input, '203.0.113.33')],
      },
    );
  });
});

describe('the input, checked once the caller may call', () => {
  it('a bad input: 400 validation_failed, the same field named', async () => {
    const learner = await adultLearnerWithConsent(t);
    const badRun = { input: { language: 'ruby', code: 'puts 1' } };
    const field = (details: { field: string }[] | undefined) => details?.map((d) => d.field);
    const rest = await t.http.post('/codelab/run', badRun.input, { token: learner.accessToken });
    const graphql = await gql(t, RUN_CODE, learner, badRun);
    const stream = await ai(t, learner, { message: 5 });
    await expectAlike(
      { status: 400, code: 'validation_failed' },
      {
        rest: ['http', async () => fromHttp(rest)],
        graphql: ['graphql', async () => fromGraphql(graphql)],
        socket: ['socket', () => overSocket(t, learner.accessToken, RUN_CODE, badRun)],
        aiStream: ['http', async () => fromHttp(stream)],
      },
    );
    expect(field(rest.body.details)).toEqual(['language']);
    expect(field(stream.body.details)).toEqual(['message']);
  });
});

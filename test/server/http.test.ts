import { applyMiddleware } from 'graphql-middleware';
import { allow } from 'graphql-shield';
import { graphql } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildPermissions, mergeRules } from '../../src/permissions';
import { ruleMap } from '../../src/server/platform';
import { createContext } from '../../src/server/context';
import { formatGraphQLError } from '../../src/server/graphql-errors';
import { buildAppSchema } from '../../src/server/schema';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, signUp } from '../support/users';
import { connect } from '../support/ws';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT: '2kb' });
});
afterAll(async () => {
  await t?.close();
});

/** Nothing internal in an answer: no stack, no SQL, no driver or file names. */
function expectNothingInternal(text: string) {
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+|stack|select |insert into|node_modules|postgres/i);
}

describe('CORS', () => {
  it.each(['https://web.example', 'https://app.example'])('allows %s, preflight included', async (origin) => {
    const preflight = await fetch(`${t.url}/auth/login`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const reply = await t.http.get('/health', { headers: { origin } });
    expect(reply.headers.get('access-control-allow-origin')).toBe(origin);
    expect(reply.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
  });

  it('gives any other origin no Access-Control-Allow-Origin', async () => {
    const origin = 'https://evil.example';
    const preflight = await fetch(`${t.url}/auth/login`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const reply = await t.http.get('/health', { headers: { origin } });
    expect(reply.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('malformed requests', () => {
  it('answers a body that is not JSON with 400 invalid_json, on REST and GraphQL', async () => {
    const rest = await t.http.rest('POST', '/auth/login', { raw: '{"email": ' });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual({ error: 'invalid_json', message: expect.any(String) });
    const gql = await t.http.rest('POST', '/graphql', { raw: '{"query": ' });
    expect(gql.status).toBe(400);
    expect(gql.body.error).toBe('invalid_json');
  });

  it('answers a body over the limit with 413 payload_too_large', async () => {
    const big = { email: 'a@example.com', password: 'x'.repeat(4000) };
    const rest = await t.http.post('/auth/login', big);
    expect(rest.status).toBe(413);
    expect(rest.body).toEqual({ error: 'payload_too_large', message: expect.any(String) });
    const gql = await t.http.rest('POST', '/graphql', {
      body: { query: `{ health { status } } # ${'x'.repeat(4000)}` },
    });
    expect(gql.status).toBe(413);
    expect(gql.body.error).toBe('payload_too_large');
  });

  it('answers an unknown path with 404 not_found JSON', async () => {
    for (const [method, path] of [
      ['GET', '/nowhere'],
      ['POST', '/auth/unknown'],
    ]) {
      const reply = await t.http.rest(method, path);
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ error: 'not_found', message: expect.any(String) });
    }
  });

  it('answers a GraphQL syntax error without internals', async () => {
    const reply = await t.http.rest('POST', '/graphql', { body: { query: '{ me { ' } });
    expect(reply.status).toBe(400);
    expect(reply.body.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expectNothingInternal(JSON.stringify(reply.body));
  });

  it('never shows a stack trace or SQL text, even for a value the database refuses', async () => {
    // A NUL byte is valid JSON and valid GraphQL but PostgreSQL refuses it in text.
    const reply = await t.http.post('/auth/login', { email: 'a\u0000b@example.com', password: 'whatever it is' });
    expect([400, 401, 500]).toContain(reply.status);
    expect(reply.body.error).toEqual(expect.any(String));
    expectNothingInternal(JSON.stringify(reply.body));
  });
});

describe('request context', () => {
  it('is copied for each operation, as Apollo copies it, without forking an entity manager before one is read', () => {
    const fork = vi.spyOn(t.app.deps.orm.em, 'fork');
    try {
      const ctx = createContext(t.app.deps, { requestId: 'r', ip: '127.0.0.1', auth: {}, showLimit: () => undefined });
      // Apollo's cloneObject, run on every operation's context.
      const copy = Object.assign(Object.create(Object.getPrototypeOf(ctx) as object) as typeof ctx, ctx);
      expect(fork).not.toHaveBeenCalled();
      expect(copy.em).toBe(ctx.em);
      expect(copy.uow).toBe(ctx.uow);
      expect(fork).toHaveBeenCalledTimes(1);
    } finally {
      fork.mockRestore();
    }
  });
});

describe('request ids', () => {
  it('sends X-Request-Id on every answer and keeps a well-formed one the client gave', async () => {
    const own = await t.http.get('/health', { headers: { 'x-request-id': 'client-id-123' } });
    expect(own.headers.get('x-request-id')).toBe('client-id-123');
    const minted = await t.http.get('/nowhere', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(minted.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('deny by default', () => {
  it('refuses an operation that has no rule with FORBIDDEN', async () => {
    const schema = applyMiddleware(await buildAppSchema(), buildPermissions(mergeRules({ Query: { me: allow } })));
    const result = await graphql({ schema, source: '{ health { status } }', contextValue: {} });
    const error = result.errors?.[0];
    expect(error).toBeDefined();
    // What the server sends for it (the same formatter runs for HTTP and WebSocket).
    const sent = formatGraphQLError(error!.toJSON(), error, () => undefined);
    expect(sent.extensions?.code).toBe('FORBIDDEN');
    expect(sent.message).not.toMatch(/Not Authorised/);
    expect(result.data).toBeNull();
  });

  it('has a rule for every root field of the schema, Subscription included', async () => {
    const schema = await buildAppSchema();
    for (const type of [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!]) {
      for (const field of Object.keys(type.getFields())) {
        expect(ruleMap[type.name]?.[field] ?? ruleMap[type.name]?.['*'], `${type.name}.${field}`).toBeDefined();
      }
    }
  });
});

describe('query limits on HTTP and WebSocket', () => {
  let limited: TestApp;
  let token: string;

  beforeAll(async () => {
    limited = await startTestApp({ GRAPHQL_MAX_DEPTH: '4', GRAPHQL_MAX_ALIASES: '5', GRAPHQL_MAX_TOKENS: '300' });
    token = (await signUp(limited, adultSignup())).accessToken;
  });
  afterAll(async () => {
    await limited?.close();
  });

  const refused: [string, string, RegExp][] = [
    ['too many aliases', `{ ${Array.from({ length: 6 }, (_, i) => `a${i}: me { id }`).join(' ')} }`, /alias/i],
    ['too deep', '{ users { edges { node { roleChanges { id } } } } }', /depth/i],
    ['too many tokens', `{ ${'me { id } '.repeat(80)} }`, /token/i],
  ];

  it.each(refused)('refuses a query with %s over HTTP with 400', async (_name, query, message) => {
    const reply = await limited.http.gql(query, {}, token);
    expect(reply.status).toBe(400);
    expect(reply.body.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
    expect(reply.body.errors?.[0].message).toMatch(message);
    expect(reply.body.data ?? null).toBeNull();
  });

  it.each(refused)('refuses a query with %s over WebSocket', async (_name, query, message) => {
    const client = connect(limited.url, token);
    const errors = await new Promise<unknown>((resolve) => {
      client.subscribe(
        { query },
        { next: (value) => resolve(value.errors), error: resolve, complete: () => resolve('completed') },
      );
    });
    await client.dispose();
    expect(JSON.stringify(errors)).toMatch(message);
    expect(JSON.stringify(errors)).toContain('VALIDATION_FAILED');
  });

  it('answers a query within the limits over WebSocket', async () => {
    const client = connect(limited.url, token);
    const value = await new Promise<unknown>((resolve, reject) => {
      client.subscribe({ query: '{ me { roles } }' }, { next: resolve, error: reject, complete: () => undefined });
    });
    await client.dispose();
    expect(value).toEqual({ data: { me: { roles: ['GUARDIAN'] } } });
  });
});

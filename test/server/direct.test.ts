import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sizeInBytes } from '../../src/kernel/body-limit';
import { startTestApp, type TestApp } from '../support/app';
import { type CallOptions, Client } from '../support/http';
import { type SignedIn, signUp } from '../support/users';

let t: TestApp;
/** The same service's express pipeline alone, on a port of its own: what answered every request before. */
let viaExpress: Client;
let expressServer: Server;
let learner: SignedIn;

beforeAll(async () => {
  t = await startTestApp({ BODY_LIMIT: '4kb' });
  expressServer = createServer(t.app.express);
  await new Promise<void>((resolve) => expressServer.listen(0, '127.0.0.1', resolve));
  viaExpress = new Client(`http://127.0.0.1:${(expressServer.address() as AddressInfo).port}`);
  learner = await signUp(t);
});
afterAll(async () => {
  expressServer?.close();
  await t?.close();
});

/** Headers a client reads; X-RateLimit-Remaining and -Reset move with each request, so they are left out. */
const SHOWN = [
  'content-type',
  'content-length',
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-expose-headers',
  'vary',
  'cache-control',
  'x-content-type-options',
  'x-ratelimit-limit',
  'retry-after',
  'www-authenticate',
  'content-encoding',
  'allow',
  'x-request-id',
];
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/** An answer as a client sees it; what differs between two identical requests (new ids, times, the request id in error bodies) is masked. */
async function answer(client: Client, method: string, path: string, options: CallOptions) {
  const reply = await client.rest(method, path, {
    ...options,
    headers: { origin: t.app.deps.config.WEB_ORIGIN, 'x-request-id': 'same-id-both-ways', ...options.headers },
  });
  const { requestId: _, ...body } =
    reply.body && typeof reply.body === 'object' && !Array.isArray(reply.body) ? reply.body : { value: reply.body };
  const headers = Object.fromEntries(SHOWN.map((name) => [name, reply.headers.get(name)]));
  // The same body with other ids or times is as long as it was.
  return {
    status: reply.status,
    body: JSON.parse(JSON.stringify(body).replace(UUID, 'UUID').replace(TIME, 'TIME')),
    headers,
  };
}

/** Sends each case to the service (served before express where its URL names a route) and to express alone; both answer alike. */
async function expectAnsweredAlike(cases: [string, string, string, CallOptions, number][]) {
  for (const [what, method, path, options, status] of cases) {
    const served = await answer(t.http, method, path, options);
    expect(served.status, what).toBe(status);
    if (status >= 400) expect(typeof (served.body.error ?? served.body.errors), what).not.toBe('undefined');
    expect(served.headers['x-request-id'], what).toBe('same-id-both-ways');
    expect(served.headers['access-control-allow-origin'], what).toBe(t.app.deps.config.WEB_ORIGIN);
    expect(served.headers['x-ratelimit-limit'], what).not.toBeNull();
    expect(served.headers['cache-control'], what).toBe('no-store');
    expect(served.headers['x-content-type-options'], what).toBe('nosniff');
    expect(served.headers['content-type'], what).toBe('application/json; charset=utf-8');
    expect(Number(served.headers['content-length']), what).toBeGreaterThan(0);
    expect(await answer(viaExpress, method, path, options), what).toEqual(served);
  }
}

describe('/graphql served before express', () => {
  const gql = (query: string, variables?: Record<string, unknown>) => ({ body: { query, variables } });

  it('answers every case as the express pipeline does: data, errors, status, headers', async () => {
    const limit = sizeInBytes(t.app.deps.config.BODY_LIMIT);
    const project = {
      title: 'Big',
      description: 'Over BODY_LIMIT',
      language: 'python',
      files: [{ path: 'main.py', content: `# ${'x'.repeat(limit)}` }],
    };
    const cases: [string, string, string, CallOptions, number][] = [
      ['a query', 'POST', '/graphql', { token: learner.accessToken, ...gql('{ me { id email roles } }') }, 200],
      [
        'variables and an operation name',
        'POST',
        '/graphql',
        {
          token: learner.accessToken,
          body: {
            query: 'query A { me { id } } query B($first: Int) { courses(first: $first) { edges { node { id } } } }',
            operationName: 'B',
            variables: { first: 2 },
          },
        },
        200,
      ],
      ['no token (the errors say UNAUTHENTICATED)', 'POST', '/graphql', gql('{ me { id } }'), 200],
      ['a token that is not one', 'POST', '/graphql', { token: 'not-a-token', ...gql('{ me { id } }') }, 200],
      ['a syntax error', 'POST', '/graphql', { token: learner.accessToken, ...gql('{ me { id ') }, 400],
      ['an unknown field', 'POST', '/graphql', { token: learner.accessToken, ...gql('{ me { shoeSize } }') }, 400],
      [
        'a variable of the wrong type',
        'POST',
        '/graphql',
        {
          token: learner.accessToken,
          ...gql('query ($first: Int) { courses(first: $first) { edges { node { id } } } }', { first: 'two' }),
        },
        400,
      ],
      ['malformed JSON', 'POST', '/graphql', { token: learner.accessToken, raw: '{"query":' }, 400],
      ['JSON that is not an object', 'POST', '/graphql', { token: learner.accessToken, raw: '"{ me { id } }"' }, 400],
      ['no query', 'POST', '/graphql', { token: learner.accessToken, body: {} }, 400],
      [
        'a body over BODY_LIMIT',
        'POST',
        '/graphql',
        { token: learner.accessToken, ...gql(`{ me { id } } # ${'x'.repeat(limit)}`) },
        413,
      ],
      [
        'a mutation that declares more than BODY_LIMIT',
        'POST',
        '/graphql',
        {
          token: learner.accessToken,
          ...gql('mutation ($input: ProjectInput!) { createProject(input: $input) { id title } }', { input: project }),
        },
        200,
      ],
      [
        'a body that is not JSON',
        'POST',
        '/graphql',
        { token: learner.accessToken, raw: '{ me { id } }', headers: { 'content-type': 'text/plain' } },
        415,
      ],
      ['another method', 'PUT', '/graphql', { token: learner.accessToken, ...gql('{ me { id } }') }, 405],
      [
        'a GET (express serves it both ways)',
        'GET',
        `/graphql?query=${encodeURIComponent('{ me { id } }')}`,
        { token: learner.accessToken, headers: { 'apollo-require-preflight': 'true' } },
        200,
      ],
    ];
    await expectAnsweredAlike(cases);
  });
});

describe('the REST table served before express', () => {
  it('answers every case as the express pipeline does: body, status, headers', async () => {
    const other = await signUp(t);
    const { body: page } = await t.http.get('/courses?limit=1', { token: learner.accessToken });
    const cases: [string, string, string, CallOptions, number][] = [
      ['a read', 'GET', '/auth/me', { token: learner.accessToken }, 200],
      ['another spelling: any case, a trailing slash', 'GET', '/Auth/ME/', { token: learner.accessToken }, 200],
      ['no token', 'GET', '/auth/me', {}, 401],
      ['a list with a query string', 'GET', '/courses?limit=2&level=beginner', { token: learner.accessToken }, 200],
      ['a query parameter of the wrong type', 'GET', '/courses?limit=many', { token: learner.accessToken }, 400],
      ['a query string that is not UTF-8', 'GET', '/courses?q=%ED%B0%80', { token: learner.accessToken }, 400],
      [
        'a path parameter',
        'GET',
        `/courses/${page.items[0]?.id ?? '00000000-0000-4000-8000-000000000000'}`,
        { token: learner.accessToken },
        page.items[0] ? 200 : 404,
      ],
      [
        'a path parameter that names nothing',
        'GET',
        '/courses/00000000-0000-4000-8000-000000000000',
        { token: learner.accessToken },
        404,
      ],
      ['a path parameter that is not UTF-8', 'GET', '/courses/%ED%B0%80', { token: learner.accessToken }, 400],
      [
        "a guardian's view of someone not theirs",
        'GET',
        `/guardian/learners/${other.id}`,
        { token: learner.accessToken },
        403,
      ],
      [
        'a write with bad input',
        'POST',
        '/projects',
        { token: learner.accessToken, body: { title: '', language: 'cobol', files: [] } },
        400,
      ],
      ['malformed JSON', 'POST', '/projects', { token: learner.accessToken, raw: '{"title":' }, 400],
      [
        'a body that is not JSON',
        'POST',
        '/projects',
        { token: learner.accessToken, raw: 'title=Hi', headers: { 'content-type': 'text/plain' } },
        415,
      ],
      [
        'a write',
        'POST',
        '/projects',
        {
          token: learner.accessToken,
          body: {
            title: 'Hi',
            description: 'Says hi',
            language: 'python',
            files: [{ path: 'main.py', content: 'print(1)' }],
          },
        },
        201,
      ],
      ['a path the table does not have', 'GET', '/no/such/path', { token: learner.accessToken }, 404],
      ['a path of the table with another method', 'DELETE', '/auth/me', { token: learner.accessToken }, 405],
      ['a token that is not one', 'GET', '/auth/me', { token: 'not-a-token' }, 401],
      [
        'a row an area sees first (the checkout reads Idempotency-Key)',
        'POST',
        '/payments/checkout',
        { token: learner.accessToken, body: {}, headers: { 'idempotency-key': 'key-1' } },
        400,
      ],
    ];
    await expectAnsweredAlike(cases);
  });
});

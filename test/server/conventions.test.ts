import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type IncomingHttpHeaders, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import type { Reply } from '../support/http';
import { checkAgainstOpenApi } from '../support/openapi';
import { adultSignup, PASSWORD, type SignedIn, signUp } from '../support/users';

/** The HTTP conventions clients rely on (docs/errors.md): 401 challenges, 405 with Allow, 415, compression, caching, the index at /. */

let t: TestApp;
let account: SignedIn;
const root = join(__dirname, '..', '..');
const openApi = JSON.parse(readFileSync(join(root, 'schema', 'openapi.json'), 'utf8'));

beforeAll(async () => {
  t = await startTestApp();
  account = await signUp(t, adultSignup());
});
afterAll(async () => {
  await t?.close();
});

/** The answer's bytes as they came over the wire, with its headers (fetch would decompress them, and sends no body with a GET). */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${t.url}${path}`,
      { method, headers: body ? { 'content-type': 'application/json', ...headers } : headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A 401 with its challenge, and the reason that tells the refusals apart (none when no token was sent). */
function expectUnauthenticated(reply: Reply, challenge: string, reason?: string) {
  expect(reply.status).toBe(401);
  expect(reply.body).toEqual({ error: 'unauthenticated', message: expect.any(String), ...(reason ? { reason } : {}) });
  expect(reply.headers.get('www-authenticate')).toBe(challenge);
}

describe('401 answers', () => {
  it('carry WWW-Authenticate: Bearer when no token was sent', async () => {
    expectUnauthenticated(await t.http.get('/auth/me'), 'Bearer');
    expectUnauthenticated(await t.http.get('/gdpr/requests/00000000-0000-4000-8000-000000000000/download'), 'Bearer');
  });

  it('say error="invalid_token" when the token sent was refused: not one, malformed, or of an ended session', async () => {
    expectUnauthenticated(await t.http.get('/auth/me', { token: 'not-a-token' }), 'Bearer error="invalid_token"');
    expectUnauthenticated(
      await t.http.get('/auth/me', { headers: { authorization: 'Basic dXNlcjpwYXNz' } }),
      'Bearer error="invalid_token"',
      'malformed_authorization',
    );
    const ended = await signUp(t, adultSignup());
    expect((await t.http.post('/auth/logout', { refreshToken: ended.refreshToken })).status).toBe(204);
    expectUnauthenticated(
      await t.http.get('/auth/me', { token: ended.accessToken }),
      'Bearer error="invalid_token"',
      'session_ended',
    );
    expectUnauthenticated(
      await t.http.get('/gdpr/requests/00000000-0000-4000-8000-000000000000/download', { token: ended.accessToken }),
      'Bearer error="invalid_token"',
      'session_ended',
    );
  });

  it('name no token error when what was refused is a password or a refresh token', async () => {
    expectUnauthenticated(
      await t.http.post('/auth/login', { email: account.email, password: `${PASSWORD} but wrong` }),
      'Bearer',
      'wrong_credentials',
    );
    expectUnauthenticated(
      await t.http.post('/auth/refresh', { refreshToken: 'not-a-refresh-token' }),
      'Bearer',
      'invalid_refresh_token',
    );
  });

  it('leave GraphQL over HTTP as it was: 200 with UNAUTHENTICATED in its errors', async () => {
    const reply = await t.http.gql('{ me { id } }', {}, 'not-a-token');
    expect(reply.status).toBe(200);
    expect(reply.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('a known path with another method', () => {
  const expectMethodNotAllowed = (reply: Reply, allow: string) => {
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe(allow);
    expect(reply.body).toMatchObject({ error: 'method_not_allowed', message: expect.any(String) });
  };

  it.each([
    ['DELETE', '/auth/me', 'GET, HEAD'],
    ['GET', '/auth/login', 'POST'],
    ['PUT', '/Auth/Login/', 'POST'],
    ['POST', '/guardian/learners/00000000-0000-4000-8000-000000000000/ai-access', 'GET, HEAD, PUT'],
    ['DELETE', '/payments/webhooks/sandbox', 'GET, HEAD, POST'],
    ['GET', '/ai/chat', 'POST'],
    // Rows answered by the operation's value, an area's file, a page, the docs: each as declared.
    ['PUT', '/payments/checkout', 'GET, HEAD, POST'],
    ['DELETE', '/certificates/00000000-0000-4000-8000-000000000000/pdf', 'GET, HEAD'],
    ['POST', '/admin/factory', 'GET, HEAD'],
    ['PUT', '/openapi.json', 'GET, HEAD'],
  ])('answers %s %s with 405 and Allow: %s (REST)', async (method, path, allow) => {
    const reply = await t.http.rest(method, path, { token: account.accessToken });
    expectMethodNotAllowed(reply, allow);
    expect(reply.body).toEqual({ error: 'method_not_allowed', message: expect.any(String) });
  });

  it('is declared once in the description (MethodNotAllowed, Allow required), and the judge of answers holds a 405 to it', () => {
    expect(openApi.info.description).toContain('#/components/responses/MethodNotAllowed');
    const declared = openApi.components.responses.MethodNotAllowed;
    expect(declared.headers.Allow.required).toBe(true);
    expect(declared.content['application/json'].schema.allOf[1].properties.error.enum).toEqual(['method_not_allowed']);
    const body = JSON.stringify({ error: 'method_not_allowed', message: 'This path does not take this method.' });
    expect(() =>
      checkAgainstOpenApi('DELETE', `${t.url}/auth/me`, 405, new Headers({ allow: 'GET, HEAD' }), body),
    ).not.toThrow();
    expect(() => checkAgainstOpenApi('DELETE', `${t.url}/auth/me`, 405, new Headers(), body)).toThrow(
      /header Allow is required/,
    );
    expect(() => checkAgainstOpenApi('DELETE', `${t.url}/auth/me`, 405, new Headers({ allow: 'POST' }), body)).toThrow(
      /does not name GET/,
    );
    expect(() =>
      checkAgainstOpenApi(
        'DELETE',
        `${t.url}/auth/me`,
        405,
        new Headers({ allow: 'GET, HEAD' }),
        JSON.stringify({ error: 'not_found', message: 'x' }),
      ),
    ).toThrow(/not of its schema/);
  });

  it('answers /graphql with another method than GET and POST with 405, the error object and its GraphQL errors', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const reply = await t.http.rest(method, '/graphql', {
        token: account.accessToken,
        body: { query: '{ me { id } }' },
      });
      expectMethodNotAllowed(reply, 'GET, POST');
      expect(reply.body.errors).toEqual([{ message: reply.body.message, extensions: { code: 'METHOD_NOT_ALLOWED' } }]);
    }
  });

  it('leaves unknown paths 404', async () => {
    for (const [method, path] of [
      ['GET', '/nowhere'],
      ['DELETE', '/auth/nothing'],
      ['PUT', '/courses/x/y/z'],
    ]) {
      const reply = await t.http.rest(method, path, { token: account.accessToken });
      expect(reply.status).toBe(404);
      expect(reply.headers.get('allow')).toBeNull();
      expect(reply.body).toEqual({ error: 'not_found', message: expect.any(String) });
    }
  });
});

describe('a body that is not JSON', () => {
  const notJson: [string, string][] = [
    ['text/plain', 'email=a@example.com'],
    ['application/x-www-form-urlencoded', 'email=a%40example.com&password=x'],
    ['application/xml', '<login/>'],
  ];

  it.each(notJson)('is refused with 415 unsupported_media_type on REST (%s)', async (type, raw) => {
    const reply = await t.http.rest('POST', '/auth/login', { raw, headers: { 'content-type': type } });
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual({ error: 'unsupported_media_type', message: expect.any(String) });
    const write = await t.http.rest('POST', '/projects', {
      token: account.accessToken,
      raw,
      headers: { 'content-type': type },
    });
    expect(write.status).toBe(415);
    expect(write.body).toEqual({ error: 'unsupported_media_type', message: expect.any(String) });
  });

  it.each(notJson)('is refused with 415 UNSUPPORTED_MEDIA_TYPE on GraphQL (%s)', async (type) => {
    const reply = await t.http.rest('POST', '/graphql', {
      token: account.accessToken,
      raw: '{ me { id } }',
      headers: { 'content-type': type },
    });
    expect(reply.status).toBe(415);
    expect(reply.body).toEqual({
      error: 'unsupported_media_type',
      message: expect.any(String),
      errors: [{ message: reply.body.message, extensions: { code: 'UNSUPPORTED_MEDIA_TYPE' } }],
    });
  });

  it('is refused when sent with no Content-Type', async () => {
    const reply = await fetch(`${t.url}/auth/login`, {
      method: 'POST',
      body: new Uint8Array(Buffer.from('{"email":"a@example.com"}')),
    });
    expect(reply.status).toBe(415);
    expect(await reply.json()).toEqual({ error: 'unsupported_media_type', message: expect.any(String) });
  });

  it('is refused on the writes that take no body too (415, 413, invalid_json), each declared in their description', async () => {
    const token = account.accessToken;
    const someId = '00000000-0000-4000-8000-000000000000';
    const readAll = await t.http.rest('POST', '/notifications/read-all', {
      token,
      raw: 'all of them',
      headers: { 'content-type': 'text/plain' },
    });
    expect(readAll.status).toBe(415);
    expect(readAll.body).toEqual({ error: 'unsupported_media_type', message: expect.any(String) });
    const remove = await t.http.rest('DELETE', `/notifications/${someId}`, {
      token,
      raw: '<x/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(remove.status).toBe(415);
    const tooLarge = await t.http.rest('POST', `/courses/${someId}/enrollment`, {
      token,
      body: { pad: 'x'.repeat(150 * 1024) },
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toEqual({ error: 'payload_too_large', message: expect.any(String) });
    const broken = await t.http.rest('POST', '/notifications/read-all', { token, raw: '{' });
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('invalid_json');
    // The judge of answers (test/support/openapi.ts) let these through because each operation that
    // reads a body declares them; every one does but GET.
    for (const [path, operations] of Object.entries(
      openApi.paths as Record<string, Record<string, { responses: Record<string, any> }>>,
    )) {
      for (const [method, { responses }] of Object.entries(operations)) {
        const codes = ['400', '413', '415'].flatMap((status) =>
          Object.keys(responses[status]?.content['application/json'].examples ?? {}),
        );
        if (method === 'get')
          expect(codes, `${method} ${path}`).not.toEqual(
            expect.arrayContaining(['payload_too_large', 'unsupported_media_type', 'invalid_json']),
          );
        else
          expect(codes, `${method} ${path}`).toEqual(
            expect.arrayContaining(['payload_too_large', 'unsupported_media_type', 'invalid_json']),
          );
      }
    }
  });

  it('is not read on a GET, where a body means nothing: the GET is answered as without one', async () => {
    // Node's client frames no body of a GET by itself.
    const reply = await raw(
      'GET',
      '/auth/me',
      { authorization: `Bearer ${account.accessToken}`, 'content-type': 'text/plain', 'content-length': '6' },
      'a body',
    );
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.bytes.toString('utf8')).user.id).toBe(account.id);
    expect(() =>
      checkAgainstOpenApi(
        'GET',
        `${t.url}/auth/me`,
        415,
        new Headers({ 'content-type': 'application/json' }),
        JSON.stringify({ error: 'unsupported_media_type', message: 'x' }),
      ),
    ).toThrow(/415 is not declared/);
  });

  it('lets JSON with a charset through, and a POST with no body at all', async () => {
    const login = await t.http.rest('POST', '/auth/login', {
      body: { email: account.email, password: PASSWORD },
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(login.status).toBe(200);
    const gql = await t.http.rest('POST', '/graphql', {
      token: account.accessToken,
      body: { query: '{ me { id } }' },
      headers: { 'content-type': 'Application/JSON;charset=UTF-8' },
    });
    expect(gql.body).toEqual({ data: { me: { id: account.id } } });
    // Marking every notification read takes nothing but its path.
    const readAll = await t.http.rest('POST', '/notifications/read-all', { token: account.accessToken });
    expect(readAll.status).toBe(200);
    // Nothing sent, so nothing of the wrong type.
    const empty = await t.http.rest('POST', '/notifications/read-all', {
      token: account.accessToken,
      raw: '',
      headers: { 'content-type': 'text/plain' },
    });
    expect(empty.status).toBe(200);
  });
});

describe('compression', () => {
  const decoders: Record<string, (bytes: Buffer) => Buffer> = { gzip: gunzipSync, br: brotliDecompressSync };

  it.each(['gzip', 'br'])(
    'sends answers over 1 KB in %s when the client accepts it, on every HTTP path',
    async (encoding) => {
      const token = { authorization: `Bearer ${account.accessToken}` };
      const project = {
        title: 'Long',
        description: 'Over a kilobyte',
        language: 'python',
        files: [{ path: 'main.py', content: `print(1)\n${'# a comment\n'.repeat(200)}` }],
      };
      const answers = [
        // express: the description of the REST API
        ['GET', '/openapi.json', undefined, 200],
        // served before express: a REST row and GraphQL
        ['POST', '/projects', JSON.stringify(project), 201],
        [
          'POST',
          '/graphql',
          JSON.stringify({
            query: 'mutation ($input: ProjectInput!) { createProject(input: $input) { files { content } } }',
            variables: { input: project },
          }),
          200,
        ],
      ] as const;
      for (const [method, path, body, status] of answers) {
        const reply = await raw(method, path, { ...token, 'accept-encoding': `${encoding}, identity;q=0.5` }, body);
        expect(reply.status, path).toBe(status);
        expect(reply.headers['content-encoding'], path).toBe(encoding);
        expect(reply.headers.vary, path).toMatch(/Accept-Encoding/i);
        const text = decoders[encoding](reply.bytes).toString('utf8');
        expect(text.length, path).toBeGreaterThan(reply.bytes.length);
        expect(JSON.parse(text), path).toEqual(expect.any(Object));
      }
    },
  );

  it('sends small answers, and answers to clients that accept no compression, as they are', async () => {
    const small = await raw('GET', '/health', { 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.bytes.toString('utf8'))).toMatchObject({ status: expect.any(String) });
    const plain = await raw('GET', '/openapi.json', {});
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(plain.bytes.toString('utf8')).openapi).toMatch(/^3\./);
  });
});

describe('REST error details', () => {
  /** Nothing of GraphQL in what a REST client reads: no variables, types, enums or argument names. */
  const expectRestWords = (reply: Reply) =>
    expect(JSON.stringify(reply.body)).not.toMatch(/\$|String!|Int\b|enum|type "|Variable|Field "|first|after|input/);

  it.each([
    ['/courses?limit=0', 'limit', 'must not be less than 1'],
    ['/courses?limit=1000', 'limit', 'must not be greater than 100'],
    ['/courses?limit=many', 'limit', 'must be an integer'],
    ['/courses?level=wizard', 'level', 'is not one of the allowed values'],
    ['/country-policy', 'country', 'is required'],
  ])('name the query parameter of GET %s', async (path, field, message) => {
    const reply = await t.http.get(path, { token: account.accessToken });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      error: 'validation_failed',
      message: 'The request is invalid.',
      details: [{ field, message }],
    });
    expectRestWords(reply);
  });

  it.each([
    ['a missing field', { country: undefined }, 'country', 'is required'],
    ['a field of the wrong type', { country: 5 }, 'country', 'must be a string'],
    ['a value not allowed', { role: 'wizard' }, 'role', 'is not one of the allowed values'],
    ['a field it does not take', { shoeSize: 42 }, 'shoeSize', 'is not a field of this request'],
  ])('name the body field of POST /auth/signup with %s', async (_what, change, field, message) => {
    const reply = await t.http.post('/auth/signup', { ...adultSignup(), ...change });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({
      error: 'validation_failed',
      message: 'The request is invalid.',
      details: [{ field, message }],
    });
    expectRestWords(reply);
  });

  it('name the body when it is not an object, and a field of a body of named fields', async () => {
    const array = await t.http.post('/auth/signup', [adultSignup()]);
    expect(array.body).toEqual({
      error: 'validation_failed',
      message: 'The request is invalid.',
      details: [{ field: 'body', message: 'must be a JSON object' }],
    });
    const refresh = await t.http.post('/auth/refresh', {});
    expect(refresh.body).toEqual({
      error: 'validation_failed',
      message: 'The request is invalid.',
      details: [{ field: 'refreshToken', message: 'is required' }],
    });
    expectRestWords(refresh);
  });

  it('leave GraphQL its own names (the twin of GET /courses?limit=0)', async () => {
    const reply = await t.http.gql('{ courses(first: 0) { edges { node { id } } } }', {}, account.accessToken);
    expect(reply.body.errors?.[0].extensions).toEqual({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'first', message: expect.stringMatching(/less than 1/) }],
    });
  });
});

describe('the API documentation', () => {
  it('serves the OpenAPI document as committed in schema/openapi.json, and the Swagger UI that reads it, from the package (no CDN)', async () => {
    const document = await fetch(`${t.url}/openapi.json`);
    expect(document.status).toBe(200);
    expect(await document.json()).toEqual(openApi);
    const page = await fetch(`${t.url}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('swagger-ui-bundle.js');
    const bundle = await fetch(`${t.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect(await (await fetch(`${t.url}/docs/swagger-initializer.js`)).text()).toContain("url: '/openapi.json'");
  });
});

describe('caching and content sniffing', () => {
  beforeAll(async () => {
    // The mail-link pages as `npm run build` bundles them: their script and stylesheet are public documents.
    await promisify(execFile)(process.execPath, ['web/build.mjs', 'mail-links'], { cwd: root });
  });

  const bearer = () => ({ authorization: `Bearer ${account.accessToken}` });
  const answers: [string, string, () => Record<string, string>, string | undefined, number][] = [
    ['GET', '/courses', () => ({}), undefined, 200],
    ['GET', '/auth/me', bearer, undefined, 200],
    ['GET', '/auth/me', () => ({}), undefined, 401],
    ['POST', '/auth/login', () => ({ 'content-type': 'text/plain' }), 'email=a@example.com', 415],
    ['POST', '/graphql', bearer, JSON.stringify({ query: '{ me { id } }' }), 200],
    [
      'GET',
      '/graphql?query=%7B__typename%7D',
      () => ({ ...bearer(), 'apollo-require-preflight': 'true' }),
      undefined,
      200,
    ],
    ['POST', '/graphql', () => ({}), JSON.stringify({ query: '{ me { id } }' }), 200],
    ['GET', '/nowhere', () => ({}), undefined, 404],
    ['PUT', '/openapi.json', () => ({}), undefined, 405],
    ['GET', '/docs/no-such-file.js', () => ({}), undefined, 404],
    ['GET', '/health', () => ({}), undefined, 200],
    ['GET', '/', () => ({}), undefined, 200],
  ];

  it.each(answers)('%s %s: no-store and nosniff', async (method, path, headers, body, status) => {
    const reply = await raw(method, path, headers(), body);
    expect(reply.status).toBe(status);
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers.etag).toBeUndefined();
  });

  it.each([
    '/openapi.json',
    '/docs/swagger-initializer.js',
    '/docs/swagger-ui-bundle.js',
    '/pages/assets/app.js',
    '/pages/assets/app.css',
  ])('%s is kept and revalidated: an ETag, 304 while it holds, compressed or not', async (path) => {
    const first = await raw('GET', path, bearer());
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    for (const encoding of ['identity', 'gzip']) {
      const again = await raw('GET', path, { 'if-none-match': etag, 'accept-encoding': encoding });
      expect(again.status, encoding).toBe(304);
      expect(again.bytes.length, encoding).toBe(0);
      expect(again.headers.etag, encoding).toBe(etag);
    }
    const changed = await raw('GET', path, { 'if-none-match': 'W/"another version"' });
    expect(changed.status).toBe(200);
    expect(changed.bytes.equals(first.bytes)).toBe(true);
  });
});

describe('GET /', () => {
  it('answers the name and version of the service and its links, as its description declares, and each link answers', async () => {
    const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const reply = await t.http.get('/');
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      name,
      version,
      links: {
        graphql: '/graphql',
        docs: '/docs',
        openapi: '/openapi.json',
        health: '/health',
        liveness: '/health/live',
        readiness: '/health/ready',
        email: '/health/email',
      },
    });
    expect(openApi.paths['/'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ApiIndex',
    });
    expect(openApi.info.version).toBe(version);
    for (const link of Object.values(reply.body.links as Record<string, string>)) {
      // GraphQL over GET asks for a header that a cross-site form cannot send.
      const followed = await fetch(`${t.url}${link}${link === '/graphql' ? '?query=%7B__typename%7D' : ''}`, {
        headers: { 'apollo-require-preflight': 'true' },
      });
      expect(followed.status, link).toBe(200);
    }
    const post = await t.http.post('/', {});
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

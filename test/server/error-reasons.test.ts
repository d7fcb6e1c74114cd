import jwt from 'jsonwebtoken';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areas } from '../../src/areas';
import { withReasonsTable } from '../../src/scripts/reasons-doc';
import { declaredReasons, errorStatus, reasons } from '../../src/kernel/errors';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, signInAdmin, signUp, signupInput } from '../support/users';
import { checkout, newKey, publishedProduct } from '../support/commerce';
import { connect, operate } from '../support/ws';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const SIGNUP = 'mutation($input: SignupInput!) { signup(input: $input) { accessToken } }';
const CHECKOUT =
  'mutation($input: CheckoutInput!, $key: String) { checkout(input: $input, idempotencyKey: $key) { payment { id } } }';

describe('an error names its reason beside its kind', () => {
  it('answers a sign-up with a taken e-mail 409 conflict, reason email_taken, over REST and GraphQL', async () => {
    const body = adultSignup();
    await signUp(t, body);

    const rest = await t.http.post('/auth/signup', { ...body, displayName: 'Someone else' });
    expect(rest.status).toBe(409);
    expect(rest.body).toEqual({
      error: 'conflict',
      reason: 'email_taken',
      message: 'An account with this e-mail address exists already.',
    });

    const gql = await t.http.gql(SIGNUP, { input: signupInput({ ...body, displayName: 'Someone else' }) });
    expect(gql.body.data).toBeNull();
    expect(gql.body.errors).toEqual([
      expect.objectContaining({
        message: 'An account with this e-mail address exists already.',
        extensions: { code: 'CONFLICT', reason: 'email_taken' },
      }),
    ]);
  });

  it('answers an idempotency key reused with another body 409 conflict, reason idempotency_key_reused, over REST, GraphQL and its WebSocket', async () => {
    const product = await publishedProduct(t, await signInAdmin(t));
    const buyer = await signUp(t, adultSignup());
    const [first, second] = product.prices;
    const key = newKey();
    expect((await checkout(t, buyer, { productId: product.id, priceId: first.id }, key)).status).toBe(201);

    const rest = await checkout(t, buyer, { productId: product.id, priceId: second.id }, key);
    expect(rest.status).toBe(409);
    expect(rest.body).toEqual({
      error: 'conflict',
      reason: 'idempotency_key_reused',
      message: 'This Idempotency-Key was used with another request.',
    });

    const gql = await t.http.gql(
      CHECKOUT,
      { input: { productId: product.id, priceId: second.id }, key },
      buyer.accessToken,
    );
    expect(gql.body.errors?.[0]).toMatchObject({
      message: 'This Idempotency-Key was used with another request.',
      extensions: { code: 'CONFLICT', reason: 'idempotency_key_reused' },
    });
    const client = connect(t.url, buyer.accessToken);
    try {
      const ws = await operate(client, CHECKOUT, { input: { productId: product.id, priceId: second.id }, key });
      expect(ws.errors?.[0]).toMatchObject({
        message: 'This Idempotency-Key was used with another request.',
        extensions: { code: 'CONFLICT', reason: 'idempotency_key_reused' },
      });
    } finally {
      await client.dispose();
    }
    expect((await t.http.get('/payments/me', { token: buyer.accessToken })).body.items).toHaveLength(1);
  });

  it('keeps the reason of a refusal raised before the operation runs: an expired token, over REST and GraphQL', async () => {
    const account = await signUp(t, adultSignup());
    const { config } = t.app.deps;
    const expired = jwt.sign(
      {
        sub: account.id,
        roles: ['guardian'],
        iss: config.JWT_ISSUER,
        aud: config.JWT_AUDIENCE,
        exp: Math.floor(Date.now() / 1000) - 60,
      },
      config.JWT_SECRET,
    );
    const said = 'The access token has expired; refresh it.';
    const rest = await t.http.get('/auth/me', { token: expired });
    expect(rest.status).toBe(401);
    expect(rest.body).toEqual({ error: 'unauthenticated', reason: 'access_token_expired', message: said });
    const gql = await t.http.gql('{ me { id } }', {}, expired);
    expect(gql.body.errors?.[0]).toMatchObject({
      message: said,
      extensions: { code: 'UNAUTHENTICATED', reason: 'access_token_expired' },
    });
  });
});

/** The areas' folders whose `*.errors.ts` declare reasons, and the name each declares them under. */
function declaringFiles(): { file: string; area: string }[] {
  const src = join(__dirname, '../../src');
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (file) => file.endsWith('.errors.ts') || file === join('kernel', 'errors.ts'),
  );
  return files.flatMap((file) =>
    [...readFileSync(join(src, file), 'utf8').matchAll(/reasons\('([a-z-]+)'/g)].map((m) => ({ file, area: m[1] })),
  );
}

describe('the declared reasons', () => {
  it('are snake_case, each of a known kind, each from an area of the service or the shared kernel, server and permissions', () => {
    const names = new Set([...areas.map((area) => area.name), 'kernel', 'server', 'permissions']);
    expect(declaredReasons.size).toBeGreaterThan(60);
    for (const [reason, { area, kind }] of declaredReasons) {
      expect(reason).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(Object.keys(errorStatus)).toContain(kind);
      expect(names).toContain(area);
    }
    expect(declaredReasons.get('email_taken')).toEqual({ area: 'auth', kind: 'conflict' });
    expect(declaredReasons.get('idempotency_key_reused')).toEqual({ area: 'payments', kind: 'conflict' });
    expect(declaredReasons.get('guardian_link_limit_reached')).toEqual({ area: 'guardian', kind: 'limit_reached' });
  });

  it('are all loaded with the service: every file that declares reasons has declared them', () => {
    const declaring = declaringFiles();
    expect(declaring.length).toBeGreaterThan(20);
    const areasDeclared = new Set([...declaredReasons.values()].map((declared) => declared.area));
    for (const { file, area } of declaring) expect(areasDeclared, file).toContain(area);
  });

  it('are unique across the service: a name declared twice, or not snake_case, fails as its module loads', () => {
    expect(() => reasons('contact', { email_taken: 'conflict' })).toThrow(
      'The reason email_taken of contact is declared by auth already.',
    );
    expect(() => reasons('contact', { emailTaken: 'conflict' })).toThrow('not snake_case');
    expect(() => reasons('contact', { message_lost: 'lost' as never })).toThrow('no known kind');
    expect(declaredReasons.has('message_lost')).toBe(false);
  });
});

describe('docs/errors.md', () => {
  it('lists the reasons as the code declares them (run `npm run schema:emit`)', () => {
    const doc = readFileSync(join(__dirname, '../../docs/errors.md'), 'utf8');
    expect(doc).toContain('| auth | `email_taken` | 409 | `conflict` |');
    expect(withReasonsTable(doc)).toBe(doc);
  });
});

describe('the OpenAPI document', () => {
  const document = JSON.parse(readFileSync(join(__dirname, '../../schema/openapi.json'), 'utf8'));
  const reasonsAt = (path: string, method: string, status: number) => {
    const response = document.paths[path][method].responses[status];
    const listed = response.content['application/json'].schema.allOf[1].properties.reason?.examples ?? [];
    expect(response.description.split('; reasons: ')[1]?.split(', ') ?? []).toEqual(listed);
    return listed;
  };

  it("lists each operation's reasons under their status: its area's and the shared ones, no other area's", () => {
    expect(reasonsAt('/auth/signup', 'post', 409)).toEqual(['email_taken']);
    expect(reasonsAt('/payments/checkout', 'post', 409)).toContain('idempotency_key_reused');
    expect(reasonsAt('/payments/checkout', 'post', 409)).not.toContain('email_taken');
    expect(reasonsAt('/payments/checkout', 'post', 401)).toEqual([
      'access_token_expired',
      'account_gone',
      'malformed_authorization',
      'session_ended',
    ]);
    expect(
      document.paths['/auth/signup'].post.responses[409].content['application/json'].examples.conflict.value,
    ).toEqual({
      error: 'conflict',
      message: 'An account with this e-mail address exists already.',
      reason: 'email_taken',
    });
  });
});

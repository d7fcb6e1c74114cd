import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, signInAdmin, signUp } from '../support/users';
import { connect, operate } from '../support/ws';

// An operation over a WebSocket is a request. It counts against the caller's
// limit as HTTP requests do, and the schema stays as hidden over the socket as over HTTP.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ NODE_ENV: 'production', RATE_LIMIT_DEFAULT: '20' });
});
afterAll(async () => {
  await t?.close();
});

const NOTIFICATIONS = 'query($filter: NotificationFilter) { notifications(filter: $filter) { edges { node { id } } } }';

describe('GraphQL over WebSocket', () => {
  it('counts each operation against the per-user limit HTTP counts: rate_limited once it is spent, on both', async () => {
    const user = await signUp(t, adultSignup());
    for (let i = 0; i < 10; i++) expect((await t.http.get('/auth/me', { token: user.accessToken })).status).toBe(200);
    const client = connect(t.url, user.accessToken, false);
    const results = await Promise.all(Array.from({ length: 15 }, () => operate(client, '{ me { id } }')));
    const answered = results.filter((r) => r.data?.me?.id === user.id);
    const limited = results.filter((r) => r.errors?.[0].extensions?.code === 'RATE_LIMITED');
    expect(answered.length).toBe(10);
    expect(limited.length).toBe(5);
    expect(limited[0].errors![0].extensions?.retryAfter).toBeGreaterThan(0);
    // The socket is not closed for it, and HTTP finds the same bucket spent.
    expect((await operate(client, '{ me { id } }')).errors?.[0].extensions?.code).toBe('RATE_LIMITED');
    const http = await t.http.get('/auth/me', { token: user.accessToken });
    expect(http.status).toBe(429);
    expect(http.body.error).toBe('rate_limited');
    await client.dispose();
  });

  it('refuses introspection over the socket as over HTTP', async () => {
    const user = await signUp(t, adultSignup());
    const http = await t.http.gql('{ __schema { types { name } } }', undefined, user.accessToken);
    expect(http.body.data ?? null).toBeNull();
    expect(http.body.errors?.[0].message).toMatch(/introspection/i);
    const client = connect(t.url, user.accessToken, false);
    for (const query of ['{ __schema { types { name } } }', '{ __type(name: "User") { fields { name } } }']) {
      const ws = await operate(client, query);
      expect(ws.data ?? null, query).toBeNull();
      expect(ws.errors?.[0].extensions?.code, query).toBe('VALIDATION_FAILED');
      expect(ws.errors?.[0].message, query).toMatch(/introspection/i);
    }
    // __typename is no introspection of the schema.
    expect((await operate(client, '{ __typename }')).data).toEqual({ __typename: 'Query' });
    await client.dispose();
  });

  it('lets admins introspect in production, over HTTP and the socket: the explorer at /graphql is theirs', async () => {
    const admin = await signInAdmin(t);
    const http = await t.http.gql('{ __schema { queryType { name } } }', undefined, admin.accessToken);
    expect(http.status).toBe(200);
    expect(http.body.data).toEqual({ __schema: { queryType: { name: 'Query' } } });
    const client = connect(t.url, admin.accessToken, false);
    expect((await operate(client, '{ __type(name: "User") { name } }')).data).toEqual({ __type: { name: 'User' } });
    await client.dispose();
  });

  it('refuses as HTTP does, with the same error objects: a query too expensive, introspection, variables that do not fit, a caller without the right', async () => {
    const user = await signUp(t, adultSignup());
    const client = connect(t.url, user.accessToken, false);
    const refusals: [string, string, Record<string, unknown>?][] = [
      [
        'too expensive',
        '{ viewer { guardianLinks(first: 100) { nodes { learnerAccount { guardianLinks(first: 100) { nodes { learnerAccount { enrollments(first: 100) { nodes { id } } } } } } } } } }',
      ],
      ['introspection', '{ __schema { types { name } } }'],
      ['a variable of a query', NOTIFICATIONS, { filter: 'unred' }],
      [
        'a variable of a subscription',
        'subscription($id: ID!) { submissionUpdated(id: $id) { id } }',
        { id: { not: 'an id' } },
      ],
      // Who may call is answered before what was sent (caller-first.ts): forbidden, not the input's fields.
      [
        'bad input to a mutation the caller may not call',
        'mutation($id: ID!) { suspendUser(userId: $id) { id } }',
        { id: { not: 'an id' } },
      ],
    ];
    for (const [what, query, variables] of refusals) {
      const http = await t.http.gql(query, variables, user.accessToken);
      expect(http.status, what).toBeGreaterThanOrEqual(400);
      expect(http.body.errors?.[0].extensions?.code, what).toBe(
        what.startsWith('bad input') ? 'FORBIDDEN' : 'VALIDATION_FAILED',
      );
      const ws = await operate(client, query, variables);
      expect(ws.data, what).toBeUndefined();
      expect(ws.errors, what).toEqual(http.body.errors);
    }
    await client.dispose();
  });

  it('says no "Did you mean" over the socket, over HTTP, over REST, in queries and in variables', async () => {
    const user = await signUp(t, adultSignup());
    const client = connect(t.url, user.accessToken, false);
    const answers: [string, unknown][] = [
      ['ws query', await operate(client, '{ mee { id } }')],
      ['http query', (await t.http.gql('{ mee { id } }', undefined, user.accessToken)).body],
      ['ws variable', await operate(client, NOTIFICATIONS, { filter: 'unred' })],
      ['http variable', (await t.http.gql(NOTIFICATIONS, { filter: 'unred' }, user.accessToken)).body],
      ['rest query parameter', (await t.http.get('/notifications?filter=unred', { token: user.accessToken })).body],
      ['ws literal', await operate(client, '{ notifications(filter: unred) { edges { node { id } } } }')],
    ];
    for (const [where, answer] of answers) {
      const text = JSON.stringify(answer);
      expect(text, where).toMatch(/VALIDATION_FAILED|validation_failed/);
      expect(text, where).not.toMatch(/did you mean/i);
      expect(text, where).not.toMatch(/"unread"/i);
    }
    const rest = await t.http.get('/notifications?filter=unred', { token: user.accessToken });
    expect(rest.status).toBe(400);
    expect(rest.body.details?.[0].field).toBe('filter');
    await client.dispose();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import type { GqlError } from '../support/http';
import { adultSignup, PASSWORD, type SignedIn, signInAdmin, signUp, uniqueEmail } from '../support/users';

let t: TestApp;
let admin: SignedIn;
let guardian: SignedIn;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  guardian = await signUp(t, adultSignup({ email: uniqueEmail('filter-me') }));
});
afterAll(async () => {
  await t?.close();
});

const USERS = `query($first: Int, $after: String, $filter: UserFilterInput) {
  users(first: $first, after: $after, filter: $filter) { edges { node { id email roles status roleChanges { role action actorId createdAt } } } pageInfo { hasNextPage endCursor } }
}`;

describe('GET /admin/users and { users }', () => {
  it('lists accounts newest first with filters and pages', async () => {
    for (let i = 0; i < 3; i++) await signUp(t, adultSignup({ role: 'creator' }));
    const first = await t.http.get('/admin/users?role=creator&limit=2', { token: admin.accessToken });
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items.every((u: { roles: string[] }) => u.roles.includes('creator'))).toBe(true);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await t.http.get(
      `/admin/users?role=creator&limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      { token: admin.accessToken },
    );
    expect(second.body.items.length).toBeGreaterThanOrEqual(1);
    const ids = [...first.body.items, ...second.body.items].map((u: { id: string }) => u.id);
    expect(new Set(ids).size).toBe(ids.length);
    const created = [...first.body.items, ...second.body.items].map((u: { createdAt: string }) => u.createdAt);
    expect([...created].sort().reverse()).toEqual(created);

    const byEmail = await t.http.get('/admin/users?email=filter-me', { token: admin.accessToken });
    expect(byEmail.body.items.map((u: { id: string }) => u.id)).toEqual([guardian.id]);
    const gql = await t.http.gql(USERS, { filter: { email: 'FILTER-ME', status: 'ACTIVE' } }, admin.accessToken);
    expect(gql.body.data.users.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([guardian.id]);
  });

  it('refuses bad filters and page sizes with 400', async () => {
    for (const query of ['role=wizard', 'status=asleep', 'limit=101', 'limit=0', 'limit=abc', 'cursor=not-a-cursor']) {
      const reply = await t.http.get(`/admin/users?${query}`, { token: admin.accessToken });
      expect(reply.status, query).toBe(400);
      expect(reply.body.error).toBe('validation_failed');
      expect(reply.body.details.length, query).toBeGreaterThan(0);
    }
  });

  it('is refused without a token (401) and to anybody but admins (403)', async () => {
    expect((await t.http.get('/admin/users')).status).toBe(401);
    const refused = await t.http.get('/admin/users', { token: guardian.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    const gql = await t.http.gql(USERS, {}, guardian.accessToken);
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(gql.body.data).toBeNull();
  });

  it("answers anybody else's own account with its role changes null and their refusal, the rest of it answered", async () => {
    const reply = await t.http.gql('{ viewer { id roleChanges { id } } }', {}, guardian.accessToken);
    expect(reply.body.data).toEqual({ viewer: { id: guardian.id, roleChanges: null } });
    expect(reply.body.errors?.map((e: GqlError) => [e.extensions.code, e.path])).toEqual([
      ['FORBIDDEN', ['viewer', 'roleChanges']],
    ]);
  });
});

describe('granting and removing roles', () => {
  it('grants and removes a role in REST and GraphQL, and records who, when and what', async () => {
    const person = await signUp(t, adultSignup());
    const granted = await t.http.post(
      `/admin/users/${person.id}/roles`,
      { role: 'content_admin' },
      { token: admin.accessToken },
    );
    expect(granted.status).toBe(200);
    expect(granted.body.roles.sort()).toEqual(['content_admin', 'guardian']);
    // Granting again changes nothing and records nothing.
    await t.http.post(`/admin/users/${person.id}/roles`, { role: 'content_admin' }, { token: admin.accessToken });

    const removed = await t.http.gql(
      'mutation($id: ID!) { removeRole(userId: $id, role: CONTENT_ADMIN) { roles } }',
      { id: person.id },
      admin.accessToken,
    );
    expect(removed.body.data.removeRole.roles).toEqual(['GUARDIAN']);
    const restRemoved = await t.http.delete(`/admin/users/${person.id}/roles/guardian`, { token: admin.accessToken });
    expect(restRemoved.status).toBe(200);
    expect(restRemoved.body.roles).toEqual([]);

    const listed = await t.http.gql(USERS, { filter: { email: person.email } }, admin.accessToken);
    const changes = listed.body.data.users.edges[0].node.roleChanges;
    expect(changes.map((c: { role: string; action: string }) => `${c.action} ${c.role}`)).toEqual([
      'REMOVED GUARDIAN',
      'REMOVED CONTENT_ADMIN',
      'GRANTED CONTENT_ADMIN',
    ]); // newest first
    expect(
      changes.every(
        (c: { actorId: string; createdAt: string }) =>
          c.actorId === admin.id && Date.parse(c.createdAt) > Date.now() - 60_000,
      ),
    ).toBe(true);

    // The new roles hold at once, whatever the old token says.
    const login = await t.http.post('/auth/login', { email: person.email, password: PASSWORD });
    expect(login.body.user.roles).toEqual([]);
  });

  it('answers 400 for a bad role or id, 404 for an unknown account, 401 and 403 for others', async () => {
    const badRole = await t.http.post(
      `/admin/users/${guardian.id}/roles`,
      { role: 'wizard' },
      { token: admin.accessToken },
    );
    expect(badRole.status).toBe(400);
    expect(badRole.body.details[0].field).toBe('role');
    expect((await t.http.post(`/admin/users/${guardian.id}/roles`, {}, { token: admin.accessToken })).status).toBe(400);
    expect((await t.http.delete(`/admin/users/${guardian.id}/roles/wizard`, { token: admin.accessToken })).status).toBe(
      400,
    );
    const unknown = await t.http.post(
      '/admin/users/00000000-0000-4000-8000-000000000000/roles',
      { role: 'creator' },
      { token: admin.accessToken },
    );
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('not_found');
    expect(
      (await t.http.post('/admin/users/not-a-uuid/roles', { role: 'creator' }, { token: admin.accessToken })).status,
    ).toBe(404);
    expect((await t.http.post(`/admin/users/${guardian.id}/roles`, { role: 'admin' })).status).toBe(401);
    const self = await t.http.post(
      `/admin/users/${guardian.id}/roles`,
      { role: 'admin' },
      { token: guardian.accessToken },
    );
    expect(self.status).toBe(403);
    const gql = await t.http.gql(
      'mutation($id: ID!) { grantRole(userId: $id, role: ADMIN) { roles } }',
      { id: guardian.id },
      guardian.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('keeps the last admin: removing their admin role is 409 conflict', async () => {
    const alone = await startTestApp();
    try {
      const only = await signInAdmin(alone);
      const reply = await alone.http.delete(`/admin/users/${only.id}/roles/admin`, { token: only.accessToken });
      expect(reply.status).toBe(409);
      expect(reply.body.error).toBe('conflict');
      // With a second admin, it can go.
      const second = await signInAdmin(alone);
      expect(
        (await alone.http.delete(`/admin/users/${only.id}/roles/admin`, { token: second.accessToken })).status,
      ).toBe(200);
    } finally {
      await alone.close();
    }
  });

  it('keeps one admin when two remove each other at the same time', async () => {
    const pair = await startTestApp();
    try {
      const [a, b] = [await signInAdmin(pair), await signInAdmin(pair)];
      const replies = await Promise.all([
        pair.http.delete(`/admin/users/${b.id}/roles/admin`, { token: a.accessToken }),
        pair.http.delete(`/admin/users/${a.id}/roles/admin`, { token: b.accessToken }),
      ]);
      // The second to act is no longer an admin (403) or would be the last one (409): one stays.
      expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
      expect(replies.find((r) => r.status !== 200)?.status).toBeOneOf([403, 409]);
      const list = await pair.http.get('/admin/users?role=admin', {
        token: replies[0].status === 200 ? a.accessToken : b.accessToken,
      });
      expect(list.body.items).toHaveLength(1);
    } finally {
      await pair.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin, publishedCourse } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { adultSignup, learnerOfAge, PASSWORD, type SignedIn, signInAdmin, signUp } from '../support/users';
import { withBasicData } from '../support/family';

let t: TestApp;
let admin: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  other = await signUp(t, adultSignup());
});
afterAll(async () => {
  await t?.close();
});

const AUDIT = `query($action: String, $targetId: String, $actorId: ID, $first: Int, $after: String) {
  auditEntries(action: $action, targetId: $targetId, actorId: $actorId, first: $first, after: $after) {
    edges { node { id actorId actorEmail action targetType targetId data createdAt } } pageInfo { hasNextPage endCursor }
  }
}`;

describe('suspension', () => {
  it('refuses log-in and every token with 403 account_suspended, ends refresh tokens, and reactivation restores access', async () => {
    const person = await signUp(t, adultSignup());
    expect((await t.http.get('/auth/me', { token: person.accessToken })).status).toBe(200);

    const suspended = await t.http.post(
      `/admin/users/${person.id}/suspend`,
      { reason: 'spam' },
      { token: admin.accessToken },
    );
    expect(suspended.status).toBe(200);
    expect(suspended.body.status).toBe('suspended');

    const me = await t.http.get('/auth/me', { token: person.accessToken });
    expect(me.status).toBe(403);
    expect(me.body.error).toBe('account_suspended');
    const gqlMe = await t.http.gql('{ me { id } }', {}, person.accessToken);
    expect(gqlMe.body.errors?.[0].extensions.code).toBe('ACCOUNT_SUSPENDED');
    const login = await t.http.post('/auth/login', { email: person.email, password: PASSWORD });
    expect(login.status).toBe(403);
    expect(login.body.error).toBe('account_suspended');
    expect(login.body.accessToken).toBeUndefined();
    const refresh = await t.http.post('/auth/refresh', { refreshToken: person.refreshToken });
    expect(refresh.status).toBe(401);

    // Suspending twice is a conflict.
    const again = await t.http.post(`/admin/users/${person.id}/suspend`, {}, { token: admin.accessToken });
    expect(again.status).toBe(409);

    const reactivated = await t.http.gql(
      'mutation($id: ID!) { reactivateUser(userId: $id) { id status } }',
      { id: person.id },
      admin.accessToken,
    );
    expect(reactivated.body.data.reactivateUser.status).toBe('ACTIVE');
    // The suspension ended the sessions (docs/auth.md): the old token stays refused, now as a session ended (401); signing in again works.
    await expect
      .poll(async () => (await t.http.get('/auth/me', { token: person.accessToken })).status, { timeout: 1000 })
      .toBe(401);
    const back = await t.http.post('/auth/login', { email: person.email, password: PASSWORD });
    expect(back.status).toBe(200);
    expect((await t.http.get('/auth/me', { token: back.body.accessToken })).status).toBe(200);
    expect((await t.http.post(`/admin/users/${person.id}/reactivate`, {}, { token: admin.accessToken })).status).toBe(
      409,
    );
  });

  it('suspends once when two admins click at once: one 200, one 409, one audit entry', async () => {
    const person = await signUp(t, adultSignup());
    const second = await signInAdmin(t);
    const replies = await Promise.all(
      [admin, second].map((a) => t.http.post(`/admin/users/${person.id}/suspend`, {}, { token: a.accessToken })),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    const audit = await t.http.get(`/admin/audit?targetId=${person.id}&action=admin.user_suspended`, {
      token: admin.accessToken,
    });
    expect(audit.body.items).toHaveLength(1);
  });

  it('gives a pending_guardian learner their status back on reactivation', async () => {
    const child = await withBasicData(t, await learnerOfAge(t, 10));
    expect(child.user.status).toBe('pending_guardian');
    const gql = await t.http.gql(
      'mutation($id: ID!) { suspendUser(userId: $id) { status } }',
      { id: child.id },
      admin.accessToken,
    );
    expect(gql.body.data.suspendUser.status).toBe('SUSPENDED');
    const back = await t.http.post(`/admin/users/${child.id}/reactivate`, {}, { token: admin.accessToken });
    expect(back.body.status).toBe('pending_guardian');
  });

  it('answers 404 for unknown accounts, 409 for oneself, 400 for a long reason, 401 and 403 for others', async () => {
    expect(
      (await t.http.post('/admin/users/00000000-0000-4000-8000-000000000000/suspend', {}, { token: admin.accessToken }))
        .status,
    ).toBe(404);
    expect((await t.http.post('/admin/users/nope/reactivate', {}, { token: admin.accessToken })).status).toBe(404);
    expect((await t.http.post(`/admin/users/${admin.id}/suspend`, {}, { token: admin.accessToken })).status).toBe(409);
    const long = await t.http.post(
      `/admin/users/${other.id}/suspend`,
      { reason: 'x'.repeat(501) },
      { token: admin.accessToken },
    );
    expect(long.status).toBe(400);
    expect(long.body.error).toBe('validation_failed');
    expect(long.body.details.length).toBeGreaterThan(0);
    expect((await t.http.post(`/admin/users/${other.id}/suspend`, {})).status).toBe(401);
    const refused = await t.http.post(`/admin/users/${admin.id}/suspend`, {}, { token: other.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    const gql = await t.http.gql(
      'mutation($id: ID!) { suspendUser(userId: $id) { status } }',
      { id: admin.id },
      other.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('GET /admin/audit and { auditEntries }', () => {
  it('records role changes, suspensions and reactivations with actor, target and data, filtered and paged', async () => {
    const person = await signUp(t, adultSignup());
    await t.http.post(`/admin/users/${person.id}/roles`, { role: 'creator' }, { token: admin.accessToken });
    await t.http.post(`/admin/users/${person.id}/suspend`, { reason: 'abuse' }, { token: admin.accessToken });
    await t.http.post(`/admin/users/${person.id}/reactivate`, {}, { token: admin.accessToken });

    const all = await t.http.get(`/admin/audit?targetId=${person.id}`, { token: admin.accessToken });
    expect(all.status).toBe(200);
    expect(all.body.items.map((e: { action: string }) => e.action)).toEqual([
      'admin.user_reactivated',
      'admin.user_suspended',
      'admin.role_granted',
    ]);
    expect(
      all.body.items.every(
        (e: { actorId: string; actorEmail: string; targetType: string }) =>
          e.actorId === admin.id && e.actorEmail === admin.email && e.targetType === 'user',
      ),
    ).toBe(true);
    expect(all.body.items[1].data).toEqual({ previousStatus: 'active', reason: 'abuse' });
    expect(all.body.items[2].data).toEqual({ role: 'creator' });
    expect(all.body.nextCursor).toBeNull();

    const page = await t.http.get(`/admin/audit?targetId=${person.id}&limit=2`, { token: admin.accessToken });
    expect(page.body.items).toHaveLength(2);
    const rest = await t.http.get(
      `/admin/audit?targetId=${person.id}&limit=2&cursor=${encodeURIComponent(page.body.nextCursor)}`,
      { token: admin.accessToken },
    );
    expect(rest.body.items.map((e: { action: string }) => e.action)).toEqual(['admin.role_granted']);

    const gql = await t.http.gql(AUDIT, { action: 'admin.user_suspended', targetId: person.id }, admin.accessToken);
    expect(gql.body.data.auditEntries.edges).toHaveLength(1);
    const byActor = await t.http.gql(AUDIT, { actorId: admin.id, first: 100 }, admin.accessToken);
    expect(byActor.body.data.auditEntries.edges.length).toBeGreaterThanOrEqual(3);
    const since = await t.http.get(
      `/admin/audit?targetId=${person.id}&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
      { token: admin.accessToken },
    );
    expect(since.body.items).toEqual([]);
  });

  it('refuses bad filters (400), anonymous callers (401) and non-admins (403)', async () => {
    for (const query of ['limit=101', 'actorId=nope', 'since=yesterday', 'cursor=zzz']) {
      const reply = await t.http.get(`/admin/audit?${query}`, { token: admin.accessToken });
      expect(reply.status, query).toBe(400);
      expect(reply.body.error).toBe('validation_failed');
    }
    expect((await t.http.get('/admin/audit')).status).toBe(401);
    expect((await t.http.get('/admin/audit', { token: other.accessToken })).status).toBe(403);
    const gql = await t.http.gql(AUDIT, {}, other.accessToken);
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});

describe('GET /admin/stats and { platformStats }', () => {
  it('counts users by role and status and the platform activity', async () => {
    const reply = await t.http.get('/admin/stats', { token: admin.accessToken });
    expect(reply.status).toBe(200);
    const count = (role: string) => reply.body.usersByRole.find((r: { role: string }) => r.role === role)?.count ?? 0;
    expect(count('admin')).toBeGreaterThanOrEqual(1);
    expect(count('guardian')).toBeGreaterThanOrEqual(1);
    expect(
      reply.body.usersByStatus.find((s: { status: string }) => s.status === 'active').count,
    ).toBeGreaterThanOrEqual(2);
    const before = reply.body;
    expect(before).toMatchObject({ certificates: 0, aiMessagesToday: 0, revenueThisMonth: [] });

    // A learner who enrolls and finishes a lesson counts as active in both windows.
    const course = await publishedCourse(t, await contentAdmin(t), {}, 2);
    const learner = await withBasicData(t, await learnerOfAge(t, 15));
    await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken });
    await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`, undefined, { token: learner.accessToken });
    const gql = await t.http.gql(
      '{ platformStats { enrollments activeLearners7d activeLearners30d usersByRole { role count } } }',
      {},
      admin.accessToken,
    );
    expect(gql.body.data.platformStats).toMatchObject({
      enrollments: before.enrollments + 1,
      activeLearners7d: before.activeLearners7d + 1,
      activeLearners30d: before.activeLearners30d + 1,
    });

    // The tutor's usage as the AI area records it: the same learner counts once, another learner who
    // only talked to the tutor counts too, and a day's messages are summed.
    const chatter = await withBasicData(t, await learnerOfAge(t, 16));
    const sql = (await homeOf(t, chatter.id)).orm.em.getConnection();
    await sql.execute(
      `insert into ai_usage (user_id, day, messages) values (?, (now() at time zone 'utc')::date, 2), (?, (now() at time zone 'utc')::date, 3)`,
      [learner.id, chatter.id],
    );
    const after = (await t.http.get('/admin/stats', { token: admin.accessToken })).body;
    expect(after).toMatchObject({
      aiMessagesToday: 5,
      activeLearners7d: before.activeLearners7d + 2,
      activeLearners30d: before.activeLearners30d + 2,
    });
    expect((await t.http.get('/admin/stats')).status).toBe(401);
    expect((await t.http.get('/admin/stats', { token: other.accessToken })).status).toBe(403);
  });
});

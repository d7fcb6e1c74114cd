import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUnit } from '../../src/server/platform';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { learnerOfAge, PASSWORD, signInAdmin } from '../support/users';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ GDPR_SWEEP_EVERY: '1 day' });
});
afterAll(() => t.close());

describe('GET /admin/gdpr/requests', () => {
  it('admins see every request with its legal deadline; one near the one-month deadline is flagged', async () => {
    const admin = await signInAdmin(t);
    const fresh = await learnerOfAge(t, 16);
    const old = await learnerOfAge(t, 17);
    const freshRequest = await t.http.post('/gdpr/delete', { password: PASSWORD }, { token: fresh.accessToken });
    const oldRequest = await t.http.post('/gdpr/export', {}, { token: old.accessToken });
    // An export stuck for 25 days (its job never ran): 5 days to the legal deadline.
    await openUnit(await homeOf(t, old.id))
      .uow.em.getConnection()
      .execute(`update gdpr_requests set created_at = now() - interval '25 days', status = 'queued' where id = ?`, [
        oldRequest.body.id,
      ]);

    const list = await t.http.get('/admin/gdpr/requests?limit=100', { token: admin.accessToken });
    expect(list.status).toBe(200);
    const byId = new Map(list.body.items.map((r: any) => [r.id, r]));
    const flagged = byId.get(oldRequest.body.id) as any;
    expect(flagged).toMatchObject({ nearDeadline: true, subjectId: old.id });
    expect(new Date(flagged.deadline).getTime() - Date.now()).toBeLessThan(6 * 86_400_000);
    const calm = byId.get(freshRequest.body.id) as any;
    expect(calm).toMatchObject({ nearDeadline: false, kind: 'deletion', status: 'scheduled' });
    expect(new Date(calm.deadline).getTime() - Date.now()).toBeGreaterThan(29 * 86_400_000);

    const near = await t.http.get('/admin/gdpr/requests?dueWithinDays=7', { token: admin.accessToken });
    expect(near.body.items.map((r: any) => r.id)).toEqual([oldRequest.body.id]);
    const gql = await t.http.gql(
      '{ adminGdprRequests(first: 10, dueWithinDays: 7) { edges { node { id nearDeadline deadline } } } }',
      undefined,
      admin.accessToken,
    );
    expect(gql.body.data.adminGdprRequests.edges.map((e: any) => e.node.id)).toEqual([oldRequest.body.id]);
  });

  it('refuses everyone but admins (403) and anonymous callers (401); bad limits are 400', async () => {
    const admin = await signInAdmin(t);
    const learner = await learnerOfAge(t, 16);
    const refused = await t.http.get('/admin/gdpr/requests', { token: learner.accessToken });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('forbidden');
    const gql = await t.http.gql('{ adminGdprRequests { edges { node { id } } } }', undefined, learner.accessToken);
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.http.get('/admin/gdpr/requests')).status).toBe(401);
    const bad = await t.http.get('/admin/gdpr/requests?limit=1000', { token: admin.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('validation_failed');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generated } from '../factory/support';
import { contentAdmin } from '../learning/support';
import { startTestApp, type TestApp } from '../support/app';
import { type SignedIn, signInAdmin } from '../support/users';

/**
 * Country policy changes and the factory's decisions (approve, reject, retry)
 * are privileged actions, audited in the transaction that makes them and read at GET /admin/audit.
 */
let t: TestApp;
let admin: SignedIn;
let editor: SignedIn;
beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  editor = await contentAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

const auditOf = async (query: string) =>
  (await t.http.get(`/admin/audit?${query}`, { token: admin.accessToken })).body.items as Record<string, unknown>[];

describe('audit rows of country policy changes and factory decisions', () => {
  it('records a country policy change with its author, the country and the values before and after', async () => {
    const changed = await t.http.put('/country-policy/DE', { guardianConsentAge: 15 }, { token: admin.accessToken });
    expect(changed.status).toBe(200);
    const rows = await auditOf('action=country_policy.changed&targetId=DE');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actorId: admin.id,
      action: 'country_policy.changed',
      targetType: 'country',
      targetId: 'DE',
      data: { version: 1, before: { guardianConsentAge: 16 }, after: { guardianConsentAge: 15 } },
    });
    // A refused change (incoherent values) leaves no row; GraphQL reads the same trail.
    expect(
      (await t.http.put('/country-policy/DE', { guardianConsentAge: -3 }, { token: admin.accessToken })).status,
    ).toBe(400);
    const gql = await t.http.gql(
      '{ auditEntries(action: "country_policy.changed", targetId: "DE") { edges { node { actorId data } } } }',
      {},
      admin.accessToken,
    );
    expect(gql.body.data.auditEntries.edges).toHaveLength(1);
  });

  it('records approve, reject and retry of generations with the person deciding', async () => {
    const approved = await generated(t.http, editor.accessToken, { topic: 'Audited approval', lessonCount: 1 });
    const approve = await t.http.post(`/factory/generations/${approved.id}/approve`, undefined, {
      token: editor.accessToken,
    });
    expect(approve.status).toBe(200);
    // A second approval is refused (409) and writes nothing.
    expect(
      (await t.http.post(`/factory/generations/${approved.id}/approve`, undefined, { token: editor.accessToken }))
        .status,
    ).toBe(409);
    const rejected = await generated(t.http, editor.accessToken, { topic: 'Audited rejection', lessonCount: 1 });
    expect(
      (await t.http.post(`/factory/generations/${rejected.id}/reject`, undefined, { token: admin.accessToken })).status,
    ).toBe(200);

    // A generation whose quiz stage failed (as a provider outage leaves it), retried by the editor.
    const failed = await generated(t.http, editor.accessToken, { topic: 'Audited retry', lessonCount: 1 });
    const sql = (text: string, params: unknown[]) => t.app.deps.orm.em.fork().getConnection().execute(text, params);
    await sql(
      `update course_generations set status = 'failed', current_stage = 'quiz', error = 'quiz: provider down' where id = ?`,
      [failed.id],
    );
    await sql(
      `update generation_stages set status = 'failed', error = 'provider down' where generation_id = ? and name = 'quiz'`,
      [failed.id],
    );
    const retry = await t.http.gql(
      'mutation($id: ID!) { retryGeneration(id: $id) { status } }',
      { id: failed.id },
      editor.accessToken,
    );
    expect(retry.body.data.retryGeneration.status).toBe('QUEUED');

    const rows = await auditOf('targetType=generation');
    const of = (id: string) =>
      rows.filter((row) => row.targetId === id).map((row) => ({ action: row.action, actorId: row.actorId }));
    expect(of(approved.id)).toEqual([{ action: 'factory.generation_approved', actorId: editor.id }]);
    expect(rows.find((row) => row.targetId === approved.id)!.data).toEqual({ courseId: approve.body.courseId });
    expect(of(rejected.id)).toEqual([{ action: 'factory.generation_rejected', actorId: admin.id }]);
    expect(of(failed.id)).toEqual([{ action: 'factory.generation_retried', actorId: editor.id }]);
    expect(rows.find((row) => row.targetId === failed.id)!.data).toMatchObject({ stage: 'quiz' });
  });
});

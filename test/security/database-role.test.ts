import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ROLE } from '../../src/db/app-role';
import { startTestApp, type TestApp } from '../support/app';
import { asOwner } from '../support/sql';
import { adultSignup, signUp } from '../support/users';

/**
 * The service runs as a role that owns no table: SQL run as the service (an injection, a
 * bug) can read and write rows, and no more. It cannot turn off the triggers that keep the ledger
 * and the audit trail append-only, nor empty a table past them.
 */
let t: TestApp;
const asService = (text: string) => t.app.deps.orm.em.fork().getConnection().execute(text);

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('the database role the service runs as', () => {
  it('is its own role, no superuser, and owns no table', async () => {
    const [me] = (await asService(
      'select current_user as name, (select rolsuper from pg_roles where rolname = current_user) as superuser',
    )) as { name: string; superuser: boolean }[];
    expect(me).toEqual({ name: APP_ROLE, superuser: false });
    const owned = await asService(
      `select tablename from pg_tables where schemaname = 'public' and tableowner = current_user`,
    );
    expect(owned).toEqual([]);
  });

  it('cannot disable a trigger, alter or drop a table, truncate one, or leave its role', async () => {
    for (const statement of [
      'alter table ledger_entries disable trigger all',
      'alter table audit_entries disable trigger audit_entries_append_only',
      'drop trigger audit_entries_append_only on audit_entries',
      'truncate audit_entries',
      'truncate ledger_entries cascade',
      'drop table outbox',
      "set session_replication_role = 'replica'",
      'create table stolen (x int)',
      'set role postgres',
    ]) {
      await expect(asService(statement), statement).rejects.toThrow(
        /permission denied|must be owner|must be superuser|does not exist/,
      );
    }
  });

  it('keeps the audit trail append-only: an entry can be neither changed nor deleted', async () => {
    await asOwner(
      t,
      `insert into audit_entries (id, action, target_type, target_id, data, created_at) values (gen_random_uuid(), 'test.kept', 'user', 'someone', '{}', now())`,
    );
    await expect(
      asService(`update audit_entries set action = 'test.changed' where action = 'test.kept'`),
    ).rejects.toThrow(/append-only/);
    await expect(asService(`delete from audit_entries where action = 'test.kept'`)).rejects.toThrow(/append-only/);
    expect(await asService(`select action from audit_entries where action like 'test.%'`)).toEqual([
      { action: 'test.kept' },
    ]);
  });

  it("lets erasure's function replace one account's id in the audit trail, with a pseudonym, and nothing else", async () => {
    // Global's accounts: the function is tried on the test's own database, global's, where they live.
    const [person, other] = await Promise.all([1, 2].map(() => signUp(t, adultSignup({ country: 'DE' }))));
    const entry = (action: string, targetId: string, data: object) =>
      asOwner(
        t,
        `insert into audit_entries (id, action, target_type, target_id, data, created_at) values (gen_random_uuid(), $1, 'user', $2, $3, now())`,
        [action, targetId, JSON.stringify(data)],
      );
    await entry('test.pseudonym.granted', person.id, { role: 'admin' });
    await entry('test.pseudonym.granted', other.id, { role: 'admin', by: person.id });
    await entry('test.pseudonym.paid', other.id, { beneficiaryId: person.id, note: `for ${person.id}` });
    const trail = () =>
      asService(
        `select target_id, data from audit_entries where action like 'test.pseudonym.%' order by action, data::text`,
      );
    const before = await trail();

    // As the service: arbitrary text, an id that is no account's, a pseudonym that is an account's id, the old signature.
    for (const [statement, refusal] of [
      [`select audit_pseudonymise('"role": "admin"', '"role": "learner"')`, /invalid input syntax for type uuid/],
      [`select audit_pseudonymise('${randomUUID()}', '${randomUUID()}')`, /not an account/],
      [`select audit_pseudonymise('${person.id}', '${other.id}')`, /pseudonym is an account/],
      [`select audit_pseudonymise('${person.id}'::text, 'pseudonym'::text)`, /does not exist/],
    ] as const) {
      await expect(asService(statement), statement).rejects.toThrow(refusal);
    }
    expect(await trail()).toEqual(before);

    const pseudonym = randomUUID();
    await asService(`select audit_pseudonymise('${person.id}', '${pseudonym}')`);
    expect(await trail()).toEqual([
      { target_id: other.id, data: { by: pseudonym, role: 'admin' } },
      { target_id: pseudonym, data: { role: 'admin' } },
      { target_id: other.id, data: { beneficiaryId: pseudonym, note: `for ${pseudonym}` } },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { withTwoInstances } from '../support/setup';
import { ownerOfAccount } from '../support/regions';
import { asOwner } from '../support/sql';
import { adultSignup, signInAdmin, signUp } from '../support/users';

// Each instance keeps its callers' accounts in memory (src/auth/account-cache.ts).
// A change made on instance A (through the API, or straight in the database) is enforced by
// instance B within one second, REST and GraphQL alike, though B has the account in memory already.
const apps = withTwoInstances();

/** What B answers an admin-only read: REST's status and error, and its GraphQL twin's code. */
async function adminReadOn(t: TestApp, token: string) {
  const [rest, gql] = await Promise.all([
    t.http.get('/admin/stats', { token }),
    t.http.gql('{ platformStats { usersByRole { role count } } }', undefined, token),
  ]);
  return { rest: [rest.status, rest.body?.error ?? null], graphql: gql.body.errors?.[0]?.extensions.code ?? 'OK' };
}

/** What B answers GET /auth/me and `query Me`: the status (or code) and the account's display name and roles. */
async function meOn(t: TestApp, token: string) {
  const [rest, gql] = await Promise.all([
    t.http.get('/auth/me', { token }),
    t.http.gql('{ me { displayName roles status } }', undefined, token),
  ]);
  return {
    rest: [rest.status, rest.body?.error ?? rest.body.user.displayName, rest.body?.user?.roles ?? null],
    graphql: gql.body.errors?.[0]?.extensions.code ?? [gql.body.data.me.displayName, gql.body.data.me.roles],
  };
}

/** Polls until `read` gives `expected`; fails when that takes a second or more. */
async function withinOneSecond<T>(read: () => Promise<T>, expected: T) {
  const started = Date.now();
  let seen = await read();
  while (JSON.stringify(seen) !== JSON.stringify(expected) && Date.now() - started < 1000) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    seen = await read();
  }
  expect(seen).toEqual(expected);
  expect(Date.now() - started).toBeLessThan(1000);
}

const allowed = { rest: [200, null], graphql: 'OK' };
const forbidden = { rest: [403, 'forbidden'], graphql: 'FORBIDDEN' };

describe("a caller's account kept in memory follows every change, on every instance, within a second", () => {
  it('a role granted on A lets the old token in on B; removed on A, B refuses it again', async () => {
    const { first: a, second: b } = apps;
    const admin = await signInAdmin(a);
    const user = await signUp(a, adultSignup());
    // B has the account in memory: the token's own roles say guardian, and so does the account.
    expect(await adminReadOn(b, user.accessToken)).toEqual(forbidden);
    expect(
      (await a.http.post(`/admin/users/${user.id}/roles`, { role: 'admin' }, { token: admin.accessToken })).status,
    ).toBe(200);
    await withinOneSecond(() => adminReadOn(b, user.accessToken), allowed);
    expect((await a.http.delete(`/admin/users/${user.id}/roles/admin`, { token: admin.accessToken })).status).toBe(200);
    await withinOneSecond(() => adminReadOn(b, user.accessToken), forbidden);
    // A's own write is seen by A's very next request, before any event could come back.
    expect(
      (await a.http.post(`/admin/users/${user.id}/roles`, { role: 'admin' }, { token: admin.accessToken })).status,
    ).toBe(200);
    expect(await adminReadOn(a, user.accessToken)).toEqual(allowed);
  });

  it('a suspension written in the database, with no session ended, refuses the token on both instances with 403 account_suspended', async () => {
    const { first: a, second: b } = apps;
    const user = await signUp(a, adultSignup({ displayName: 'Before' }));
    await withinOneSecond(() => meOn(b, user.accessToken), {
      rest: [200, 'Before', ['guardian']],
      graphql: ['Before', ['GUARDIAN']],
    });
    await asOwner(await ownerOfAccount(a, user.id), `update users set status = 'suspended' where id = $1`, [user.id]);
    const suspended = { rest: [403, 'account_suspended', null], graphql: 'ACCOUNT_SUSPENDED' };
    await withinOneSecond(() => meOn(b, user.accessToken), suspended);
    await withinOneSecond(() => meOn(a, user.accessToken), suspended);
  });

  it("a change of the account's own fields (its name) reaches GET /auth/me and query Me on the other instance", async () => {
    const { first: a, second: b } = apps;
    const user = await signUp(a, adultSignup({ displayName: 'Old name' }));
    await withinOneSecond(() => meOn(b, user.accessToken), {
      rest: [200, 'Old name', ['guardian']],
      graphql: ['Old name', ['GUARDIAN']],
    });
    await asOwner(await ownerOfAccount(a, user.id), `update users set display_name = 'New name' where id = $1`, [
      user.id,
    ]);
    await withinOneSecond(() => meOn(b, user.accessToken), {
      rest: [200, 'New name', ['guardian']],
      graphql: ['New name', ['GUARDIAN']],
    });
  });
});

import { settled } from '../support/sql';
import { beforeAll, describe, expect, it } from 'vitest';
import { request, waitForStatus } from '../factory/support';
import { contentAdmin, courseBody } from '../learning/support';
import type { TestApp } from '../support/app';
import { withMailAndApp } from '../support/setup';
import type { SmtpServer } from '../support/smtp';
import {
  adultSignup,
  learnerOfAge,
  type SignedIn,
  signInAdmin,
  signUp,
  uniqueEmail,
  verifiedGuardian,
} from '../support/users';
import { fewestStatements } from '../support/sql';

// A list field that loads per parent costs one statement per row; batched, a page costs the same
// whatever its length.
const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let editor: SignedIn;

beforeAll(async () => {
  ({ t, smtp } = ctx);
  editor = await contentAdmin(t);
});

const statements = <T>(run: () => Promise<T>) => fewestStatements(t, run);

describe('lists read their children in one statement', () => {
  it('GET /guardian/me/links with each link history: the same for 1 and 5 links', async () => {
    const guardianWith = async (links: number) => {
      const guardian = await verifiedGuardian(t, smtp);
      for (let i = 0; i < links; i++) {
        const learner = await learnerOfAge(t, 14);
        await t.http.post('/guardian/declare', { learnerEmail: learner.email }, { token: guardian.accessToken });
      }
      return guardian;
    };
    const [one, five] = [await guardianWith(1), await guardianWith(5)];
    // Each declaration asks its learner through a job: counted, its statements would not be the list's.
    await settled(t);
    const small = await statements(() => t.http.get('/guardian/me/links', { token: one.accessToken }));
    const large = await statements(() => t.http.get('/guardian/me/links', { token: five.accessToken }));
    expect(small.result.body.items).toHaveLength(1);
    expect(large.result.body.items).toHaveLength(5);
    expect(large.result.body.items.every((link: { history: unknown[] }) => link.history.length === 1)).toBe(true);
    expect(large.count).toBe(small.count);
  });

  it('courses with their lessons: the same for 1 and 20 courses', async () => {
    for (let i = 0; i < 20; i++) {
      const created = await t.http.post('/courses', courseBody({}, 3), { token: editor.accessToken });
      await t.http.post(`/courses/${created.body.id}/publish`, undefined, { token: editor.accessToken });
    }
    const query = 'query($first: Int) { courses(first: $first) { edges { node { id lessons { id position } } } } }';
    const small = await statements(() => t.http.gql(query, { first: 1 }, editor.accessToken));
    const large = await statements(() => t.http.gql(query, { first: 20 }, editor.accessToken));
    expect(small.result.body.data.courses.edges).toHaveLength(1);
    expect(large.result.body.data.courses.edges).toHaveLength(20);
    expect(
      large.result.body.data.courses.edges.every((e: { node: { lessons: unknown[] } }) => e.node.lessons.length === 3),
    ).toBe(true);
    expect(large.count).toBe(small.count);
  });

  it('generations with their lessons: the same for 1 and 20 generations', { timeout: 180_000 }, async () => {
    const requester = await contentAdmin(t);
    const started = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.http.post('/factory/generate', request({ lessonCount: 1 }), { token: requester.accessToken }),
      ),
    );
    await Promise.all(
      started.map((s) => waitForStatus(t.http, requester.accessToken, s.body.id, ['awaiting_approval'], 150_000)),
    );
    const query =
      'query($first: Int) { factoryGenerations(first: $first) { edges { node { id lessons { position flagged } } } } }';
    const small = await statements(() => t.http.gql(query, { first: 1 }, requester.accessToken));
    const large = await statements(() => t.http.gql(query, { first: 20 }, requester.accessToken));
    expect(large.result.body.data.factoryGenerations.edges).toHaveLength(20);
    expect(
      large.result.body.data.factoryGenerations.edges.every(
        (e: { node: { lessons: unknown[] } }) => e.node.lessons.length === 1,
      ),
    ).toBe(true);
    expect(large.count).toBe(small.count);
  });

  it('role changes of a page of users: the same for 1 and 5 users', async () => {
    const boss = await signInAdmin(t);
    for (let i = 0; i < 5; i++) {
      const user = await signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('staff') }));
      await t.http.post(`/admin/users/${user.id}/roles`, { role: 'content_admin' }, { token: boss.accessToken });
    }
    const query =
      'query($first: Int) { users(first: $first, filter: { role: CONTENT_ADMIN }) { edges { node { id roleChanges { role action } } } } }';
    const small = await statements(() => t.http.gql(query, { first: 1 }, boss.accessToken));
    const large = await statements(() => t.http.gql(query, { first: 5 }, boss.accessToken));
    expect(large.result.body.data.users.edges).toHaveLength(5);
    expect(large.count).toBe(small.count);
  });
});

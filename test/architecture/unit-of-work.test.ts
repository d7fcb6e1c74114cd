import { randomUUID } from 'node:crypto';
import { wrap } from '@mikro-orm/core';
import { Client } from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin, publishedCourse } from '../learning/support';
import { generated } from '../factory/support';
import type { TestApp } from '../support/app';
import { linkFamily, withBasicData } from '../support/family';
import { withMailAndApp } from '../support/setup';
import { fewestStatements, settled } from '../support/sql';
import { publishedProduct } from '../support/commerce';
import { openUnit } from '../../src/server/platform';
import { Role, User } from '../../src/auth/user.entity';
import type { SmtpServer } from '../support/smtp';
import {
  bornYearsAgo,
  learnerOfAge,
  learnerSignup,
  type SignedIn,
  signInAdmin,
  uniqueEmail,
  verifiedGuardian,
} from '../support/users';
import { connect, eventually, subscribe } from '../support/ws';

// A failure injected after the first write of each multi-step operation: a trigger of the test's
// own database raises at the later write, as a lost connection or a broken constraint would.
// The accounts are of a global country: the triggers and the counts are on the test's own database,
// global's, and the transactions are what is tested, not where an account lives.
const globalCountry = { country: 'DE' };
const ctx = withMailAndApp();
let t: TestApp;
let smtp: SmtpServer;
let db: Client;
let editor: SignedIn;

beforeAll(async () => {
  ({ t, smtp } = ctx);
  db = new Client({ connectionString: t.databaseUrl });
  await db.connect();
  editor = await contentAdmin(t);
  return () => db.end();
});

afterEach(async () => {
  await db.query('drop trigger if exists injected_failure on guardian_links');
  await db.query('drop trigger if exists injected_failure on refresh_tokens');
  await db.query('drop trigger if exists injected_failure on course_generations');
  await db.query('drop trigger if exists injected_failure on notifications');
  await db.query('drop trigger if exists injected_failure on certificates');
});

/** Makes the next write to `table` that matches `when` fail. */
async function failWrites(table: string, event: 'insert' | 'update', when = 'true') {
  await db.query(
    `create or replace function injected_failure() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`,
  );
  await db.query(
    `create trigger injected_failure before ${event} on ${table} for each row when (${when}) execute function injected_failure()`,
  );
}

const count = async (sql: string, params: unknown[]) => Number((await db.query(sql, params)).rows[0].n);

describe('one transaction per operation', () => {
  it('adding a child whose link cannot be stored leaves no child account', async () => {
    const guardian = await verifiedGuardian(t, smtp, globalCountry);
    await failWrites('guardian_links', 'insert');
    const reply = await t.http.post(
      '/guardian/learners',
      { displayName: 'Orphan Child', birthDate: bornYearsAgo(9) },
      { token: guardian.accessToken },
    );
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ error: 'internal_error', message: expect.any(String) });
    expect(await count(`select count(*) as n from users where display_name = 'Orphan Child'`, [])).toBe(0);
  });

  it('a sign-up with a guardian e-mail whose session cannot be stored leaves no account and mails nobody', async () => {
    const email = uniqueEmail('child');
    const guardianEmail = uniqueEmail('parent');
    await failWrites('refresh_tokens', 'insert');
    const reply = await t.http.post(
      '/auth/signup',
      learnerSignup(bornYearsAgo(10), { email, guardianEmail, ...globalCountry }),
    );
    expect(reply.status).toBe(500);
    expect(await count('select count(*) as n from users where email = $1', [email])).toBe(0);
    expect(
      await count(`select count(*) as n from account_tokens t join users u on u.id = t.user_id where u.email = $1`, [
        email,
      ]),
    ).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter((m) => m.to.includes(email) || m.to.includes(guardianEmail))).toEqual([]);
  });

  it('an approval whose generation cannot be marked approved publishes no course and tells nobody', async () => {
    const generation = await generated(t.http, editor.accessToken);
    const coursesBefore = await count('select count(*) as n from courses', []);
    const notificationsBefore = await count('select count(*) as n from notifications where user_id = $1', [editor.id]);
    await failWrites('course_generations', 'update', `new.status = 'approved'`);
    const reply = await t.http.post(`/factory/generations/${generation.id}/approve`, undefined, {
      token: editor.accessToken,
    });
    expect(reply.status).toBe(500);
    expect(await count('select count(*) as n from courses', [])).toBe(coursesBefore);
    // The notice would follow through the outbox: nothing is left to deliver, and nothing came.
    await settled(t);
    expect(await count('select count(*) as n from notifications where user_id = $1', [editor.id])).toBe(
      notificationsBefore,
    );
    const after = await t.http.get(`/factory/generations/${generation.id}`, { token: editor.accessToken });
    expect(after.body).toMatchObject({ status: 'awaiting_approval', courseId: null });
  });

  it('completing the last lesson when its certificate cannot be stored keeps no completion and announces nothing', async () => {
    const { course, learner, guardian } = await readyToFinish();
    const live = subscribe(connect(t.url, learner.accessToken), 'subscription { notificationAdded { id type } }');
    await live.ready;
    await failWrites('certificates', 'insert', `new.learner_id = '${learner.id}'`);
    const reply = await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`, undefined, {
      token: learner.accessToken,
    });
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ error: 'internal_error', message: expect.any(String) });
    expect(await count('select count(*) as n from lesson_completions where learner_id = $1', [learner.id])).toBe(0);
    // The notifications it would have announced were outbox rows of the same transaction: none is left.
    expect(await count(`select count(*) as n from outbox where payload->>'learnerId' = $1`, [learner.id])).toBe(0);

    // The same request once the failure is gone: everything, and each notice, arrive once.
    await db.query('drop trigger injected_failure on certificates');
    const again = await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`, undefined, {
      token: learner.accessToken,
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ completed: true });
    expect(await count('select count(*) as n from certificates where learner_id = $1', [learner.id])).toBe(1);
    await eventually(
      () => live.events.some((e) => e.data?.notificationAdded?.type === 'CERTIFICATE'),
      'the certificate notice',
    );
    await settled(t);
    expect(await noticesOf(learner.id)).toEqual({ certificate: 1, progress: 1 });
    expect(await noticesOf(guardian.id)).toEqual({ certificate: 1, progress: 1 });
    expect(live.events.filter((e) => e.data?.notificationAdded?.type === 'CERTIFICATE')).toHaveLength(1);
    await live.close();
  });

  it('completing the last lesson while the notices cannot be stored keeps the completion; the notices follow once they can, each once', async () => {
    const { course, learner, guardian } = await readyToFinish();
    // The guardian's notices fail; the learner's, delivered in the same transactions, are undone with them.
    await failWrites('notifications', 'insert', `new.user_id = '${guardian.id}'`);
    const reply = await t.http.post(`/progress/lessons/${course.lessonIds[0]}/complete`, undefined, {
      token: learner.accessToken,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ completed: true });
    expect(await count('select count(*) as n from lesson_completions where learner_id = $1', [learner.id])).toBe(1);
    expect(await count('select count(*) as n from certificates where learner_id = $1', [learner.id])).toBe(1);
    await expect
      .poll(() =>
        count(
          `select count(*) as n from outbox where payload->>'learnerId' = $1 and last_error like '%injected failure%'`,
          [learner.id],
        ),
      )
      .toBeGreaterThanOrEqual(1);
    expect(await noticesOf(guardian.id)).toEqual({});

    // The relay retries them: once the failure is gone each notice is stored once.
    await db.query('drop trigger injected_failure on notifications');
    await settled(t);
    expect(await noticesOf(learner.id)).toEqual({ certificate: 1, progress: 1 });
    expect(await noticesOf(guardian.id)).toEqual({ certificate: 1, progress: 1 });
  });
});

/** A learner, linked to a guardian, enrolled in a one-lesson course whose quiz they passed: the next completion finishes it. */
async function readyToFinish() {
  const course = await publishedCourse(t, editor, {}, 1);
  const learner = await withBasicData(t, await learnerOfAge(t, 14, globalCountry));
  const guardian = await verifiedGuardian(t, smtp, globalCountry);
  await linkFamily(t, guardian, learner);
  await t.http.post(`/courses/${course.id}/enrollment`, undefined, { token: learner.accessToken });
  await t.http.post(
    `/progress/lessons/${course.lessonIds[0]}/quiz`,
    { answers: [1, 0] },
    { token: learner.accessToken },
  );
  return { course, learner, guardian };
}

/** A user's certificate and progress notifications, counted by type. */
async function noticesOf(userId: string): Promise<Record<string, number>> {
  const rows = (
    await db.query(
      `select type, count(*)::int as n from notifications where user_id = $1 and type in ('certificate', 'progress') group by type`,
      [userId],
    )
  ).rows;
  return Object.fromEntries(rows.map((row: { type: string; n: number }) => [row.type, row.n]));
}

describe('the outbox relay', () => {
  it('delivers a burst of reactions in few transactions, each once, and a row that fails delays only itself', async () => {
    const product = await publishedProduct(t, await signInAdmin(t));
    await settled(t);
    const sales = async () =>
      Number((await db.query('select sales from products where id = $1', [product.id])).rows[0].sales);
    const before = await sales();
    const { uow } = openUnit(t.app.deps);
    // Each sale a payment of its own: a product counts a payment's sale once.
    const sale = () => ({
      kind: 'event',
      name: 'catalog',
      payload: { type: 'payment.succeeded', productId: product.id, paymentId: randomUUID() },
    });
    // A reaction no area has: its delivery fails wherever it falls in a claim.
    const orphan = {
      kind: 'event',
      name: 'nobody',
      payload: { type: 'payment.succeeded', productId: product.id, paymentId: 'orphan' },
    };
    const { statements } = await fewestStatements(
      t,
      async () => {
        await uow.transaction(() =>
          uow.enqueue(...Array.from({ length: 15 }, sale), orphan, ...Array.from({ length: 15 }, sale)),
        );
        await expect.poll(sales, { timeout: 15_000 }).toBe(before + 30);
      },
      1,
    );
    expect(await sales()).toBe(before + 30);
    // One transaction per claim of 20 rows where one row failed, one per row otherwise: far fewer than thirty.
    expect(statements.filter((q) => /^begin/i.test(q)).length).toBeLessThan(25);
    const left = (
      await db.query(
        `select name, attempts, last_error from outbox where payload->>'paymentId' like 'burst-%' or payload->>'paymentId' = 'orphan'`,
      )
    ).rows;
    expect(left).toEqual([
      { name: 'nobody', attempts: expect.any(Number), last_error: expect.stringContaining('does not react') },
    ]);
    await db.query(`delete from outbox where payload->>'paymentId' = 'orphan'`);
  });
});

describe('uow.query: plain SQL past the ORM outside a transaction, in it inside one', () => {
  it('sees the unit’s own uncommitted write inside its transaction, and rows exactly as em.execute gives them outside', async () => {
    const learner = await learnerOfAge(t, 20, globalCountry);
    const { uow } = openUnit(t.app.deps);
    const sql =
      "select id, display_name, birth_date, created_at, ? as literal_mark from users where id = ? and display_name <> '?'";
    const params = ['kept', learner.id];
    expect(await uow.query(sql, params)).toEqual(await uow.em.execute(sql, params));
    const [row] = await uow.query<Record<string, unknown>>(sql, params);
    expect(row).toMatchObject({
      id: learner.id,
      literal_mark: 'kept',
      birth_date: expect.any(String),
      created_at: expect.any(String),
    });
    await uow
      .transaction(async () => {
        await uow.em.execute('update users set display_name = ? where id = ?', ['Renamed in the unit', learner.id]);
        expect(await uow.query('select display_name from users where id = ?', [learner.id])).toEqual([
          { display_name: 'Renamed in the unit' },
        ]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await uow.query('select display_name from users where id = ?', [learner.id])).not.toEqual([
      { display_name: 'Renamed in the unit' },
    ]);
  });
});

describe("the caller's account, read past the ORM (auth.findUser)", () => {
  it('is managed as findOne makes it: the same fields, one object per unit, a flush writes what changed and nothing else', async () => {
    const learner = await learnerOfAge(t, 20, globalCountry);
    const { uow, services } = openUnit(t.app.deps);
    const viewer = (await services.auth.findUser(learner.id))!;
    expect(await services.auth.findUser(learner.id)).toBe(viewer);
    const { services: other } = openUnit(t.app.deps);
    const byOrm = (await openUnit(t.app.deps).uow.em.findOne(User, { id: learner.id }))!;
    expect(wrap(viewer).toObject()).toEqual(wrap(byOrm).toObject());
    expect(viewer.emailVerified).toBe(byOrm.emailVerified);

    // Statements of the service's own relay or jobs would be counted too: none is under way.
    await settled(t);
    expect((await fewestStatements(t, () => uow.em.flush(), 1)).statements).toEqual([]);
    viewer.displayName = 'Renamed through the unit';
    viewer.roles = [...viewer.roles, Role.creator];
    const { statements } = await fewestStatements(t, () => uow.em.flush(), 1);
    expect(statements.filter((query) => /^update "users"/.test(query))).toHaveLength(1);
    const stored = (await other.auth.findUser(learner.id))!;
    expect(stored).toMatchObject({
      displayName: 'Renamed through the unit',
      roles: expect.arrayContaining([Role.learner, Role.creator]),
    });
    expect(await services.auth.findUser('00000000-0000-4000-8000-000000000000')).toBeNull();
  });
});

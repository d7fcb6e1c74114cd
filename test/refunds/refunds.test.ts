import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxSecretOf } from '../../src/payments/providers';
import { signSandbox } from '../../src/payments/providers/sandbox';
import { openUnit } from '../../src/server/platform';
import { buy, postSandbox, publishedProduct, waitFor } from '../support/commerce';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { adultSignup, learnerOfAge, type SignedIn, signInAdmin, signUp } from '../support/users';

let t: TestApp;
let admin: SignedIn;
let product: Awaited<ReturnType<typeof publishedProduct>>;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
  product = await publishedProduct(t, admin);
});
afterAll(async () => {
  await t?.close();
});

const balance = async (account: string, currency = 'VND') => {
  const reply = await t.http.get('/admin/ledger/balances', { token: admin.accessToken });
  return (
    reply.body.items.find(
      (b: { account: string; currency: string }) => b.account === account && b.currency === currency,
    )?.balance ?? 0
  );
};
/** The month's revenue in VND as the admin stats give it (REST, or its GraphQL twin). */
const revenue = async (over: 'rest' | 'graphql' = 'rest'): Promise<number> => {
  const rows: { currency: string; amount: number }[] =
    over === 'rest'
      ? (await t.http.get('/admin/stats', { token: admin.accessToken })).body.revenueThisMonth
      : (await t.http.gql('{ platformStats { revenueThisMonth { currency amount } } }', {}, admin.accessToken)).body
          .data.platformStats.revenueThisMonth;
  return rows.find((r) => r.currency === 'VND')?.amount ?? 0;
};
const settled = (id: string, who: SignedIn) =>
  waitFor(
    () => t.http.get('/refunds/me', { token: who.accessToken }),
    (r) => r.body.items.find((x: { id: string }) => x.id === id)?.status !== 'processing',
  );

describe('refunds', () => {
  it('partial then full: processing, the provider webhook, succeeded; the ledger reverses and a full refund revokes', async () => {
    const buyer = await signUp(t, adultSignup());
    const providerBefore = await balance('provider:sandbox');
    const revenueBefore = await revenue();
    const payment = await buy(t, buyer, product);
    expect(await revenue()).toBe(revenueBefore + 199000);
    const asked = await t.http.post(
      '/refunds',
      { paymentId: payment.id, amount: 50000, reason: 'changed my mind' },
      { token: buyer.accessToken },
    );
    expect(asked.status).toBe(201);
    expect(asked.body).toMatchObject({ status: 'requested', amount: 50000, currency: 'VND' });
    const approved = await t.http.post(`/refunds/${asked.body.id}/approve`, undefined, { token: admin.accessToken });
    expect(approved.status).toBe(200);
    expect(['processing', 'succeeded']).toContain(approved.body.status);
    const after = await settled(asked.body.id, buyer);
    expect(after.body.items[0].status).toBe('succeeded');
    expect((await t.http.get(`/payments/${payment.id}`, { token: buyer.accessToken })).body).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 50000,
    });
    expect((await t.http.get('/auth/me', { token: buyer.accessToken })).body.user.tier).toBe('starter');
    // The admin's revenue is the ledger's: a partial refund takes its part back.
    expect(await revenue('graphql')).toBe(revenueBefore + 149000);

    const rest = await t.http.post(
      '/refunds',
      { paymentId: payment.id, reason: 'the rest' },
      { token: buyer.accessToken },
    );
    expect(rest.body.amount).toBe(149000);
    const gql = await t.http.gql(
      'mutation($id: ID!) { approveRefund(id: $id) { id status } }',
      { id: rest.body.id },
      admin.accessToken,
    );
    expect(gql.body.data.approveRefund.id).toBe(rest.body.id);
    await settled(rest.body.id, buyer);
    expect((await t.http.get(`/payments/${payment.id}`, { token: buyer.accessToken })).body).toMatchObject({
      status: 'refunded',
      refundedAmount: 199000,
    });
    expect((await t.http.get('/auth/me', { token: buyer.accessToken })).body.user.tier).toBe('free');
    expect((await t.http.get('/entitlements/me', { token: buyer.accessToken })).body.items[0].status).toBe('revoked');
    expect(await balance('provider:sandbox')).toBe(providerBefore);
    expect(await balance(`customer:${buyer.id}`)).toBe(0);
    expect(await revenue()).toBe(revenueBefore);
    const more = await t.http.post(
      '/refunds',
      { paymentId: payment.id, amount: 1, reason: 'again' },
      { token: buyer.accessToken },
    );
    expect(more.status).toBe(409);
  });

  it('10 concurrent refunds never add up to more than the payment', async () => {
    const buyer = await signUp(t, adultSignup());
    const payment = await buy(t, buyer, product);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.http.post('/refunds', { paymentId: payment.id, amount: 30000, reason: 'race' }, { token: buyer.accessToken }),
      ),
    );
    const created = answers.filter((a) => a.status === 201);
    expect(created).toHaveLength(6);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(4);
    await Promise.all(
      created.map((c) => t.http.post(`/refunds/${c.body.id}/approve`, undefined, { token: admin.accessToken })),
    );
    const paid = await waitFor(
      () => t.http.get(`/payments/${payment.id}`, { token: buyer.accessToken }),
      (r) => r.body.refundedAmount === 180000,
    );
    expect(paid.body.refundedAmount).toBe(180000);
    expect(paid.body.status).toBe('partially_refunded');
  });

  it('refuses: anonymous 401, someone else 404, non-admin approval 403, outside the window 409 (admins may), bad amount 400', async () => {
    const buyer = await signUp(t, adultSignup());
    const payment = await buy(t, buyer, product);
    expect((await t.http.post('/refunds', { paymentId: payment.id, reason: 'x' })).status).toBe(401);
    const stranger = await signUp(t, adultSignup());
    expect(
      (await t.http.post('/refunds', { paymentId: payment.id, reason: 'x' }, { token: stranger.accessToken })).status,
    ).toBe(404);
    const learner = await learnerOfAge(t, 15);
    expect(
      (await t.http.post('/refunds', { paymentId: payment.id, reason: 'x' }, { token: learner.accessToken })).status,
    ).toBe(404);
    const bad = await t.http.post(
      '/refunds',
      { paymentId: payment.id, amount: -5, reason: 'x' },
      { token: buyer.accessToken },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toContain('amount');
    const asked = await t.http.post(
      '/refunds',
      { paymentId: payment.id, amount: 1000, reason: 'x' },
      { token: buyer.accessToken },
    );
    expect(
      (await t.http.post(`/refunds/${asked.body.id}/approve`, undefined, { token: buyer.accessToken })).status,
    ).toBe(403);
    const rejected = await t.http.post(`/refunds/${asked.body.id}/reject`, undefined, { token: admin.accessToken });
    expect(rejected.body.status).toBe('rejected');
    expect(
      (await t.http.post(`/refunds/${asked.body.id}/approve`, undefined, { token: admin.accessToken })).status,
    ).toBe(409);

    // The payment is kept in its buyer's home region's database.
    await openUnit(await homeOf(t, buyer.id)).uow.em.execute(
      `update payments set succeeded_at = now() - interval '15 days' where id = ?`,
      [payment.id],
    );
    const late = await t.http.post('/refunds', { paymentId: payment.id, reason: 'late' }, { token: buyer.accessToken });
    expect(late.status).toBe(409);
    const byAdmin = await t.http.post(
      '/refunds',
      { paymentId: payment.id, amount: 500, reason: 'goodwill' },
      { token: admin.accessToken },
    );
    expect(byAdmin.status).toBe(201);

    expect((await t.http.get('/refunds', { token: buyer.accessToken })).status).toBe(403);
    const all = await t.http.get('/refunds?limit=100', { token: admin.accessToken });
    expect(all.body.items.map((r: { id: string }) => r.id)).toContain(asked.body.id);
    const mine = await t.http.gql('{ myRefunds(first: 10) { edges { node { id status } } } }', {}, buyer.accessToken);
    expect(mine.body.data.myRefunds.edges[0].node.status).toBe('REJECTED');
  });
});

describe("the provider's word on a refund, given again", () => {
  /** A read of what is kept of the account `of` (a payment, its refunds, its ledger), in its home region's database. */
  const sql = async <T>(of: SignedIn, query: string, params: unknown[]) =>
    openUnit(await homeOf(t, of.id)).uow.em.execute<T[]>(query, params);
  /** A refund.succeeded event as the sandbox provider signs it. */
  const refundEvent = (eventId: string, paymentId: string, refundId: string, amount: number) => {
    const body = JSON.stringify({
      id: eventId,
      type: 'refund.succeeded',
      paymentId,
      refundId,
      amount,
      currency: 'VND',
    });
    return { body, signature: signSandbox(sandboxSecretOf(t.app.deps.config), body) };
  };

  it('settles the refund, the payment and the ledger once, whether the provider repeats its event or sends it again under new ids, concurrently', async () => {
    const buyer = await signUp(t, adultSignup());
    const payment = await buy(t, buyer, product);
    const asked = await t.http.post(
      '/refunds',
      { paymentId: payment.id, amount: 50000, reason: 'sent twice' },
      { token: buyer.accessToken },
    );
    expect(asked.status).toBe(201);
    await t.http.post(`/refunds/${asked.body.id}/approve`, undefined, { token: admin.accessToken });
    expect((await settled(asked.body.id, buyer)).body.items[0]).toMatchObject({
      id: asked.body.id,
      status: 'succeeded',
    });
    const refundRow = () =>
      sql<{ status: string; updated_at: Date }>(buyer, 'select status, updated_at from refunds where id = ?', [
        asked.body.id,
      ]);
    const postings = () =>
      sql<{ kind: string }>(buyer, 'select kind from ledger_transactions where refund_id = ? order by kind', [
        asked.body.id,
      ]);
    const before = {
      refund: await refundRow(),
      provider: await balance('provider:sandbox'),
      customer: await balance(`customer:${buyer.id}`),
    };
    expect(await postings()).toEqual([{ kind: 'fee_split' }, { kind: 'refund' }]);

    // The sandbox's own event once more (stored once by its id), and the same word under new ids,
    // as a provider that lost our answer (we stopped between commit and reply) sends it again.
    const again = [refundEvent(`evt_refund_${asked.body.id}`, payment.id, asked.body.id, 50000)];
    for (let i = 0; i < 5; i++)
      again.push(refundEvent(`evt_refund_again_${i}_${asked.body.id}`, payment.id, asked.body.id, 50000));
    const answers = await Promise.all(again.map((event) => postSandbox(t, event)));
    expect(answers.map((a) => a.status)).toEqual(again.map(() => 200));

    expect(await refundRow()).toEqual(before.refund);
    expect(await postings()).toEqual([{ kind: 'fee_split' }, { kind: 'refund' }]);
    expect((await t.http.get(`/payments/${payment.id}`, { token: buyer.accessToken })).body).toMatchObject({
      status: 'partially_refunded',
      refundedAmount: 50000,
    });
    expect(await balance('provider:sandbox')).toBe(before.provider);
    expect(await balance(`customer:${buyer.id}`)).toBe(before.customer);
    const mine = await t.http.gql('{ myRefunds(first: 10) { edges { node { id status } } } }', {}, buyer.accessToken);
    expect(mine.body.data.myRefunds.edges).toEqual([{ node: { id: asked.body.id, status: 'SUCCEEDED' } }]);
  });
});

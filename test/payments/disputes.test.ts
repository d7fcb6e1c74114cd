import { beforeAll, describe, expect, it } from 'vitest';
import { BACKFILL_REVOKED_REASON_SQL } from '../../src/payments/migrations/Migration20261126000000_entitlement_revoked_reason';
import { contentAdmin, publishedCourse } from '../learning/support';
import type { TestApp } from '../support/app';
import { adultSignup, type SignedIn, signUp } from '../support/users';
import {
  buy,
  checkout,
  deliverStripeEvent,
  publishedProduct,
  type StripeFixture,
  text,
  waitFor,
  withStripeProvider,
  rowsInEveryRegion,
} from '../support/commerce';

const stripe = withStripeProvider('disputes');
let t: TestApp;
let admin: SignedIn;
let provider: StripeFixture['provider'];
let product: StripeFixture['product'];
const { stripeEvent } = stripe;
beforeAll(() => {
  ({ t, admin, provider, product } = stripe);
});
const deliver = (event: { payload: string; header: string }) => deliverStripeEvent(t, event);
const payment = async (buyer: SignedIn, id: string) =>
  (await t.http.get(`/payments/${id}`, { token: buyer.accessToken })).body;
const entitlements = async (who: SignedIn) =>
  (await t.http.get('/entitlements/me', { token: who.accessToken })).body as {
    tier: string;
    items: { id: string; courseId: string | null; status: string }[];
  };
const tier = async (who: SignedIn) =>
  (await t.http.get('/auth/me', { token: who.accessToken })).body.user.tier as string;
// A buyer's payment, ledger and entitlements are in their home region's database: every region is read.
const sql = <T>(query: string, params: unknown[]) => rowsInEveryRegion<T>(t, query, params);

/** Each ledger transaction of a payment: its kind and the sum of its entries (zero when balanced). */
const ledgerOf = (paymentId: string) =>
  sql<{ kind: string; total: string; provider: string }>(
    `select t.kind, sum(e.amount) as total, sum(e.amount) filter (where e.account like 'provider:%') as provider
     from ledger_transactions t join ledger_entries e on e.transaction_id = t.id where t.payment_id = ? group by t.id, t.kind, t.created_at
     order by t.created_at, array_position(array['payment', 'fee_split', 'refund', 'chargeback'], t.kind::text)`,
    [paymentId],
  );

/** A Stripe subscription bought through Checkout (subscription mode) and completed by its signed webhook. */
async function stripeSubscription(buyer: SignedIn, intent: string) {
  const started = await checkout(t, buyer, {
    productId: product.id,
    priceId: product.prices[1].id,
    provider: 'stripe',
  });
  expect(started.status).toBe(201);
  const completed = stripeEvent('checkout.session.completed', {
    id: `cs_${intent}`,
    object: 'checkout.session',
    payment_status: 'paid',
    payment_intent: intent,
    amount_total: 799,
    currency: 'usd',
    metadata: { paymentId: started.body.id },
  });
  expect((await deliver(completed)).status).toBe(200);
  expect((await payment(buyer, started.body.id)).status).toBe('succeeded');
  return started.body as { id: string };
}

describe('Stripe chargebacks (charge.dispute.created / closed)', () => {
  it('a dispute takes the money back in one balanced ledger transaction, revokes the entitlements, rejects pending refunds, and is audited; 10 concurrent deliveries apply once', async () => {
    const buyer = await signUp(t, adultSignup());
    const paid = await stripeSubscription(buyer, 'pi_dispute_1');
    const session = new URLSearchParams(provider.seen.findLast((c) => c.path === '/v1/checkout/sessions')!.body);
    expect(session.get('mode')).toBe('subscription');
    expect(session.get('line_items[0][price_data][recurring][interval]')).toBe('month');
    expect(session.get('subscription_data[metadata][paymentId]')).toBe(paid.id);
    expect(await tier(buyer)).toBe('starter');
    const asked = await t.http.post(
      '/refunds',
      { paymentId: paid.id, amount: 100, reason: 'changed my mind' },
      { token: buyer.accessToken },
    );
    expect(asked.body.status).toBe('requested');

    const dispute = {
      id: 'dp_1',
      object: 'dispute',
      amount: 799,
      currency: 'usd',
      charge: 'ch_1',
      payment_intent: 'pi_dispute_1',
      status: 'needs_response',
      reason: 'fraudulent',
    };
    const forged = stripeEvent('charge.dispute.created', dispute, 'evt_forged', 'whsec_someone_else');
    const refused = await deliver(forged);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('invalid_signature');
    expect((await payment(buyer, paid.id)).status).toBe('succeeded');

    const created = stripeEvent('charge.dispute.created', dispute);
    const answers = await Promise.all(Array.from({ length: 10 }, () => deliver(created)));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect(await payment(buyer, paid.id)).toMatchObject({ status: 'refunded', refundedAmount: 799 });
    const ledger = await ledgerOf(paid.id);
    expect(ledger.map((l) => l.kind)).toEqual(['payment', 'fee_split', 'chargeback']);
    expect(ledger.every((l) => Number(l.total) === 0)).toBe(true);
    expect(Number(ledger[2].provider)).toBe(-799);
    const items = (await t.http.get('/entitlements/me', { token: buyer.accessToken })).body;
    expect(items).toMatchObject({ tier: 'free', items: [{ status: 'revoked', paymentId: paid.id }] });
    expect((await t.http.get('/refunds/me', { token: buyer.accessToken })).body.items[0]).toMatchObject({
      id: asked.body.id,
      status: 'rejected',
    });
    expect(
      (await t.http.post('/refunds', { paymentId: paid.id, reason: 'again' }, { token: buyer.accessToken })).status,
    ).toBe(409);
    const audit = await t.http.get(`/admin/audit?action=commerce.payment_charged_back&targetId=${paid.id}`, {
      token: admin.accessToken,
    });
    expect(audit.body.items).toEqual([
      expect.objectContaining({
        actorId: null,
        targetType: 'payment',
        data: expect.objectContaining({ amount: 799, currency: 'USD', disputeId: 'dp_1' }),
      }),
    ]);

    // Won: Stripe gives the money back; the chargeback is reversed in the ledger and the entitlement returns. Lost: audited, nothing moves.
    const won = stripeEvent('charge.dispute.closed', { ...dispute, status: 'won' });
    expect((await deliver(won)).status).toBe(200);
    expect((await deliver(won)).status).toBe(200);
    expect(await payment(buyer, paid.id)).toMatchObject({ status: 'succeeded', refundedAmount: 0 });
    const after = await ledgerOf(paid.id);
    expect(after.map((l) => l.kind)).toEqual(['payment', 'fee_split', 'chargeback', 'chargeback']);
    expect(after.every((l) => Number(l.total) === 0)).toBe(true);
    expect(await tier(buyer)).toBe('starter');
  });

  it('a lost dispute is audited; a dispute of an unknown charge changes nothing', async () => {
    const buyer = await signUp(t, adultSignup());
    const paid = await stripeSubscription(buyer, 'pi_dispute_2');
    const dispute = {
      id: 'dp_2',
      object: 'dispute',
      amount: 799,
      currency: 'usd',
      charge: 'ch_2',
      payment_intent: 'pi_dispute_2',
      status: 'needs_response',
    };
    expect((await deliver(stripeEvent('charge.dispute.created', dispute))).status).toBe(200);
    expect((await deliver(stripeEvent('charge.dispute.closed', { ...dispute, status: 'lost' }))).status).toBe(200);
    expect(await payment(buyer, paid.id)).toMatchObject({ status: 'refunded', refundedAmount: 799 });
    expect((await ledgerOf(paid.id)).map((l) => l.kind)).toEqual(['payment', 'fee_split', 'chargeback']);
    const audit = await t.http.get(`/admin/audit?targetId=${paid.id}&first=20`, { token: admin.accessToken });
    expect(audit.body.items.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining(['commerce.payment_charged_back', 'commerce.payment_chargeback_lost']),
    );
    expect(
      (await deliver(stripeEvent('charge.dispute.created', { ...dispute, id: 'dp_3', payment_intent: 'pi_nobody' })))
        .status,
    ).toBe(200);
    expect(await sql(`select 1 from webhook_events where payload->'data'->'object'->>'id' = 'dp_3'`, [])).toEqual([]);
  });
});

describe('a won dispute gives back only what its chargeback revoked', () => {
  it('an entitlement an admin revoked for another reason stays revoked; the chargeback’s come back', async () => {
    const editor = await contentAdmin(t);
    const [first, second] = [await publishedCourse(t, editor), await publishedCourse(t, editor)];
    const bundle = await publishedProduct(t, admin, {
      kind: 'bundle',
      title: text('Two courses'),
      description: text('Both'),
      prices: [{ currency: 'USD', amount: 1500 }],
      courseIds: [first.id, second.id],
    });
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, {
      productId: bundle.id,
      priceId: bundle.prices[0].id,
      provider: 'stripe',
    });
    const paymentId = started.body.id as string;
    const key = `won_${Date.now()}`;
    const completed = {
      id: `cs_${key}`,
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      payment_intent: `pi_${key}`,
      amount_total: 1500,
      currency: 'usd',
      metadata: { paymentId },
    };
    expect((await deliver(stripeEvent('checkout.session.completed', completed))).status).toBe(200);
    const owned = (await entitlements(buyer)).items;
    expect(owned.map((e) => e.status)).toEqual(['active', 'active']);
    const abused = owned.find((e) => e.courseId === first.id)!;
    const kept = owned.find((e) => e.courseId === second.id)!;

    // An admin revokes one course (account sharing, say); then the card holder disputes the payment.
    expect(
      (await t.http.post(`/entitlements/${abused.id}/revoke`, undefined, { token: admin.accessToken })).status,
    ).toBe(200);
    const dispute = {
      id: `dp_${key}`,
      object: 'dispute',
      amount: 1500,
      currency: 'usd',
      charge: `ch_${key}`,
      payment_intent: `pi_${key}`,
      status: 'needs_response',
    };
    expect((await deliver(stripeEvent('charge.dispute.created', dispute))).status).toBe(200);
    expect(await payment(buyer, paymentId)).toMatchObject({ status: 'refunded', refundedAmount: 1500 });
    expect((await entitlements(buyer)).items.map((e) => e.status)).toEqual(['revoked', 'revoked']);
    // The migration gives rows revoked before it the same reasons, from the audit trail and the ledger.
    const reasons = () =>
      sql<{ id: string; revoked_reason: string }>(
        'select id, revoked_reason from entitlements where payment_id = ? order by id',
        [paymentId],
      );
    const recorded = await reasons();
    expect(recorded.map((r) => r.revoked_reason).sort()).toEqual(['admin', 'chargeback']);
    await sql('update entitlements set revoked_reason = null where payment_id = ?', [paymentId]);
    await sql(BACKFILL_REVOKED_REASON_SQL, []);
    expect(await reasons()).toEqual(recorded);

    const won = stripeEvent('charge.dispute.closed', { ...dispute, status: 'won' });
    expect((await deliver(won)).status).toBe(200);
    expect((await deliver(won)).status).toBe(200);
    expect(await payment(buyer, paymentId)).toMatchObject({ status: 'succeeded', refundedAmount: 0 });
    const after = (await entitlements(buyer)).items;
    expect(after.find((e) => e.id === kept.id)!.status).toBe('active');
    expect(after.find((e) => e.id === abused.id)!.status).toBe('revoked');
    expect((await t.http.post(`/courses/${first.id}/enrollment`, undefined, { token: buyer.accessToken })).status).toBe(
      403,
    );
    expect([200, 201]).toContain(
      (await t.http.post(`/courses/${second.id}/enrollment`, undefined, { token: buyer.accessToken })).status,
    );
  });
});

describe('Stripe renewals (invoice.paid)', () => {
  it('extends the subscription by one period, once, however often and concurrently the invoice comes', async () => {
    const buyer = await signUp(t, adultSignup());
    const first = await stripeSubscription(buyer, 'pi_renew_1');
    const endsAt = async () => {
      const items = (await t.http.get('/entitlements/me', { token: buyer.accessToken })).body.items as {
        endsAt: string;
        status: string;
      }[];
      return Math.max(...items.filter((i) => i.status === 'active').map((i) => Date.parse(i.endsAt)));
    };
    const before = await endsAt();
    const invoice = (id: string, reason: string) => ({
      id,
      object: 'invoice',
      billing_reason: reason,
      amount_paid: 799,
      currency: 'usd',
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: 'sub_1', metadata: { paymentId: first.id } },
      },
    });
    // The first invoice is the checkout's own payment.
    expect((await deliver(stripeEvent('invoice.paid', invoice('in_1', 'subscription_create')))).status).toBe(200);
    expect(await endsAt()).toBe(before);

    const renewal = stripeEvent('invoice.paid', invoice('in_2', 'subscription_cycle'));
    const again = stripeEvent('invoice.paid', invoice('in_2', 'subscription_cycle'));
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => deliver(renewal)),
      deliver(again),
      deliver(again),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const next = new Date(before);
    next.setUTCMonth(next.getUTCMonth() + 1);
    expect(await endsAt()).toBe(next.getTime());
    const payments = (await t.http.get('/payments/me', { token: buyer.accessToken })).body.items as {
      id: string;
      status: string;
      amount: number;
    }[];
    expect(payments.filter((p) => p.status === 'succeeded')).toHaveLength(2);
    const renewed = payments.find((p) => p.id !== first.id)!;
    expect((await ledgerOf(renewed.id)).map((l) => [l.kind, Number(l.total)])).toEqual([
      ['payment', 0],
      ['fee_split', 0],
    ]);
    expect(await tier(buyer)).toBe('starter');
    const forged = stripeEvent('invoice.paid', invoice('in_3', 'subscription_cycle'), undefined, 'whsec_wrong');
    expect((await deliver(forged)).status).toBe(400);
    expect(await endsAt()).toBe(next.getTime());
  });
});

describe('the audit trail of money (GET /admin/audit)', () => {
  it('records checkout, payment, refund request, approval and completion, grants, revocations and price changes with their actors', async () => {
    const buyer = await signUp(t, adultSignup());
    const paid = await buy(t, buyer, product);
    const refund = await t.http.post(
      '/refunds',
      { paymentId: paid.id, amount: 50000, reason: 'partly' },
      { token: buyer.accessToken },
    );
    await t.http.post(`/refunds/${refund.body.id}/approve`, undefined, { token: admin.accessToken });
    await waitFor(
      () => t.http.get('/refunds/me', { token: buyer.accessToken }),
      (r) => r.body.items[0]?.status === 'succeeded',
    );
    const grant = await t.http.post(
      '/entitlements/grants',
      { userId: buyer.id, kind: 'tier', tier: 'pro' },
      { token: admin.accessToken },
    );
    await t.http.post(`/entitlements/${grant.body.id}/revoke`, undefined, { token: admin.accessToken });
    const priced = await publishedProduct(t, admin);
    const changed = await t.http.put(
      `/products/${priced.id}`,
      { prices: [{ currency: 'VND', amount: 249000, interval: 'month' }] },
      { token: admin.accessToken },
    );
    expect(changed.status).toBe(200);

    const read = async (query: string) =>
      (await t.http.get(`/admin/audit?first=50&${query}`, { token: admin.accessToken })).body.items as {
        action: string;
        actorId: string | null;
        data: Record<string, unknown>;
      }[];
    const onPayment = await read(`targetId=${paid.id}`);
    expect(onPayment.map((a) => [a.action, a.actorId])).toEqual([
      ['commerce.payment_succeeded', null],
      ['commerce.payment_created', buyer.id],
    ]);
    const onRefund = await read(`targetType=refund&targetId=${refund.body.id}`);
    expect(onRefund.map((a) => [a.action, a.actorId])).toEqual([
      ['commerce.refund_succeeded', null],
      ['commerce.refund_approved', admin.id],
      ['commerce.refund_requested', buyer.id],
    ]);
    expect(onRefund[0].data).toMatchObject({ amount: 50000, currency: 'VND', paymentId: paid.id });
    const onGrant = await read(`targetType=entitlement&targetId=${grant.body.id}`);
    expect(onGrant.map((a) => [a.action, a.actorId])).toEqual([
      ['commerce.entitlement_revoked', admin.id],
      ['commerce.entitlement_granted', admin.id],
    ]);
    const onProduct = await read(`targetType=product&targetId=${priced.id}`);
    expect(onProduct[0]).toMatchObject({
      action: 'commerce.product_updated',
      actorId: admin.id,
      data: { prices: [{ amount: 249000 }], previousPrices: [{ amount: 199000 }, { amount: 799 }] },
    });
    expect((await t.http.get('/admin/audit', { token: buyer.accessToken })).status).toBe(403);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app';
import { adultSignup, type SignedIn, signUp } from '../support/users';
import {
  checkout,
  deliverStripeEvent,
  type StripeFixture,
  withStripeProvider,
  rowsInEveryRegion,
} from '../support/commerce';

const stripe = withStripeProvider('subscriptions');
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
// A buyer's payment, ledger and entitlements are in their home region's database: every region is read.
const sql = <T>(query: string, params: unknown[]) => rowsInEveryRegion<T>(t, query, params);

/** checkout.session.completed as Stripe sends it in subscription mode: no PaymentIntent, the subscription and its first invoice instead. */
const completedSession = (paymentId: string, key: string) => ({
  id: `cs_${key}`,
  object: 'checkout.session',
  mode: 'subscription',
  payment_status: 'paid',
  payment_intent: null,
  subscription: `sub_${key}`,
  invoice: `in_first_${key}`,
  amount_total: 799,
  currency: 'usd',
  metadata: { paymentId },
});

/** The subscription's first invoice.paid: the PaymentIntent and Charge on the invoice (API before 2025-03-31) or in its payments (later versions). */
const firstInvoice = (paymentId: string, key: string, format: 'legacy' | 'payments' | 'bare') => ({
  id: `in_first_${key}`,
  object: 'invoice',
  billing_reason: 'subscription_create',
  amount_paid: 799,
  currency: 'usd',
  status: 'paid',
  parent: {
    type: 'subscription_details',
    subscription_details: { subscription: `sub_${key}`, metadata: { paymentId } },
  },
  ...(format === 'bare'
    ? {}
    : format === 'legacy'
      ? { payment_intent: `pi_${key}`, charge: `ch_${key}` }
      : {
          payments: {
            object: 'list',
            data: [
              {
                id: `inpay_${key}`,
                object: 'invoice_payment',
                is_default: true,
                status: 'paid',
                payment: { type: 'payment_intent', payment_intent: `pi_${key}` },
              },
            ],
          },
        }),
});

describe('Stripe subscriptions: the first charge comes from the first invoice.paid', () => {
  it.each([
    ['checkout.session.completed first', 'completed_first', 'payments'],
    ['invoice.paid first', 'invoice_first', 'legacy'],
    ['both at once', 'together', 'payments'],
    ['invoice.paid without its payments (asked of Stripe)', 'invoice_first', 'bare'],
  ] as const)(
    '%s: the PaymentIntent is recorded once; a refund goes to Stripe against it and its webhook completes it; a dispute of that charge is matched',
    async (_, order, format) => {
      const key = `${order}_${format}_${Date.now()}`;
      // Newer API versions send the invoice without its payments: Stripe's invoice payments list names the charge.
      provider.state.invoicePayments[`in_first_${key}`] = [{ payment_intent: `pi_${key}` }];
      const seenBefore = provider.seen.filter((c) => c.path === '/v1/invoice_payments').length;
      const buyer = await signUp(t, adultSignup());
      const started = await checkout(t, buyer, {
        productId: product.id,
        priceId: product.prices[1].id,
        provider: 'stripe',
      });
      expect(started.status).toBe(201);
      const paymentId = started.body.id as string;
      expect(
        new URLSearchParams(provider.seen.findLast((c) => c.path === '/v1/checkout/sessions')!.body).get('mode'),
      ).toBe('subscription');

      const completed = stripeEvent('checkout.session.completed', completedSession(paymentId, key));
      const invoice = stripeEvent('invoice.paid', firstInvoice(paymentId, key, format));
      // Stripe may also send the same invoice again under another event id.
      const invoiceAgain = stripeEvent('invoice.paid', firstInvoice(paymentId, key, format));
      const sequence =
        order === 'completed_first'
          ? [[completed], [invoice], [completed, invoice, invoiceAgain]]
          : order === 'invoice_first'
            ? [[invoice], [completed], [invoiceAgain, completed]]
            : [[completed, invoice, invoiceAgain, completed, invoice]];
      for (const batch of sequence)
        expect((await Promise.all(batch.map(deliver))).map((a) => a.status)).toEqual(batch.map(() => 200));

      expect(await payment(buyer, paymentId)).toMatchObject({ status: 'succeeded', amount: 799, refundedAmount: 0 });
      // Only an invoice without its payments makes us ask Stripe for them.
      const lookups =
        provider.seen.filter((c) => c.method === 'GET' && c.path === '/v1/invoice_payments').length - seenBefore;
      if (format === 'bare') expect(lookups).toBeGreaterThan(0);
      else expect(lookups).toBe(0);
      expect((await entitlements(buyer)).tier).toBe('starter');
      // The first invoice is the checkout's own payment: no second payment, no second entitlement.
      expect((await t.http.get('/payments/me', { token: buyer.accessToken })).body.items).toHaveLength(1);
      expect((await entitlements(buyer)).items).toHaveLength(1);

      // A partial refund: asked of Stripe against the first charge's PaymentIntent, completed by Stripe's refund webhook.
      const refund = await t.http.post(
        '/refunds',
        { paymentId, amount: 300, reason: 'charged twice this month' },
        { token: buyer.accessToken },
      );
      expect(refund.status).toBe(201);
      const approved = await t.http.post(`/refunds/${refund.body.id}/approve`, undefined, { token: admin.accessToken });
      expect(approved.status).toBe(200);
      expect(approved.body.status).toBe('processing');
      const asked = new URLSearchParams(provider.seen.findLast((c) => c.path === '/v1/refunds')!.body);
      expect(asked.get('payment_intent')).toBe(`pi_${key}`);
      expect(asked.get('amount')).toBe('300');
      expect(asked.get('metadata[refundId]')).toBe(refund.body.id);
      const refunded = stripeEvent('refund.updated', {
        id: `re_${key}`,
        object: 'refund',
        status: 'succeeded',
        amount: 300,
        metadata: { refundId: refund.body.id, paymentId },
      });
      expect((await deliver(refunded)).status).toBe(200);
      expect((await t.http.get('/refunds/me', { token: buyer.accessToken })).body.items[0]).toMatchObject({
        id: refund.body.id,
        status: 'succeeded',
      });
      expect(await payment(buyer, paymentId)).toMatchObject({ status: 'partially_refunded', refundedAmount: 300 });
      expect(
        await sql<{ provider_charge: string }>('select provider_charge from payments where id = ?', [paymentId]),
      ).toEqual([{ provider_charge: `pi_${key}` }]);

      // The card holder disputes that first charge: the dispute names its PaymentIntent and Charge, and finds the payment.
      const dispute = {
        id: `dp_${key}`,
        object: 'dispute',
        amount: 799,
        currency: 'usd',
        charge: `ch_${key}`,
        payment_intent: `pi_${key}`,
        status: 'needs_response',
        reason: 'fraudulent',
      };
      expect((await deliver(stripeEvent('charge.dispute.created', dispute))).status).toBe(200);
      expect(await payment(buyer, paymentId)).toMatchObject({ status: 'refunded', refundedAmount: 799 });
      const kinds = await sql<{ kind: string }>(
        'select kind from ledger_transactions where payment_id = ? order by created_at',
        [paymentId],
      );
      expect(kinds.map((k) => k.kind)).toContain('chargeback');
      expect(await entitlements(buyer)).toMatchObject({ tier: 'free', items: [{ status: 'revoked' }] });
    },
  );

  it('a refund asked before Stripe has named the charge fails and says so; the payment can be refunded once the first invoice.paid names it', async () => {
    const key = `late_${Date.now()}`;
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, {
      productId: product.id,
      priceId: product.prices[1].id,
      provider: 'stripe',
    });
    const paymentId = started.body.id as string;
    expect((await deliver(stripeEvent('checkout.session.completed', completedSession(paymentId, key)))).status).toBe(
      200,
    );
    const calls = provider.seen.filter((c) => c.path === '/v1/refunds').length;
    const early = await t.http.post('/refunds', { paymentId, reason: 'too early' }, { token: buyer.accessToken });
    expect(
      (await t.http.post(`/refunds/${early.body.id}/approve`, undefined, { token: admin.accessToken })).body.status,
    ).toBe('failed');
    // Nothing was asked of Stripe without a charge to refund.
    expect(provider.seen.filter((c) => c.path === '/v1/refunds')).toHaveLength(calls);
    expect((await deliver(stripeEvent('invoice.paid', firstInvoice(paymentId, key, 'payments')))).status).toBe(200);
    const again = await t.http.post('/refunds', { paymentId, reason: 'now' }, { token: buyer.accessToken });
    expect(
      (await t.http.post(`/refunds/${again.body.id}/approve`, undefined, { token: admin.accessToken })).body.status,
    ).toBe('processing');
    expect(
      new URLSearchParams(provider.seen.findLast((c) => c.path === '/v1/refunds')!.body).get('payment_intent'),
    ).toBe(`pi_${key}`);
  });
});

describe('Stripe does not answer while the first invoice.paid is completed', () => {
  it('answers 502 and stores nothing, so Stripe sends it again; the retry records the charge', async () => {
    const key = `down_${Date.now()}`;
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, {
      productId: product.id,
      priceId: product.prices[1].id,
      provider: 'stripe',
    });
    const paymentId = started.body.id as string;
    provider.state.invoicePayments[`in_first_${key}`] = [{ payment_intent: `pi_${key}` }];
    const invoice = stripeEvent('invoice.paid', firstInvoice(paymentId, key, 'bare'));
    provider.state.refuse = true;
    try {
      const refused = await deliver(invoice);
      expect(refused.status).toBe(502);
      expect(refused.body.error).toBe('upstream_error');
    } finally {
      provider.state.refuse = false;
    }
    expect(await sql('select 1 from webhook_events where event_id = ?', [JSON.parse(invoice.payload).id])).toEqual([]);
    expect((await deliver(invoice)).status).toBe(200);
    expect((await deliver(stripeEvent('checkout.session.completed', completedSession(paymentId, key)))).status).toBe(
      200,
    );
    expect(
      await sql<{ provider_charge: string }>('select provider_charge from payments where id = ?', [paymentId]),
    ).toEqual([{ provider_charge: `pi_${key}` }]);
  });
});

describe('Stripe renewals keep their charge', () => {
  it('a renewal invoice’s PaymentIntent (from the invoice or from Stripe’s invoice payments) is what its refund is asked against', async () => {
    const key = `renewal_${Date.now()}`;
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, {
      productId: product.id,
      priceId: product.prices[1].id,
      provider: 'stripe',
    });
    const paymentId = started.body.id as string;
    expect((await deliver(stripeEvent('checkout.session.completed', completedSession(paymentId, key)))).status).toBe(
      200,
    );
    expect((await deliver(stripeEvent('invoice.paid', firstInvoice(paymentId, key, 'legacy')))).status).toBe(200);
    const renewal = (id: string, extra: Record<string, unknown>) => ({
      ...firstInvoice(paymentId, key, 'bare'),
      id,
      billing_reason: 'subscription_cycle',
      ...extra,
    });
    provider.state.invoicePayments[`in_3_${key}`] = [{ payment_intent: `pi_3_${key}` }];
    expect(
      (await deliver(stripeEvent('invoice.paid', renewal(`in_2_${key}`, { payment_intent: `pi_2_${key}` })))).status,
    ).toBe(200);
    expect((await deliver(stripeEvent('invoice.paid', renewal(`in_3_${key}`, {})))).status).toBe(200);
    const charges = await sql<{ id: string; provider_charge: string }>(
      'select id, provider_charge from payments where payer_id = ? order by created_at',
      [buyer.id],
    );
    expect(charges.map((c) => c.provider_charge)).toEqual([`pi_${key}`, `pi_2_${key}`, `pi_3_${key}`]);
    const renewedId = charges[2].id;
    const refund = await t.http.post(
      '/refunds',
      { paymentId: renewedId, reason: 'renewed by mistake' },
      { token: buyer.accessToken },
    );
    expect(
      (await t.http.post(`/refunds/${refund.body.id}/approve`, undefined, { token: admin.accessToken })).body.status,
    ).toBe('processing');
    expect(
      new URLSearchParams(provider.seen.findLast((c) => c.path === '/v1/refunds')!.body).get('payment_intent'),
    ).toBe(`pi_3_${key}`);
  });
});

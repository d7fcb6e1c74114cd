import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOMO_IPN_FIELDS, momoSign } from '../../src/payments/providers/momo';
import { vnpaySign, vnpaySignData } from '../../src/payments/providers/vnpay';
import { sandboxSecretOf } from '../../src/payments/providers';
import { signSandbox } from '../../src/payments/providers/sandbox';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, type SignedIn, signInAdmin, signUp } from '../support/users';
import {
  checkout,
  deliverStripeEvent,
  postSandbox,
  publishedProduct,
  signedStripeEvent,
  waitFor,
  rowsInEveryRegion,
} from '../support/commerce';
import { startProviderServer } from '../support/provider-server';

const STRIPE_WEBHOOK_SECRET = 'whsec_test_secret_for_commerce';
const VNPAY_SECRET = 'VNPAYHASHSECRETFORTESTS0123456789';
const MOMO = { partnerCode: 'MOMOTEST', accessKey: 'momo-access', secretKey: 'momo-secret-key' };
let t: TestApp;
let admin: SignedIn;
let provider: Awaited<ReturnType<typeof startProviderServer>>;
let product: Awaited<ReturnType<typeof publishedProduct>>;

beforeAll(async () => {
  provider = await startProviderServer();
  t = await startTestApp({
    PAYMENTS_SANDBOX: 'on',
    STRIPE_SECRET_KEY: 'sk_test_commerce',
    STRIPE_WEBHOOK_SECRET,
    STRIPE_API_URL: provider.url,
    VNPAY_TMN_CODE: 'TESTTMN1',
    VNPAY_HASH_SECRET: VNPAY_SECRET,
    VNPAY_PAYMENT_URL: 'https://sandbox.vnpayment.test/paymentv2/vpcpay.html',
    VNPAY_API_URL: `${provider.url}/vnpay/api`,
    MOMO_PARTNER_CODE: MOMO.partnerCode,
    MOMO_ACCESS_KEY: MOMO.accessKey,
    MOMO_SECRET_KEY: MOMO.secretKey,
    MOMO_API_URL: provider.url,
  });
  admin = await signInAdmin(t);
  product = await publishedProduct(t, admin);
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

const VND = () => ({ productId: product.id, priceId: product.prices[0].id });
const USD = () => ({ productId: product.id, priceId: product.prices[1].id });
const status = async (buyer: SignedIn, id: string) =>
  (await t.http.get(`/payments/${id}`, { token: buyer.accessToken })).body;
// A buyer's payment and its webhook events are in their home region's database: every region is read.
const sql = (query: string, params: unknown[] = []) => rowsInEveryRegion<Record<string, any>>(t, query, params);

describe('Stripe', () => {
  const stripeEvent = (
    type: string,
    object: Record<string, unknown>,
    id = `evt_${Math.random().toString(36).slice(2)}`,
  ) => signedStripeEvent(STRIPE_WEBHOOK_SECRET, type, object, id);
  const deliver = (event: { payload: string; header: string }) => deliverStripeEvent(t, event);

  it('creates a Checkout Session through the SDK, applies a signed completion once, refuses a bad signature, refunds by webhook', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { ...USD(), provider: 'stripe', returnUrl: 'https://web.example/done' });
    expect(started.status).toBe(201);
    expect(started.body.redirectUrl).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const call = provider.seen.find((c) => c.path === '/v1/checkout/sessions')!;
    expect(call.headers.authorization).toBe('Bearer sk_test_commerce');
    const form = new URLSearchParams(call.body);
    expect(form.get('line_items[0][price_data][unit_amount]')).toBe('799');
    expect(form.get('line_items[0][price_data][currency]')).toBe('usd');
    expect(form.get('metadata[paymentId]')).toBe(started.body.id);

    const completed = stripeEvent('checkout.session.completed', {
      id: 'cs_x',
      object: 'checkout.session',
      payment_status: 'paid',
      payment_intent: 'pi_123',
      amount_total: 799,
      currency: 'usd',
      metadata: { paymentId: started.body.id },
    });
    const forged = await t.http.rest('POST', '/payments/webhooks/stripe', {
      raw: completed.payload,
      headers: { 'stripe-signature': 't=1,v1=deadbeef' },
    });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toBe('invalid_signature');
    expect((await status(buyer, started.body.id)).status).toBe('pending');
    expect((await deliver(completed)).status).toBe(200);
    expect((await deliver(completed)).status).toBe(200);
    expect((await status(buyer, started.body.id)).status).toBe('succeeded');
    expect((await t.http.get('/entitlements/me', { token: buyer.accessToken })).body.items).toHaveLength(1);

    const refund = await t.http.post(
      '/refunds',
      { paymentId: started.body.id, amount: 300, reason: 'partly' },
      { token: buyer.accessToken },
    );
    const approved = await t.http.post(`/refunds/${refund.body.id}/approve`, undefined, { token: admin.accessToken });
    expect(approved.body.status).toBe('processing');
    const asked = new URLSearchParams(provider.seen.findLast((c) => c.path === '/v1/refunds')!.body);
    expect(asked.get('payment_intent')).toBe('pi_123');
    expect(asked.get('amount')).toBe('300');
    const done = stripeEvent('refund.updated', {
      id: 're_1',
      object: 'refund',
      status: 'succeeded',
      amount: 300,
      metadata: { refundId: refund.body.id, paymentId: started.body.id },
    });
    expect((await deliver(done)).status).toBe(200);
    expect(await status(buyer, started.body.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 300 });
  });
});

describe('VNPay', () => {
  const ipn = (params: Record<string, string>) => {
    const signed = { ...params, vnp_SecureHash: vnpaySign(VNPAY_SECRET, vnpaySignData(params)) };
    return t.http.get(`/payments/webhooks/vnpay?${new URLSearchParams(signed)}`);
  };
  const paid = (paymentId: string, amount: number, extra: Record<string, string> = {}) => ({
    vnp_Amount: String(amount * 100),
    vnp_BankCode: 'NCB',
    vnp_OrderInfo: `Thanh toan ${paymentId}`,
    vnp_PayDate: '20261123120000',
    vnp_ResponseCode: '00',
    vnp_TmnCode: 'TESTTMN1',
    vnp_TransactionNo: '14226112',
    vnp_TransactionStatus: '00',
    vnp_TxnRef: paymentId,
    ...extra,
  });

  it('signs the payment URL (HMAC-SHA512 over the sorted parameters) and answers the IPN 00, 02, 01, 04 and 97', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { ...VND(), provider: 'vnpay' });
    expect(started.status).toBe(201);
    const url = new URL(started.body.redirectUrl);
    const params = Object.fromEntries(url.searchParams);
    expect(params.vnp_Amount).toBe('19900000');
    expect(params.vnp_SecureHash).toBe(vnpaySign(VNPAY_SECRET, vnpaySignData(params)));

    const bad = await t.http.get(
      `/payments/webhooks/vnpay?${new URLSearchParams({ ...paid(started.body.id, 199000), vnp_SecureHash: 'ab'.repeat(64) })}`,
    );
    expect(bad.body).toEqual({ RspCode: '97', Message: 'Invalid signature' });
    expect((await ipn(paid(started.body.id, 1000))).body.RspCode).toBe('04');
    expect((await ipn(paid('00000000-0000-4000-8000-000000000000', 199000))).body.RspCode).toBe('01');
    expect((await ipn(paid(started.body.id, 199000))).body).toEqual({ RspCode: '00', Message: 'Confirm Success' });
    expect((await ipn(paid(started.body.id, 199000))).body.RspCode).toBe('02');
    expect((await status(buyer, started.body.id)).status).toBe('succeeded');

    // The IPN may come by POST too; a refund asks VNPay's API, signed, and settles on its answer.
    const form = new URLSearchParams({ ...paid(started.body.id, 199000, { vnp_TransactionNo: '999' }) });
    form.set('vnp_SecureHash', vnpaySign(VNPAY_SECRET, vnpaySignData(Object.fromEntries(form))));
    const posted = await t.http.rest('POST', '/payments/webhooks/vnpay', {
      raw: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(posted.body.RspCode).toBe('02');
    const refund = await t.http.post(
      '/refunds',
      { paymentId: started.body.id, reason: 'all of it' },
      { token: buyer.accessToken },
    );
    const approved = await t.http.post(`/refunds/${refund.body.id}/approve`, undefined, { token: admin.accessToken });
    expect(approved.body.status).toBe('succeeded');
    const call = JSON.parse(provider.seen.findLast((c) => c.path === '/vnpay/api')!.body);
    expect(call).toMatchObject({
      vnp_Command: 'refund',
      vnp_TransactionType: '02',
      vnp_Amount: '19900000',
      vnp_TxnRef: started.body.id,
    });
    expect(await status(buyer, started.body.id)).toMatchObject({ status: 'refunded' });
  });

  it('takes only VND (400 naming provider)', async () => {
    const buyer = await signUp(t, adultSignup());
    const refused = await checkout(t, buyer, { ...USD(), provider: 'vnpay' });
    expect(refused.status).toBe(400);
    expect(refused.body.details[0].field).toBe('provider');
  });
});

describe('MoMo', () => {
  const ipnBody = (paymentId: string, amount: number, resultCode = 0) => {
    const fields: Record<string, string | number> = {
      partnerCode: MOMO.partnerCode,
      orderId: paymentId,
      requestId: paymentId,
      amount,
      orderInfo: `Thanh toan ${paymentId}`,
      orderType: 'momo_wallet',
      transId: 4088878653,
      resultCode,
      message: 'Successful.',
      payType: 'qr',
      responseTime: 1721720663942,
      extraData: '',
    };
    const signature = momoSign(MOMO.secretKey, {
      accessKey: MOMO.accessKey,
      ...Object.fromEntries(MOMO_IPN_FIELDS.map((k) => [k, fields[k]])),
    });
    return { ...fields, signature };
  };
  const deliver = (body: unknown) => t.http.rest('POST', '/payments/webhooks/momo', { raw: JSON.stringify(body) });

  it('creates with an HMAC-SHA256 signature, answers a good IPN 204 once, refuses a bad one with 400, refunds by its API', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { ...VND(), provider: 'momo' });
    expect(started.status).toBe(201);
    expect(started.body.redirectUrl).toContain('https://test-payment.momo.test/pay/');
    const create = JSON.parse(provider.seen.findLast((c) => c.path === '/v2/gateway/api/create')!.body);
    const raw = `accessKey=${MOMO.accessKey}&amount=${create.amount}&extraData=${create.extraData}&ipnUrl=${create.ipnUrl}&orderId=${create.orderId}&orderInfo=${create.orderInfo}&partnerCode=${create.partnerCode}&redirectUrl=${create.redirectUrl}&requestId=${create.requestId}&requestType=${create.requestType}`;
    expect(create.signature).toBe(createHmac('sha256', MOMO.secretKey).update(raw).digest('hex'));
    expect(create.ipnUrl).toMatch(/\/payments\/webhooks\/momo$/);

    const good = ipnBody(started.body.id, 199000);
    const forged = await deliver({ ...good, amount: 1 });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toBe('invalid_signature');
    const deliveries = await Promise.all(Array.from({ length: 10 }, () => deliver(good)));
    expect(deliveries.every((d) => d.status === 204)).toBe(true);
    expect((await status(buyer, started.body.id)).status).toBe('succeeded');
    expect((await t.http.get('/entitlements/me', { token: buyer.accessToken })).body.items).toHaveLength(1);

    const refund = await t.http.post(
      '/refunds',
      { paymentId: started.body.id, amount: 99000, reason: 'half' },
      { token: buyer.accessToken },
    );
    const approved = await t.http.post(`/refunds/${refund.body.id}/approve`, undefined, { token: admin.accessToken });
    expect(approved.body.status).toBe('succeeded');
    expect(await status(buyer, started.body.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 99000 });
  });

  it('a provider that refuses the checkout is 502 upstream_error; a refused refund fails and frees the amount', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { ...VND(), provider: 'momo' });
    await deliver(ipnBody(started.body.id, 199000));
    provider.state.refuse = true;
    try {
      const refused = await checkout(t, buyer, { ...VND(), provider: 'momo' });
      expect(refused.status).toBe(502);
      expect(refused.body.error).toBe('upstream_error');
      const refund = await t.http.post(
        '/refunds',
        { paymentId: started.body.id, reason: 'all' },
        { token: buyer.accessToken },
      );
      const approved = await t.http.post(`/refunds/${refund.body.id}/approve`, undefined, { token: admin.accessToken });
      expect(approved.body.status).toBe('failed');
    } finally {
      provider.state.refuse = false;
    }
    const again = await t.http.post(
      '/refunds',
      { paymentId: started.body.id, reason: 'all' },
      { token: buyer.accessToken },
    );
    expect(again.status).toBe(201);
    expect(again.body.amount).toBe(199000);
    const payments = await waitFor(
      () => t.http.get('/payments/me', { token: buyer.accessToken }),
      () => true,
    );
    expect(payments.body.items.length).toBeGreaterThanOrEqual(1);
  });
});

/**
 * A webhook's amount means nothing without its currency. Each provider's signed event
 * naming the payment's amount in another currency (or none) is refused as a wrong amount, the
 * payment stays pending and the event is not kept, so the corrected one still applies.
 */
describe('every provider compares the currency as well as the amount', () => {
  it('Stripe: a signed amount_total 799 in JPY (or without a currency) does not complete a USD 799 payment', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { ...USD(), provider: 'stripe' });
    const session = (currency?: string) => ({
      id: `cs_${currency}`,
      object: 'checkout.session',
      payment_status: 'paid',
      amount_total: 799,
      currency,
      metadata: { paymentId: started.body.id },
    });
    const event = (currency?: string) =>
      signedStripeEvent(
        STRIPE_WEBHOOK_SECRET,
        'checkout.session.completed',
        session(currency),
        `evt_currency_${currency}_${started.body.id}`,
      );
    expect((await deliverStripeEvent(t, event('jpy'))).status).toBe(200);
    expect((await deliverStripeEvent(t, event(undefined))).status).toBe(200);
    expect(await status(buyer, started.body.id)).toMatchObject({ status: 'pending', currency: 'USD' });
    expect(
      (await sql(`select count(*)::int as n from webhook_events where payment_id = ?`, [started.body.id]))[0].n,
    ).toBe(0);
    expect((await deliverStripeEvent(t, event('usd'))).status).toBe(200);
    expect((await status(buyer, started.body.id)).status).toBe('succeeded');
  });

  it('VNPay: an IPN naming another vnp_CurrCode answers 04 Invalid amount; the VND one 00', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { ...VND(), provider: 'vnpay' });
    const params = (extra: Record<string, string>) => ({
      vnp_Amount: '19900000',
      vnp_OrderInfo: `Thanh toan ${started.body.id}`,
      vnp_ResponseCode: '00',
      vnp_TmnCode: 'TESTTMN1',
      vnp_TransactionNo: '5550001',
      vnp_TransactionStatus: '00',
      vnp_TxnRef: started.body.id,
      ...extra,
    });
    const ipn = (p: Record<string, string>) =>
      t.http.get(
        `/payments/webhooks/vnpay?${new URLSearchParams({ ...p, vnp_SecureHash: vnpaySign(VNPAY_SECRET, vnpaySignData(p)) })}`,
      );
    expect((await ipn(params({ vnp_CurrCode: 'USD' }))).body).toEqual({ RspCode: '04', Message: 'Invalid amount' });
    expect((await status(buyer, started.body.id)).status).toBe('pending');
    expect((await ipn(params({ vnp_CurrCode: 'VND' }))).body.RspCode).toBe('00');
    expect((await status(buyer, started.body.id)).status).toBe('succeeded');
  });

  it('MoMo: its IPN is in VND, so it does not complete a payment in another currency', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { ...VND(), provider: 'momo' });
    // MoMo takes only VND at checkout; a payment in another currency (as a changed product or a bug could leave one) is not MoMo's to complete.
    await sql(`update payments set currency = 'USD' where id = ?`, [started.body.id]);
    const fields: Record<string, string | number> = {
      partnerCode: MOMO.partnerCode,
      orderId: started.body.id,
      requestId: started.body.id,
      amount: 199000,
      orderInfo: 'x',
      orderType: 'momo_wallet',
      transId: 4088878999,
      resultCode: 0,
      message: 'Successful.',
      payType: 'qr',
      responseTime: 1721720663942,
      extraData: '',
    };
    const signature = momoSign(MOMO.secretKey, {
      accessKey: MOMO.accessKey,
      ...Object.fromEntries(MOMO_IPN_FIELDS.map((k) => [k, fields[k]])),
    });
    const deliver = () =>
      t.http.rest('POST', '/payments/webhooks/momo', { raw: JSON.stringify({ ...fields, signature }) });
    expect((await deliver()).status).toBe(204);
    expect((await status(buyer, started.body.id)).status).toBe('pending');
    await sql(`update payments set currency = 'VND' where id = ?`, [started.body.id]);
    expect((await deliver()).status).toBe(204);
    expect((await status(buyer, started.body.id)).status).toBe('succeeded');
  });

  it('sandbox: a signed Pay event naming another currency, or none, does not complete the payment', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { ...VND(), provider: 'sandbox' });
    const secret = sandboxSecretOf(t.app.deps.config);
    const pay = (extra: Record<string, unknown>) => {
      const body = JSON.stringify({
        id: `evt_pay_${JSON.stringify(extra)}_${started.body.id}`,
        type: 'payment.succeeded',
        paymentId: started.body.id,
        amount: 199000,
        ...extra,
      });
      return postSandbox(t, { body, signature: signSandbox(secret, body) });
    };
    expect((await pay({ currency: 'USD' })).status).toBe(200);
    expect((await pay({})).status).toBe(200);
    expect((await status(buyer, started.body.id)).status).toBe('pending');
    expect((await pay({ currency: 'VND' })).status).toBe(200);
    expect((await status(buyer, started.body.id)).status).toBe('succeeded');
  });
});

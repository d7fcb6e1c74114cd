import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, type SignedIn, signInAdmin, signUp } from '../support/users';
import {
  buy,
  checkout,
  newKey,
  postSandbox,
  publishedProduct,
  sandboxEvents,
  subscriptionBody,
} from '../support/commerce';

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

describe('sandbox checkout end to end', () => {
  it('sells a subscription: checkout, the page, Pay, the tier rises, the ledger balances', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { productId: product.id, priceId: product.prices[0].id });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ status: 'pending', provider: 'sandbox', amount: 199000, currency: 'VND' });
    expect(started.body.redirectUrl).toMatch(/\/payments\/sandbox\//);
    const { page, pay } = await sandboxEvents(t, started.body.redirectUrl);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect((await postSandbox(t, pay)).status).toBe(200);

    const me = await t.http.get('/auth/me', { token: buyer.accessToken });
    expect(me.body.user.tier).toBe('starter');
    const mine = await t.http.get('/entitlements/me', { token: buyer.accessToken });
    expect(mine.body).toMatchObject({
      tier: 'starter',
      items: [{ kind: 'tier', tier: 'starter', source: 'purchase', paymentId: started.body.id, status: 'active' }],
    });
    const payment = await t.http.get(`/payments/${started.body.id}`, { token: buyer.accessToken });
    expect(payment.body).toMatchObject({ status: 'succeeded', amount: 199000, currency: 'VND' });

    const balances = await t.http.get('/admin/ledger/balances', { token: admin.accessToken });
    expect(balances.status).toBe(200);
    const of = (account: string) =>
      balances.body.items.find(
        (b: { account: string; currency: string }) => b.account === account && b.currency === 'VND',
      )?.balance;
    expect(of('provider:sandbox')).toBe(199000);
    expect(of(`customer:${buyer.id}`)).toBe(0);
    expect(of('revenue:platform')).toBeLessThanOrEqual(-199000);
  });

  it('replays the same key with the first answer, refuses another body with it (409), and makes one payment under concurrency', async () => {
    const buyer = await signUp(t, adultSignup());
    const key = newKey();
    const body = { productId: product.id, priceId: product.prices[0].id };
    const answers = await Promise.all(Array.from({ length: 10 }, () => checkout(t, buyer, body, key)));
    const ok = answers.filter((a) => a.status === 201);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((a) => a.body.id)).size).toBe(1);
    const again = await checkout(t, buyer, body, key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(ok[0].body);
    const other = await checkout(t, buyer, { ...body, priceId: product.prices[1].id }, key);
    expect(other.status).toBe(409);
    expect(other.body.error).toBe('conflict');
    const payments = await t.http.get('/payments/me', { token: buyer.accessToken });
    expect(payments.body.items).toHaveLength(1);

    // The key is a header only: the same word in the query string is no key (two payments, neither the keyed one).
    const viaQuery = await Promise.all(
      [1, 2].map(() => t.http.post(`/payments/checkout?idempotencyKey=${key}`, body, { token: buyer.accessToken })),
    );
    expect(viaQuery.map((a) => a.status)).toEqual([201, 201]);
    expect(new Set([ok[0].body.id, ...viaQuery.map((a) => a.body.id)]).size).toBe(3);
  });

  it('refuses bad signatures (400 invalid_signature, nothing stored) and applies 10 concurrent deliveries once', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { productId: product.id, priceId: product.prices[1].id });
    const { pay } = await sandboxEvents(t, started.body.redirectUrl);
    const forged = await postSandbox(t, { body: pay.body, signature: 'sha256=' + '0'.repeat(64) });
    expect(forged.status).toBe(400);
    expect(forged.body.error).toBe('invalid_signature');
    const tampered = await postSandbox(t, {
      body: pay.body.replace('"amount":799', '"amount":1'),
      signature: pay.signature,
    });
    expect(tampered.status).toBe(400);
    expect((await t.http.get(`/payments/${started.body.id}`, { token: buyer.accessToken })).body.status).toBe(
      'pending',
    );

    const before = await t.http.get('/admin/ledger/balances', { token: admin.accessToken });
    const deliveries = await Promise.all(Array.from({ length: 10 }, () => postSandbox(t, pay)));
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    const after = await t.http.get('/admin/ledger/balances', { token: admin.accessToken });
    const usd = (body: any) =>
      body.items.find((b: any) => b.account === 'provider:sandbox' && b.currency === 'USD')?.balance ?? 0;
    expect(usd(after.body) - usd(before.body)).toBe(799);
    const mine = await t.http.get('/entitlements/me', { token: buyer.accessToken });
    expect(mine.body.items).toHaveLength(1);
  });

  it('cancels from the page; a canceled payment stays canceled when its Cancel is replayed', async () => {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { productId: product.id, priceId: product.prices[0].id });
    const { cancel } = await sandboxEvents(t, started.body.redirectUrl);
    expect((await postSandbox(t, cancel)).status).toBe(200);
    expect((await postSandbox(t, cancel)).status).toBe(200);
    expect((await t.http.get(`/payments/${started.body.id}`, { token: buyer.accessToken })).body.status).toBe(
      'canceled',
    );
    expect((await t.http.get('/auth/me', { token: buyer.accessToken })).body.user.tier).toBe('free');
  });

  it('refuses checkouts: anonymous 401, unknown product 404, bad price 400, unoffered provider 400 naming provider', async () => {
    const buyer = await signUp(t, adultSignup());
    expect(
      (await t.http.post('/payments/checkout', { productId: product.id, priceId: product.prices[0].id })).status,
    ).toBe(401);
    expect((await checkout(t, buyer, { productId: '00000000-0000-4000-8000-000000000000', priceId: 'x' })).status).toBe(
      404,
    );
    const badPrice = await checkout(t, buyer, { productId: product.id, priceId: 'nope' });
    expect(badPrice.status).toBe(400);
    expect(badPrice.body.details[0].field).toBe('priceId');
    const stripe = await checkout(t, buyer, {
      productId: product.id,
      priceId: product.prices[0].id,
      provider: 'stripe',
    });
    expect(stripe.status).toBe(400);
    expect(stripe.body).toMatchObject({ error: 'validation_failed', details: [{ field: 'provider' }] });
    const gql = await t.http.gql('mutation($input: CheckoutInput!) { checkout(input: $input) { payment { id } } }', {
      input: { productId: product.id, priceId: product.prices[0].id },
    });
    expect(gql.body.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('shows a payment to its payer and admins only; lists mine; audits every money-changing action', async () => {
    const buyer = await signUp(t, adultSignup());
    const paid = await buy(t, buyer, product);
    const stranger = await signUp(t, adultSignup());
    expect((await t.http.get(`/payments/${paid.id}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await t.http.get(`/payments/${paid.id}`)).status).toBe(401);
    expect((await t.http.get(`/payments/${paid.id}`, { token: admin.accessToken })).body.status).toBe('succeeded');
    expect((await t.http.get('/payments/me')).status).toBe(401);
    const mine = await t.http.gql(
      '{ myPayments(first: 5) { edges { node { id status payerId } } } }',
      {},
      buyer.accessToken,
    );
    expect(mine.body.data.myPayments.edges).toEqual([
      { node: { id: paid.id, status: 'SUCCEEDED', payerId: buyer.id } },
    ]);
    const twin = await t.http.gql('query($id: ID!) { payment(id: $id) { id } }', { id: paid.id }, stranger.accessToken);
    expect(twin.body.errors?.[0].extensions.code).toBe('NOT_FOUND');
    expect((await t.http.post('/payments/webhooks/paypal', { id: 'x' })).status).toBe(404);
    // The audit trail admins read (GET /admin/audit) has the checkout with its actor and the success by the provider.
    const audit = await t.http.get(`/admin/audit?targetType=payment&targetId=${paid.id}&first=10`, {
      token: admin.accessToken,
    });
    expect(audit.status).toBe(200);
    expect(audit.body.items.map((a: { action: string }) => a.action).reverse()).toEqual([
      'commerce.payment_created',
      'commerce.payment_succeeded',
    ]);
    expect(audit.body.items[1]).toMatchObject({
      actorId: buyer.id,
      data: { amount: 199000, currency: 'VND', provider: 'sandbox' },
    });
    expect(audit.body.items[0]).toMatchObject({ actorId: null, data: { amount: 199000, currency: 'VND' } });
  });

  it('takes a returnUrl on WEB_ORIGIN or APP_ORIGIN only, their scheme, host and port, not text that starts like them (REST and GraphQL)', async () => {
    // The test app's origins: WEB_ORIGIN https://web.example, APP_ORIGIN https://app.example.
    const buyer = await signUp(t, adultSignup());
    const input = (returnUrl: string) => ({ productId: product.id, priceId: product.prices[0].id, returnUrl });
    const q = 'mutation($input: CheckoutInput!) { checkout(input: $input) { payment { id } } }';
    const foreign = [
      'https://evil.example/phish',
      'https://app.example.evil.com/paid',
      'https://app.example@evil.example/paid',
      'https://web.example:8443/paid',
      'http://web.example/paid',
      'https://web.example./paid',
      'javascript:alert(1)//https://web.example',
      '//evil.example/paid',
    ];
    for (const returnUrl of foreign) {
      const refused = await checkout(t, buyer, input(returnUrl));
      expect([refused.status, refused.body.error, refused.body.details], returnUrl).toEqual([
        400,
        'validation_failed',
        [{ field: 'returnUrl', message: expect.stringContaining('https://web.example') }],
      ]);
      const gql = await t.http.gql(q, { input: input(returnUrl) }, buyer.accessToken);
      expect(gql.body.errors?.[0].extensions, returnUrl).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ field: 'returnUrl' }],
      });
    }
    expect((await t.http.get('/payments/me', { token: buyer.accessToken })).body.items).toEqual([]);
    for (const returnUrl of [
      'https://web.example/paid?course=1#top',
      'https://APP.example/paid',
      'https://app.example:443/paid',
    ]) {
      expect((await checkout(t, buyer, input(returnUrl))).status, returnUrl).toBe(201);
    }
    expect(
      (await t.http.gql(q, { input: input('https://web.example/paid') }, buyer.accessToken)).body.data.checkout.payment
        .id,
    ).toEqual(expect.any(String));
  });

  it('has a GraphQL twin of checkout with idempotencyKey', async () => {
    const buyer = await signUp(t, adultSignup());
    const q =
      'mutation($input: CheckoutInput!, $key: String) { checkout(input: $input, idempotencyKey: $key) { payment { id status amount currency provider } purchaseRequest { id } } }';
    const input = { productId: product.id, priceId: product.prices[0].id };
    const first = await t.http.gql(q, { input, key: 'gql-1' }, buyer.accessToken);
    const second = await t.http.gql(q, { input, key: 'gql-1' }, buyer.accessToken);
    expect(first.body.data.checkout.payment).toMatchObject({ status: 'PENDING', amount: 199000 });
    expect(second.body.data.checkout.payment.id).toBe(first.body.data.checkout.payment.id);
    await buy(t, buyer, product);
  });
});

export { subscriptionBody };

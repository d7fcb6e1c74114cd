import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUnit } from '../../src/server/platform';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, learnerOfAge, type SignedIn, signInAdmin, signUp } from '../support/users';
import { buy, publishedProduct, subscriptionBody, text, waitFor } from './support';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

describe('products', () => {
  it('admins create, update, publish and archive; everyone reads published ones', async () => {
    const created = await t.http.post('/products', subscriptionBody(), { token: admin.accessToken });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      kind: 'subscription',
      tier: 'starter',
      status: 'draft',
      sellerId: null,
      prices: [
        { currency: 'VND', amount: 199000, interval: 'month' },
        { currency: 'USD', amount: 799 },
      ],
    });
    expect((await t.http.get(`/products/${created.body.id}`)).status).toBe(404);
    const updated = await t.http.put(`/products/${created.body.id}`, { title: text('Starter'), prices: [{ currency: 'VND', amount: 199000, interval: 'month' }] }, { token: admin.accessToken });
    expect(updated.status).toBe(200);
    expect(updated.body.prices).toHaveLength(1);
    expect(updated.body.prices[0].id).toBe(created.body.prices[0].id);
    const published = await t.http.post(`/products/${created.body.id}/publish`, undefined, { token: admin.accessToken });
    expect(published.body.status).toBe('published');
    const anonymous = await t.http.get(`/products/${created.body.id}`);
    expect(anonymous.status).toBe(200);
    const list = await t.http.get('/products?limit=100');
    expect(list.body.items.map((p: { id: string }) => p.id)).toContain(created.body.id);
    const archived = await t.http.post(`/products/${created.body.id}/archive`, undefined, { token: admin.accessToken });
    expect(archived.body.status).toBe('archived');
    expect((await t.http.get(`/products/${created.body.id}`)).status).toBe(404);
    const gql = await t.http.gql('query($id: ID!) { product(id: $id) { id status } }', { id: created.body.id }, admin.accessToken);
    expect(gql.body.data.product.status).toBe('ARCHIVED');
  });

  it('refuses floats, bad currencies, tierless subscriptions (400 with details), others (401, 403)', async () => {
    const float = await t.http.post('/products', subscriptionBody({ prices: [{ currency: 'VND', amount: 1.5, interval: 'month' }] }), { token: admin.accessToken });
    expect(float.status).toBe(400);
    expect(float.body.error).toBe('validation_failed');
    const currency = await t.http.post('/products', subscriptionBody({ prices: [{ currency: 'dong', amount: 100, interval: 'month' }] }), { token: admin.accessToken });
    expect(currency.status).toBe(400);
    expect(currency.body.details.length).toBeGreaterThan(0);
    const tierless = await t.http.post('/products', subscriptionBody({ tier: null }), { token: admin.accessToken });
    expect(tierless.status).toBe(400);
    expect(tierless.body.details).toContainEqual(expect.objectContaining({ field: 'tier' }));
    const course = await t.http.post(
      '/products',
      { ...subscriptionBody(), kind: 'course', tier: null, prices: [{ currency: 'USD', amount: 500 }], courseIds: ['00000000-0000-4000-8000-000000000000'] },
      { token: admin.accessToken },
    );
    expect(course.status).toBe(400);
    expect(course.body.details).toContainEqual(expect.objectContaining({ field: 'courseIds' }));
    expect((await t.http.post('/products', subscriptionBody())).status).toBe(401);
    const guardian = await signUp(t, adultSignup());
    expect((await t.http.post('/products', subscriptionBody(), { token: guardian.accessToken })).status).toBe(403);
    const learner = await learnerOfAge(t, 15);
    expect((await t.http.post('/products', subscriptionBody(), { token: learner.accessToken })).status).toBe(403);
    const gql = await t.http.gql('mutation($id: ID!) { publishProduct(id: $id) { id } }', { id: '00000000-0000-4000-8000-000000000000' }, guardian.accessToken);
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.http.post('/products/00000000-0000-4000-8000-000000000000/publish', undefined, { token: admin.accessToken })).status).toBe(404);
  });
});

describe('entitlements and tier', () => {
  it('admins grant and revoke; the tier follows at once; others are refused', async () => {
    const user = await signUp(t, adultSignup());
    const granted = await t.http.post('/entitlements/grants', { userId: user.id, kind: 'tier', tier: 'pro' }, { token: admin.accessToken });
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({ kind: 'tier', tier: 'pro', source: 'grant', status: 'active' });
    expect((await t.http.get('/auth/me', { token: user.accessToken })).body.user.tier).toBe('pro');
    expect((await t.http.get('/entitlements/me', { token: user.accessToken })).body.tier).toBe('pro');
    const revoked = await t.http.post(`/entitlements/${granted.body.id}/revoke`, undefined, { token: admin.accessToken });
    expect(revoked.body.status).toBe('revoked');
    expect((await t.http.get('/auth/me', { token: user.accessToken })).body.user.tier).toBe('free');
    expect((await t.http.post(`/entitlements/${granted.body.id}/revoke`, undefined, { token: admin.accessToken })).status).toBe(409);

    const bad = await t.http.post('/entitlements/grants', { userId: user.id, kind: 'tier' }, { token: admin.accessToken });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('tier');
    expect((await t.http.post('/entitlements/grants', { userId: user.id, kind: 'tier', tier: 'pro' }, { token: user.accessToken })).status).toBe(403);
    expect((await t.http.post('/entitlements/grants', { userId: user.id, kind: 'tier', tier: 'pro' })).status).toBe(401);
    expect((await t.http.get('/entitlements/me')).status).toBe(401);
    expect((await t.http.post(`/entitlements/${granted.body.id}/revoke`, undefined, { token: user.accessToken })).status).toBe(403);
    const gql = await t.http.gql(
      'mutation($input: GrantInput!) { grantEntitlement(input: $input) { tier } }',
      { input: { userId: user.id, kind: 'COURSE', courseId: '00000000-0000-4000-8000-000000000000' } },
      admin.accessToken,
    );
    expect(gql.body.data.grantEntitlement).toEqual({ tier: null });
    const mine = await t.http.gql('{ myEntitlements { tier items { kind courseId status } } }', {}, user.accessToken);
    expect(mine.body.data.myEntitlements.items).toContainEqual({ kind: 'COURSE', courseId: '00000000-0000-4000-8000-000000000000', status: 'ACTIVE' });
  });

  it('a subscription that ends drops the tier (the job), and pending payments expire', async () => {
    const product = await publishedProduct(t, admin, subscriptionBody({ tier: 'pro' }));
    const buyer = await signUp(t, adultSignup());
    await buy(t, buyer, product);
    expect((await t.http.get('/auth/me', { token: buyer.accessToken })).body.user.tier).toBe('pro');
    const pending = await t.http.post('/payments/checkout', { productId: product.id, priceId: product.prices[0].id }, { token: buyer.accessToken, headers: { 'idempotency-key': 'pending-1' } });
    const later = new Date(Date.now() + 40 * 86_400_000);
    const swept = await openUnit(t.app.deps).services.payments.sweep(later);
    expect(swept.entitlements).toBeGreaterThanOrEqual(1);
    expect(swept.payments).toBeGreaterThanOrEqual(1);
    expect((await t.http.get('/auth/me', { token: buyer.accessToken })).body.user.tier).toBe('free');
    expect((await t.http.get(`/payments/${pending.body.id}`, { token: buyer.accessToken })).body.status).toBe('expired');
    const mine = await t.http.get('/entitlements/me', { token: buyer.accessToken });
    expect(mine.body.items[0].status).toBe('expired');
    // The sweep is one recurring Agenda job, however many instances start.
    const em = openUnit(t.app.deps).uow.em;
    const jobs = await waitFor(
      () => em.execute<{ n: string }[]>(`select count(*) n from agenda_jobs where name = 'commerce:sweep'`),
      ([row]) => row.n === '1',
    );
    expect(jobs[0].n).toBe('1');
  });
});

describe('the ledger', () => {
  it('is append-only and balanced in the database itself', async () => {
    const product = await publishedProduct(t, admin);
    const buyer = await signUp(t, adultSignup());
    await buy(t, buyer, product);
    const em = openUnit(t.app.deps).uow.em;
    await expect(em.execute('update ledger_entries set amount = amount + 1')).rejects.toThrow(/append-only/);
    await expect(em.execute('delete from ledger_transactions')).rejects.toThrow(/append-only/);
    await expect(em.execute('truncate ledger_entries cascade')).rejects.toThrow();
    await expect(
      em.transactional(async (tx) => {
        const [{ id }] = await tx.execute<{ id: string }[]>(
          `insert into ledger_transactions (id, kind, payment_id, created_at) values (gen_random_uuid(), 'payment', gen_random_uuid(), now()) returning id`,
        );
        await tx.execute(`insert into ledger_entries (id, transaction_id, account, amount, currency, created_at) values (gen_random_uuid(), ?, 'revenue:platform', 5, 'USD', now())`, [id]);
      }),
    ).rejects.toThrow(/does not sum to zero/);
    const unbalanced = await em.execute(`select transaction_id from ledger_entries group by transaction_id, currency having sum(amount) <> 0`);
    expect(unbalanced).toHaveLength(0);
  });

  it('balances are for admins only', async () => {
    const user = await signUp(t, adultSignup());
    expect((await t.http.get('/admin/ledger/balances')).status).toBe(401);
    expect((await t.http.get('/admin/ledger/balances', { token: user.accessToken })).status).toBe(403);
    const gql = await t.http.gql('{ ledgerBalances { items { account currency balance } } }', {}, admin.accessToken);
    expect(gql.body.data.ledgerBalances.items.length).toBeGreaterThan(0);
  });
});

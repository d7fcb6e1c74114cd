import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GLOBAL_REGION } from '../../src/db/regions';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf } from '../support/regions';
import { settled } from '../support/sql';
import { adultSignup, learnerOfAge, type SignedIn, signInAdmin, signUp } from '../support/users';
import { buy, publishedProduct, subscriptionBody, text, waitFor } from '../support/commerce';

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
    const updated = await t.http.put(
      `/products/${created.body.id}`,
      { title: text('Starter'), prices: [{ currency: 'VND', amount: 199000, interval: 'month' }] },
      { token: admin.accessToken },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.prices).toHaveLength(1);
    expect(updated.body.prices[0].id).toBe(created.body.prices[0].id);
    const published = await t.http.post(`/products/${created.body.id}/publish`, undefined, {
      token: admin.accessToken,
    });
    expect(published.body.status).toBe('published');
    const anonymous = await t.http.get(`/products/${created.body.id}`);
    expect(anonymous.status).toBe(200);
    const list = await t.http.get('/products?limit=100');
    expect(list.body.items.map((p: { id: string }) => p.id)).toContain(created.body.id);
    const archived = await t.http.post(`/products/${created.body.id}/archive`, undefined, { token: admin.accessToken });
    expect(archived.body.status).toBe('archived');
    expect((await t.http.get(`/products/${created.body.id}`)).status).toBe(404);
    const gql = await t.http.gql(
      'query($id: ID!) { product(id: $id) { id status } }',
      { id: created.body.id },
      admin.accessToken,
    );
    expect(gql.body.data.product.status).toBe('ARCHIVED');
  });

  it('refuses floats, bad currencies, tierless subscriptions (400 with details), others (401, 403)', async () => {
    const float = await t.http.post(
      '/products',
      subscriptionBody({ prices: [{ currency: 'VND', amount: 1.5, interval: 'month' }] }),
      { token: admin.accessToken },
    );
    expect(float.status).toBe(400);
    expect(float.body.error).toBe('validation_failed');
    const currency = await t.http.post(
      '/products',
      subscriptionBody({ prices: [{ currency: 'dong', amount: 100, interval: 'month' }] }),
      { token: admin.accessToken },
    );
    expect(currency.status).toBe(400);
    expect(currency.body.details.length).toBeGreaterThan(0);
    const tierless = await t.http.post('/products', subscriptionBody({ tier: null }), { token: admin.accessToken });
    expect(tierless.status).toBe(400);
    expect(tierless.body.details).toContainEqual(expect.objectContaining({ field: 'tier' }));
    const course = await t.http.post(
      '/products',
      {
        ...subscriptionBody(),
        kind: 'course',
        tier: null,
        prices: [{ currency: 'USD', amount: 500 }],
        courseIds: ['00000000-0000-4000-8000-000000000000'],
      },
      { token: admin.accessToken },
    );
    expect(course.status).toBe(400);
    expect(course.body.details).toContainEqual(expect.objectContaining({ field: 'courseIds' }));
    expect((await t.http.post('/products', subscriptionBody())).status).toBe(401);
    const guardian = await signUp(t, adultSignup());
    expect((await t.http.post('/products', subscriptionBody(), { token: guardian.accessToken })).status).toBe(403);
    const learner = await learnerOfAge(t, 15);
    expect((await t.http.post('/products', subscriptionBody(), { token: learner.accessToken })).status).toBe(403);
    const gql = await t.http.gql(
      'mutation($id: ID!) { publishProduct(id: $id) { id } }',
      { id: '00000000-0000-4000-8000-000000000000' },
      guardian.accessToken,
    );
    expect(gql.body.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect(
      (
        await t.http.post('/products/00000000-0000-4000-8000-000000000000/publish', undefined, {
          token: admin.accessToken,
        })
      ).status,
    ).toBe(404);
  });
});

describe("a sale's count", () => {
  it("counts a vn buyer's sale once on the product in global's database, though its reaction is delivered twice, and the buyer's region reads it", async () => {
    const product = await publishedProduct(t, admin);
    const buyer = await signUp(t, adultSignup());
    const home = await homeOf(t, buyer.id);
    expect(home.region).not.toBe(GLOBAL_REGION);
    const sales = async (who: SignedIn) =>
      (await t.http.get(`/products/${product.id}`, { token: who.accessToken })).body.sales as number;

    const paid = await buy(t, buyer, product);
    await settled(t);
    expect(await sales(admin)).toBe(1);
    // The reaction's outbox row in the buyer's region once more, as when vn's transaction that deleted
    // it failed after global's count had committed: the relay delivers it again.
    await home.sql.query(`insert into outbox (kind, name, payload) values ('event', 'catalog', ?::jsonb)`, [
      JSON.stringify({ type: 'payment.succeeded', paymentId: paid.id, productId: product.id }),
    ]);
    await settled(t);
    expect(await sales(admin)).toBe(1);
    // The buyer's region has a read-only copy of the product, which the count reaches by replication.
    expect(
      await waitFor(
        () => sales(buyer),
        (n) => n === 1,
      ),
    ).toBe(1);
  });
});

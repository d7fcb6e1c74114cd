import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openUnit } from '../../src/server/platform';
import { startTestApp, type TestApp } from '../support/app';
import { homeOf, ownerOfAccount } from '../support/regions';
import { asOwner } from '../support/sql';
import { adultSignup, type SignedIn, signInAdmin, signUp } from '../support/users';
import { buy, publishedProduct, subscriptionBody, waitFor } from '../support/commerce';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await startTestApp();
  admin = await signInAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

describe('entitlements and tier', () => {
  it('admins grant and revoke; the tier follows at once; others are refused', async () => {
    const user = await signUp(t, adultSignup());
    const granted = await t.http.post(
      '/entitlements/grants',
      { userId: user.id, kind: 'tier', tier: 'pro' },
      { token: admin.accessToken },
    );
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({ kind: 'tier', tier: 'pro', source: 'grant', status: 'active' });
    expect((await t.http.get('/auth/me', { token: user.accessToken })).body.user.tier).toBe('pro');
    expect((await t.http.get('/entitlements/me', { token: user.accessToken })).body.tier).toBe('pro');
    const revoked = await t.http.post(`/entitlements/${granted.body.id}/revoke`, undefined, {
      token: admin.accessToken,
    });
    expect(revoked.body.status).toBe('revoked');
    expect((await t.http.get('/auth/me', { token: user.accessToken })).body.user.tier).toBe('free');
    expect(
      (await t.http.post(`/entitlements/${granted.body.id}/revoke`, undefined, { token: admin.accessToken })).status,
    ).toBe(409);

    const bad = await t.http.post(
      '/entitlements/grants',
      { userId: user.id, kind: 'tier' },
      { token: admin.accessToken },
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('tier');
    expect(
      (
        await t.http.post(
          '/entitlements/grants',
          { userId: user.id, kind: 'tier', tier: 'pro' },
          { token: user.accessToken },
        )
      ).status,
    ).toBe(403);
    expect((await t.http.post('/entitlements/grants', { userId: user.id, kind: 'tier', tier: 'pro' })).status).toBe(
      401,
    );
    expect((await t.http.get('/entitlements/me')).status).toBe(401);
    expect(
      (await t.http.post(`/entitlements/${granted.body.id}/revoke`, undefined, { token: user.accessToken })).status,
    ).toBe(403);
    const gql = await t.http.gql(
      'mutation($input: GrantInput!) { grantEntitlement(input: $input) { tier } }',
      { input: { userId: user.id, kind: 'COURSE', courseId: '00000000-0000-4000-8000-000000000000' } },
      admin.accessToken,
    );
    expect(gql.body.data.grantEntitlement).toEqual({ tier: null });
    const mine = await t.http.gql('{ myEntitlements { tier items { kind courseId status } } }', {}, user.accessToken);
    expect(mine.body.data.myEntitlements.items).toContainEqual({
      kind: 'COURSE',
      courseId: '00000000-0000-4000-8000-000000000000',
      status: 'ACTIVE',
    });
  });

  it('a subscription that ends drops the tier (the job), and pending payments expire', async () => {
    const product = await publishedProduct(t, admin, subscriptionBody({ tier: 'pro' }));
    const buyer = await signUp(t, adultSignup());
    await buy(t, buyer, product);
    expect((await t.http.get('/auth/me', { token: buyer.accessToken })).body.user.tier).toBe('pro');
    const pending = await t.http.post(
      '/payments/checkout',
      { productId: product.id, priceId: product.prices[0].id },
      { token: buyer.accessToken, headers: { 'idempotency-key': 'pending-1' } },
    );
    const later = new Date(Date.now() + 40 * 86_400_000);
    // The sweep's job runs in each region: the buyer's is the one that holds their subscription.
    const swept = await openUnit(await homeOf(t, buyer.id)).services.payments.sweep(later);
    expect(swept.entitlements).toBeGreaterThanOrEqual(1);
    expect(swept.payments).toBeGreaterThanOrEqual(1);
    expect((await t.http.get('/auth/me', { token: buyer.accessToken })).body.user.tier).toBe('free');
    expect((await t.http.get(`/payments/${pending.body.id}`, { token: buyer.accessToken })).body.status).toBe(
      'expired',
    );
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

  it("this instance's own tier writes (a grant, a purchase, the sweep) reach its very next request, though the database's NOTIFY is not heard", async () => {
    const tierOf = async (who: SignedIn) => (await t.http.get('/auth/me', { token: who.accessToken })).body.user.tier;
    const product = await publishedProduct(t, admin, subscriptionBody({ tier: 'starter' }));
    const granted = await signUp(t, adultSignup());
    const bought = await signUp(t, adultSignup());
    // Both accounts are in this instance's memory before the changes.
    expect([await tierOf(granted), await tierOf(bought)]).toEqual(['free', 'free']);
    // Both accounts are in one home region: its database is the one whose NOTIFY goes unheard.
    const home = await ownerOfAccount(t, bought.id);
    await asOwner(home, 'alter table users disable trigger user');
    try {
      await t.http.post(
        '/entitlements/grants',
        { userId: granted.id, kind: 'tier', tier: 'pro' },
        { token: admin.accessToken },
      );
      expect(await tierOf(granted)).toBe('pro');
      await buy(t, bought, product);
      expect(await tierOf(bought)).toBe('starter');
      await openUnit(await homeOf(t, bought.id)).services.payments.sweep(new Date(Date.now() + 40 * 86_400_000));
      expect(await tierOf(bought)).toBe('free');
    } finally {
      await asOwner(home, 'alter table users enable trigger user');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProviders } from '../../src/payments/providers';
import { loadConfig } from '../../src/config';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, signInAdmin, signUp } from '../support/users';
import { checkout, publishedProduct } from '../support/commerce';

/**
 * The sandbox provider's Pay button completes a payment without money, so `auto` (the
 * default) never offers it in production; `on` does (a staging deployment), `off` never.
 */
const offered = (env: Record<string, string>) =>
  [
    ...createProviders(
      loadConfig({
        DATABASE_URL: 'postgres://unused/unused',
        JWT_SECRET: 'a-secret-that-is-long-enough-for-hs256-signing',
        ...env,
      }),
      () => {},
    ).offered.keys(),
  ].sort();
const stripe = { STRIPE_SECRET_KEY: 'sk_test_setting', STRIPE_WEBHOOK_SECRET: 'whsec_setting' };

describe('PAYMENTS_SANDBOX', () => {
  it('auto offers the sandbox outside production when no provider is configured; on and off do what they say in every environment', () => {
    expect(
      loadConfig({
        DATABASE_URL: 'postgres://unused/unused',
        JWT_SECRET: 'a-secret-that-is-long-enough-for-hs256-signing',
      }).PAYMENTS_SANDBOX,
    ).toBe('auto');
    for (const NODE_ENV of ['development', 'test']) {
      expect(offered({ NODE_ENV }), NODE_ENV).toEqual(['sandbox']);
      expect(offered({ NODE_ENV, ...stripe }), NODE_ENV).toEqual(['stripe']);
      expect(offered({ NODE_ENV, PAYMENTS_SANDBOX: 'on', ...stripe }), NODE_ENV).toEqual(['sandbox', 'stripe']);
      expect(offered({ NODE_ENV, PAYMENTS_SANDBOX: 'off' }), NODE_ENV).toEqual([]);
    }
    expect(offered({ NODE_ENV: 'production' })).toEqual([]);
    expect(offered({ NODE_ENV: 'production', PAYMENTS_SANDBOX: 'auto' })).toEqual([]);
    expect(offered({ NODE_ENV: 'production', PAYMENTS_SANDBOX: 'on' })).toEqual(['sandbox']);
    expect(offered({ NODE_ENV: 'production', PAYMENTS_SANDBOX: 'off', ...stripe })).toEqual(['stripe']);
    expect(() => offered({ PAYMENTS_SANDBOX: 'yes' })).toThrow(/PAYMENTS_SANDBOX/);
  });

  describe('a production service with no provider configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ NODE_ENV: 'production' });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('offers no provider: a checkout is refused (400 naming provider), the sandbox webhook is 404; GraphQL twin', async () => {
      const product = await publishedProduct(t, await signInAdmin(t));
      const buyer = await signUp(t, adultSignup());
      const refused = await checkout(t, buyer, { productId: product.id, priceId: product.prices[0].id });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'validation_failed', details: [{ field: 'provider' }] });
      expect((await t.http.get('/payments/me', { token: buyer.accessToken })).body.items).toEqual([]);
      const webhook = await t.http.rest('POST', '/payments/webhooks/sandbox', {
        raw: '{}',
        headers: { 'x-sandbox-signature': 'sha256=00' },
      });
      expect(webhook.status).toBe(404);
      expect(webhook.body.error).toBe('not_found');
      const gql = await t.http.gql('{ paymentProviders }', {}, buyer.accessToken);
      expect(gql.body.data.paymentProviders).toEqual([]);
    });
  });
});

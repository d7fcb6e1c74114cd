import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { atEveryWidth, CHROMIUM, launchChromium } from '../support/browser';
import { adultSignup, signInAdmin, signUp } from '../support/users';
import { checkout, publishedProduct } from '../commerce/support';

describe.skipIf(!existsSync(CHROMIUM))('the sandbox payment page in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let product: Awaited<ReturnType<typeof publishedProduct>>;
  beforeAll(async () => {
    t = await startTestApp();
    product = await publishedProduct(t, await signInAdmin(t));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(returnUrl?: string, priceIndex = 0) {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { productId: product.id, priceId: product.prices[priceIndex].id, ...(returnUrl ? { returnUrl } : {}) });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    const url = new URL(started.body.redirectUrl);
    const response = await page.goto(`${t.url}${url.pathname}${url.search}`);
    return { buyer, started, page, problems, response };
  }

  it('Pay: the signed webhook goes out, the payment succeeds, the page returns to returnUrl; the CSP allows it all', async () => {
    const { buyer, started, page, problems, response } = await open(`${t.url}/health`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    // 199000 in VND's minor unit (it has none), in the page's locale (en).
    expect(await page.textContent('#amount')).toBe('₫199,000');
    await page.click('#pay');
    await page.locator('#result', { hasText: 'Succeeded' }).waitFor();
    expect(problems).toEqual([]);
    await page.waitForURL(`${t.url}/health`);
    expect((await t.http.get(`/payments/${started.body.id}`, { token: buyer.accessToken })).body.status).toBe('succeeded');
    expect((await t.http.get('/auth/me', { token: buyer.accessToken })).body.user.tier).toBe('starter');
  });

  it('shows the amount in major units with its currency, and fits 1280 px and 390 px windows', async () => {
    const { page, problems } = await open(undefined, 1);
    expect(product.prices[1]).toMatchObject({ currency: 'USD', amount: 799 });
    await atEveryWidth(page, 'sandbox-payment', async () => {
      expect(await page.textContent('#amount')).toBe('$7.99');
      expect(await page.isVisible('#pay')).toBe(true);
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Cancel: the payment is canceled; a wrong page token shows nothing', async () => {
    const { buyer, started, page, problems } = await open();
    await page.click('#cancel');
    await page.locator('#result', { hasText: 'Canceled' }).waitFor();
    expect(problems).toEqual([]);
    expect((await t.http.get(`/payments/${started.body.id}`, { token: buyer.accessToken })).body.status).toBe('canceled');
    const forged = await fetch(`${t.url}/payments/sandbox/${started.body.id}?t=forged`);
    expect(forged.status).toBe(404);
  });
});

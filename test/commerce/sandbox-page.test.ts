import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, signInAdmin, signUp } from '../support/users';
import { checkout, publishedProduct } from './support';

// Debian's chromium, as the factory page's test uses it; a machine without it skips this file.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('the sandbox payment page in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let product: Awaited<ReturnType<typeof publishedProduct>>;
  beforeAll(async () => {
    t = await startTestApp();
    product = await publishedProduct(t, await signInAdmin(t));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(returnUrl?: string) {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, { productId: product.id, priceId: product.prices[0].id, ...(returnUrl ? { returnUrl } : {}) });
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
    expect(await page.textContent('#amount')).toBe('199000 VND');
    await page.click('#pay');
    await page.locator('#result', { hasText: 'Succeeded' }).waitFor();
    expect(problems).toEqual([]);
    await page.waitForURL(`${t.url}/health`);
    expect((await t.http.get(`/payments/${started.body.id}`, { token: buyer.accessToken })).body.status).toBe('succeeded');
    expect((await t.http.get('/auth/me', { token: buyer.accessToken })).body.user.tier).toBe('starter');
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

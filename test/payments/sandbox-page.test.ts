import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { atEveryWidth, CHROMIUM, launchChromium } from '../support/browser';
import { ownerOfAccount } from '../support/regions';
import { asOwner } from '../support/sql';
import { adultSignup, signInAdmin, signUp } from '../support/users';
import { checkout, publishedProduct } from '../support/commerce';

describe.skipIf(!existsSync(CHROMIUM))('the sandbox payment page in headless Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let product: Awaited<ReturnType<typeof publishedProduct>>;
  /** The web app (WEB_ORIGIN): a page of its own that the browser comes back to. */
  let webApp: Server;
  let webOrigin: string;
  /** Another site, where no payment may send anyone. */
  let elsewhere: Server;
  let elsewhereOrigin: string;
  const visited: string[] = [];
  const serve = async (name: string) => {
    const server = createServer((req, res) => {
      visited.push(`${name}${req.url}`);
      res.setHeader('content-type', 'text/html');
      res.end(`<!doctype html><title>${name}</title><p>${name}</p>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  };
  beforeAll(async () => {
    ({ server: webApp, origin: webOrigin } = await serve('web-app'));
    ({ server: elsewhere, origin: elsewhereOrigin } = await serve('elsewhere'));
    t = await startTestApp({ WEB_ORIGIN: webOrigin });
    product = await publishedProduct(t, await signInAdmin(t));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await new Promise((resolve) => webApp?.close(resolve));
    await new Promise((resolve) => elsewhere?.close(resolve));
  });

  async function open(returnUrl?: string, priceIndex = 0) {
    const buyer = await signUp(t, adultSignup());
    const started = await checkout(t, buyer, {
      productId: product.id,
      priceId: product.prices[priceIndex].id,
      ...(returnUrl ? { returnUrl } : {}),
    });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    const url = new URL(started.body.redirectUrl);
    const response = await page.goto(`${t.url}${url.pathname}${url.search}`);
    return { buyer, started, page, problems, response };
  }

  it('Pay: the signed webhook goes out, the payment succeeds, the page returns to returnUrl on the web app; the CSP allows it all', async () => {
    const { buyer, started, page, problems, response } = await open(`${webOrigin}/paid?course=1`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
    // 199000 in VND's minor unit (it has none), in the page's locale (en).
    expect(await page.textContent('#amount')).toBe('₫199,000');
    await page.click('#pay');
    await page.locator('#result', { hasText: 'Succeeded' }).waitFor();
    expect(problems).toEqual([]);
    await page.waitForURL(`${webOrigin}/paid?course=1`);
    expect(await page.textContent('p')).toBe('web-app');
    expect((await t.http.get(`/payments/${started.body.id}`, { token: buyer.accessToken })).body.status).toBe(
      'succeeded',
    );
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

  it('sends no browser off WEB_ORIGIN and APP_ORIGIN: a checkout with another site is refused, and a payment that holds one (stored before the check) stays on the page after Pay', async () => {
    const buyer = await signUp(t, adultSignup());
    const refused = await checkout(t, buyer, {
      productId: product.id,
      priceId: product.prices[0].id,
      returnUrl: `${elsewhereOrigin}/phish`,
    });
    expect([refused.status, refused.body.details?.[0].field]).toEqual([400, 'returnUrl']);

    const { buyer: payer, started, page, problems } = await open(`${webOrigin}/paid`);
    // The payment is kept in its payer's home region's database.
    await asOwner(await ownerOfAccount(t, payer.id), 'update payments set return_url = $1 where id = $2', [
      `${elsewhereOrigin}/phish`,
      started.body.id,
    ]);
    await page.reload();
    expect(await page.getAttribute('#actions', 'data-return')).toBe('');
    await page.click('#pay');
    await page.locator('#result', { hasText: 'Succeeded' }).waitFor();
    // Longer than the page waits before it leaves for a return address.
    await page.waitForTimeout(1500);
    expect(new URL(page.url()).origin).toBe(t.url);
    expect(visited.filter((v) => v.startsWith('elsewhere'))).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Cancel: the payment is canceled; a wrong page token shows nothing', async () => {
    const { buyer, started, page, problems } = await open();
    await page.click('#cancel');
    await page.locator('#result', { hasText: 'Canceled' }).waitFor();
    expect(problems).toEqual([]);
    expect((await t.http.get(`/payments/${started.body.id}`, { token: buyer.accessToken })).body.status).toBe(
      'canceled',
    );
    const forged = await fetch(`${t.url}/payments/sandbox/${started.body.id}?t=forged`);
    expect(forged.status).toBe(404);
  });
});

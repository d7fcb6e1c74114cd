import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy, publishedProduct, subscriptionBody } from '../support/commerce';
import { startTestApp, type TestApp } from '../support/app';
import { atEveryWidth, CHROMIUM, launchChromium } from '../support/browser';
import { adultSignup, PASSWORD, type SignedIn, signInAdmin, signUp, uniqueEmail } from '../support/users';

describe.skipIf(!existsSync(CHROMIUM))('the /admin console in headless Chromium', () => {
  let browser: Browser;
  let t: TestApp;
  beforeAll(async () => {
    // The page as `npm run build` bundles it.
    await promisify(execFile)(process.execPath, ['web/build.mjs', 'admin-console']);
    t = await startTestApp();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('logs in, shows stats, finds a user, suspends them, and shows the suspension in the audit', async () => {
    const admin = await signInAdmin(t);
    const target = await signUp(t, adultSignup({ email: uniqueEmail('suspect') }));
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));

    const response = await page.goto(`${t.url}/admin`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.fill('#login-form input[name=email]', admin.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#console-view:not([hidden])');
    expect(await page.textContent('#who')).toBe(admin.email);
    await page.locator('#stats .card', { hasText: 'enrollments' }).waitFor();

    await page.click('nav button[data-tab=users]');
    await page.fill('#user-search input[name=email]', target.email.split('@')[0]);
    await page.click('#user-search button[type=submit]');
    const userRow = page.locator(`#users tbody tr[data-email="${target.email}"]`);
    await userRow.waitFor();
    await expect.poll(() => page.locator('#users tbody tr').count()).toBe(1);
    await userRow.locator('button', { hasText: 'Suspend' }).click();
    await userRow.locator('td', { hasText: 'suspended' }).waitFor();
    expect((await t.http.get('/auth/me', { token: target.accessToken })).body.error).toBe('account_suspended');

    await page.click('nav button[data-tab=audit]');
    const entry = page.locator('#audit tbody tr', { hasText: 'admin.user_suspended' });
    await entry.waitFor();
    expect(await entry.textContent()).toContain(target.id);
    expect(await entry.textContent()).toContain(admin.email);

    await page.click('nav button[data-tab=flags]');
    await page.click('nav button[data-tab=contact]');
    expect(await page.getAttribute('nav a', 'href')).toBe('/admin/factory');
    expect(problems).toEqual([]);
    await page.close();
  });

  async function logIn(admin: SignedIn): Promise<Page> {
    const page = await browser.newPage();
    await page.goto(`${t.url}/admin`);
    await page.fill('#login-form input[name=email]', admin.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#console-view:not([hidden])');
    return page;
  }

  it('shows revenue as money, offers no Suspend on the admin’s own row, and fits 1280 px and 390 px windows', async () => {
    const admin = await signInAdmin(t);
    const product = await publishedProduct(
      t,
      admin,
      subscriptionBody({
        prices: [
          { currency: 'VND', amount: 199000, interval: 'month' },
          { currency: 'USD', amount: 499, interval: 'month' },
        ],
      }),
    );
    await buy(t, await signUp(t, adultSignup()), product, {}, 0);
    await buy(t, await signUp(t, adultSignup()), product, {}, 1);
    // Long values with no space to break at: what once made the audit table 1,534 px wide.
    const longKey = `flag_${'x'.repeat(58)}`;
    const rules = [
      {
        roles: ['learner', 'guardian', 'creator'],
        countries: ['VN', 'US', 'GB', 'FR', 'DE', 'JP'],
        minAge: 6,
        maxAge: 17,
        percentage: 50,
      },
    ];
    expect(
      (
        await t.http.put(
          `/admin/features/${longKey}`,
          { enabled: true, description: 'd'.repeat(200), rules },
          { token: admin.accessToken },
        )
      ).status,
    ).toBe(200);
    const page = await logIn(admin);
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));

    const usd = page.locator('#stats .card', { hasText: 'revenue this month (USD)' });
    await usd.waitFor();
    expect(await usd.locator('b').textContent()).toBe('$4.99');
    expect(await page.locator('#stats .card', { hasText: 'revenue this month (VND)' }).locator('b').textContent()).toBe(
      '₫199,000',
    );
    await atEveryWidth(page, 'admin-console-stats');

    await page.click('nav button[data-tab=users]');
    const own = page.locator(`#users tbody tr[data-email="${admin.email}"]`);
    await own.waitFor();
    const other = page.locator('#users tbody tr', { hasNotText: admin.email }).first();
    await atEveryWidth(page, 'admin-console-users', async () => {
      expect(await own.locator('button').count()).toBe(0);
      expect(await own.textContent()).not.toContain('Suspend');
      expect(await other.locator('button', { hasText: 'Suspend' }).isVisible()).toBe(true);
    });

    await page.click('nav button[data-tab=audit]');
    await page.locator('#audit tbody tr', { hasText: longKey }).waitFor();
    await atEveryWidth(page, 'admin-console-audit');
    await page.click('nav button[data-tab=flags]');
    await page.locator('#flags tbody tr', { hasText: longKey }).waitFor();
    await atEveryWidth(page, 'admin-console-flags');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('writes counts with the noun they take (1 creator, 2 creators) and statuses and roles as words', async () => {
    const admin = await signInAdmin(t);
    const editor = await signUp(t, adultSignup({ role: 'creator', email: uniqueEmail('editor') }));
    expect(
      (await t.http.post(`/admin/users/${editor.id}/roles`, { role: 'content_admin' }, { token: admin.accessToken }))
        .status,
    ).toBe(200);
    const page = await logIn(admin);
    await page.locator('#stats .card', { hasText: 'enrollment' }).waitFor();
    const cards = await page
      .locator('#stats .card')
      .evaluateAll((nodes) =>
        nodes.map((n) => ({ count: Number(n.firstChild!.textContent), label: n.lastChild!.textContent! })),
      );
    const counted = cards.filter((card) => !card.label.startsWith('revenue'));
    expect(counted.length).toBeGreaterThan(8);
    for (const { count, label } of counted) {
      // The noun counted ("content admins", "active accounts", "learners active (7 days)", "AI messages today"): singular for one only.
      const noun = label
        .replace(/ (active \(.*\)|today)$/, '')
        .split(' ')
        .at(-1)!;
      expect(noun.endsWith('s'), `${count} ${label}`).toBe(count !== 1);
      expect(label).not.toContain('_');
    }
    expect(cards.map((card) => card.label)).toContain(
      counted.find((card) => card.label.startsWith('content admin'))!.count === 1 ? 'content admin' : 'content admins',
    );

    await page.click('nav button[data-tab=users]');
    await page.fill('#user-search input[name=email]', editor.email);
    await page.click('#user-search button[type=submit]');
    const row = page.locator(`#users tbody tr[data-email="${editor.email}"]`);
    await row.waitFor();
    expect(await row.locator('td').nth(2).textContent()).toBe('creator, content admin');
    await page.close();
  });

  it('refuses a non-admin at log-in', async () => {
    const person = await signUp(t, adultSignup());
    const page = await browser.newPage();
    await page.goto(`${t.url}/admin`);
    await atEveryWidth(page, 'admin-console-login', async () => expect(await page.isVisible('#login-form')).toBe(true));
    await page.fill('#login-form input[name=email]', person.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await expect.poll(() => page.textContent('#login-error')).toContain('for admins');
    expect(await page.isHidden('#console-view')).toBe(true);
    await page.close();
  });
});

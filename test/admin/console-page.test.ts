import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { adultSignup, PASSWORD, signInAdmin, signUp, uniqueEmail } from '../support/users';

// Debian's chromium, which .ci/run installs when it is missing; a machine without it skips this file.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('the /admin console in headless Chromium', () => {
  let browser: Browser;
  let t: TestApp;
  beforeAll(async () => {
    // The page as `npm run build` bundles it.
    await promisify(execFile)(process.execPath, ['web/build.mjs', 'admin-console']);
    t = await startTestApp();
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

  it('refuses a non-admin at log-in', async () => {
    const person = await signUp(t, adultSignup());
    const page = await browser.newPage();
    await page.goto(`${t.url}/admin`);
    await page.fill('#login-form input[name=email]', person.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await expect.poll(() => page.textContent('#login-error')).toContain('for admins');
    expect(await page.isHidden('#console-view')).toBe(true);
    await page.close();
  });
});

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { CHROMIUM, launchChromium } from '../support/browser';
import { PASSWORD, signInAdmin } from '../support/users';

interface Stored {
  accessToken: string;
  refreshToken: string;
}

describe.skipIf(!existsSync(CHROMIUM))('one sign-in for the admin pages of a browser tab', () => {
  let browser: Browser;
  let t: TestApp;
  beforeAll(async () => {
    const build = promisify(execFile);
    await Promise.all(
      ['admin-console', 'admin-factory'].map((page) => build(process.execPath, ['web/build.mjs', page])),
    );
    // Access tokens of 31 s, which the pages renew 30 s before they expire: a second after log-in,
    // every call and every socket rides on a renewed session.
    t = await startTestApp({ ACCESS_TOKEN_TTL: '31' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const stored = (page: Page) => page.evaluate<Stored | null>("JSON.parse(sessionStorage.getItem('admin.session'))");

  it('serves the console and the factory, across reloads and token renewals, and no other tab', async () => {
    const admin = await signInAdmin(t);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));

    await page.goto(`${t.url}/admin`);
    await page.fill('#login-form input[name=email]', admin.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#console-view:not([hidden])');
    const atLogIn = (await stored(page))!;

    await page.waitForTimeout(1_200);
    await page.click('a[href="/admin/factory"]');
    await page.waitForURL(`${t.url}/admin/factory`);
    await page.waitForSelector('#factory-view:not([hidden])');
    expect(await page.textContent('#who')).toBe(admin.email);
    expect(await page.isHidden('#login-view')).toBe(true);
    // The factory renewed the session it found: a new pair, the log-in's refresh token spent.
    const renewed = (await stored(page))!;
    expect(renewed.refreshToken).not.toBe(atLogIn.refreshToken);
    expect((await t.http.get('/auth/me', { token: renewed.accessToken })).body.user.email).toBe(admin.email);

    await page.reload();
    await page.waitForSelector('#factory-view:not([hidden])');
    expect(await page.isHidden('#login-view')).toBe(true);
    await page.goBack();
    await page.waitForURL(`${t.url}/admin`);
    await page.reload();
    await page.waitForSelector('#console-view:not([hidden])');
    expect(await page.textContent('#who')).toBe(admin.email);

    // Another tab of its own (a browser context shares no sessionStorage) asks for the log-in.
    const other = await browser.newPage();
    for (const path of ['/admin', '/admin/factory']) {
      await other.goto(`${t.url}${path}`);
      await other.waitForSelector('#login-view:not([hidden])');
    }
    await other.close();

    // Log out ends the session at the API too, for both pages.
    await page.waitForTimeout(1_200);
    const last = (await stored(page))!;
    await page.click('#logout');
    await page.waitForSelector('#login-view:not([hidden])');
    expect(await stored(page)).toBeNull();
    expect((await t.http.post('/auth/refresh', { refreshToken: last.refreshToken })).status).toBe(401);
    await page.goto(`${t.url}/admin/factory`);
    await page.waitForSelector('#login-view:not([hidden])');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('sends the factory back to log in when the session has ended elsewhere', async () => {
    const admin = await signInAdmin(t);
    const page = await browser.newPage();
    await page.goto(`${t.url}/admin/factory`);
    await page.fill('#login-form input[name=email]', admin.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#factory-view:not([hidden])');
    expect((await t.http.post('/auth/logout', { refreshToken: (await stored(page))!.refreshToken })).status).toBe(204);
    await page.goto(`${t.url}/admin`);
    await page.waitForSelector('#login-view:not([hidden])');
    expect(await stored(page)).toBeNull();
    await page.close();
  });
});

import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { startTestApp, type TestApp } from '../support/app';
import { atEveryWidth, CHROMIUM, launchChromium } from '../support/browser';
import { startSmtpServer, type SmtpServer } from '../support/smtp';
import { adultSignup, PASSWORD, signUp, uniqueEmail, verifiedGuardian, verifiedLearnerOfAge } from '../support/users';

/** Where the service says it is reached from outside: the mails' links start there when no web app is configured. */
const API_PUBLIC_URL = 'http://api.learn.example';

describe('where the mails link to', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lp-mail-links-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const config = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'a-secret-that-is-long-enough-for-hs256-x', ...env });

  it("is the service's own pages when no web app is configured, else the web app", () => {
    expect(config({}).PUBLIC_URL).toBe('http://localhost:4000/pages');
    expect(config({ API_PUBLIC_URL: `${API_PUBLIC_URL}/` }).PUBLIC_URL).toBe(`${API_PUBLIC_URL}/pages`);
    expect(config({ WEB_ORIGIN: 'https://web.example' }).PUBLIC_URL).toBe('https://web.example');
    expect(config({ WEB_ORIGIN: 'https://web.example', PUBLIC_URL: 'https://learn.example' }).PUBLIC_URL).toBe(
      'https://learn.example',
    );
  });
});

describe.skipIf(!existsSync(CHROMIUM))("the mails' pages in headless Chromium, with no web app configured", () => {
  let t: TestApp;
  let smtp: SmtpServer;
  let browser: Browser;
  beforeAll(async () => {
    // The page as `npm run build` bundles it.
    await promisify(execFile)(process.execPath, ['web/build.mjs', 'mail-links']);
    smtp = await startSmtpServer();
    // The test app names a web app; these are unset, as on a fresh install.
    t = await startTestApp({ SMTP_URL: smtp.url, PUBLIC_URL: undefined, WEB_ORIGIN: undefined, API_PUBLIC_URL });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  /** The link in the mail, which must lead to the service's page; opened on the test's own address. */
  async function openLink(text: string, page: string): Promise<{ page: Page; problems: string[]; link: URL }> {
    const match = /https?:\/\/\S+/.exec(text);
    expect(match, 'a link in the mail').not.toBeNull();
    const link = new URL(match![0]);
    expect(`${link.origin}${link.pathname}`).toBe(`${API_PUBLIC_URL}/pages/${page}`);
    const tab = await browser.newPage();
    const problems: string[] = [];
    tab.on('pageerror', (error) => problems.push(error.message));
    tab.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    const response = await tab.goto(`${t.url}${link.pathname}${link.search}`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    return { page: tab, problems, link };
  }

  it(
    'verifies the address from the verification mail, in English, and says so; the same link then says it is used',
    { timeout: 60_000 },
    async () => {
      const account = await signUp(t, adultSignup({ email: uniqueEmail('verify-page') }));
      expect(account.user.emailVerified).toBe(false);
      const mail = await smtp.waitFor(account.email, /Confirm your e-mail address/);
      const { page, problems, link } = await openLink(mail.text, 'verify-email');
      expect(link.searchParams.get('lang')).toBe('en');
      expect(await page.getAttribute('html', 'lang')).toBe('en');
      expect(await page.textContent('h1')).toBe('Verify your e-mail address');
      // Opening the link changes nothing (a mail scanner may fetch it): the button does.
      expect((await t.http.get('/auth/me', { token: account.accessToken })).body.user.emailVerified).toBe(false);
      await page.click('#action');
      await page.waitForSelector('#result:not([hidden])');
      expect(await page.textContent('#result')).toMatch(/Your address is verified/);
      await atEveryWidth(page, 'mail-verify-email');
      expect((await t.http.get('/auth/me', { token: account.accessToken })).body.user.emailVerified).toBe(true);

      const again = await openLink(mail.text, 'verify-email');
      await again.page.click('#action');
      await again.page.waitForSelector('#error:not([hidden])');
      expect(await again.page.textContent('#error')).toBe('This link is invalid, expired or used already.');
      expect([...problems, ...again.problems.filter((p) => !/status of 400/.test(p))]).toEqual([]);
    },
  );

  it(
    'sets a new password from the reset mail, in Vietnamese; the old password stops working',
    { timeout: 60_000 },
    async () => {
      const account = await signUp(t, adultSignup({ email: uniqueEmail('reset-page'), locale: 'vi' }));
      expect((await t.http.post('/auth/forgot-password', { email: account.email })).status).toBe(202);
      const mail = await smtp.waitFor(account.email, /Đặt lại mật khẩu/);
      const { page, problems } = await openLink(mail.text, 'reset-password');
      expect(await page.getAttribute('html', 'lang')).toBe('vi');
      expect(await page.textContent('h1')).toBe('Chọn mật khẩu mới');
      const fresh = 'a brand new passphrase';

      await page.fill('input[name=password]', fresh);
      await page.fill('input[name=repeat]', `${fresh}!`);
      await page.click('#action');
      expect(await page.textContent('#error')).toBe('Hai mật khẩu không giống nhau.');

      await page.fill('input[name=repeat]', fresh);
      await page.click('#action');
      await page.waitForSelector('#result:not([hidden])');
      expect(await page.textContent('#result')).toMatch(/Mật khẩu của bạn đã được đổi/);
      await atEveryWidth(page, 'mail-reset-password');
      expect((await t.http.post('/auth/login', { email: account.email, password: fresh })).status).toBe(200);
      expect((await t.http.post('/auth/login', { email: account.email, password: PASSWORD })).status).toBe(401);
      expect(problems).toEqual([]);
    },
  );

  it(
    "approves a guardian's link from the mail to the learner, and the guardian sees it active",
    { timeout: 60_000 },
    async () => {
      const guardian = await verifiedGuardian(t, smtp);
      const learner = await verifiedLearnerOfAge(t, smtp, 15, { locale: 'vi' });
      const declared = await t.http.post(
        '/guardian/declare',
        { learnerEmail: learner.email },
        { token: guardian.accessToken },
      );
      expect(declared.body.status).toBe('pending');
      const mail = await smtp.waitFor(learner.email, /người giám hộ/);
      const { page, problems } = await openLink(mail.text, 'guardian/confirm');
      expect(await page.textContent('h1')).toBe('Chấp thuận người giám hộ');
      await page.click('#action');
      await page.waitForSelector('#result:not([hidden])');
      expect(await page.textContent('#result')).toMatch(/Liên kết đã được chấp thuận/);
      await atEveryWidth(page, 'mail-guardian-confirm');
      const links = await t.http.get('/guardian/me/links', { token: guardian.accessToken });
      expect(links.body.items.find((l: { id: string }) => l.id === declared.body.id)).toMatchObject({
        status: 'active',
      });
      expect(problems).toEqual([]);
    },
  );

  it(
    "tells a learner without an account to sign up first, by the refusal's reason (a bad token is of the same field)",
    { timeout: 60_000 },
    async () => {
      const guardian = await verifiedGuardian(t, smtp);
      const learnerEmail = uniqueEmail('not-yet-learner');
      expect((await t.http.post('/guardian/declare', { learnerEmail }, { token: guardian.accessToken })).status).toBe(
        201,
      );
      const mail = await smtp.waitFor(learnerEmail, /guardian/i);
      const { page, problems, link } = await openLink(mail.text, 'guardian/confirm');
      const early = await t.http.post('/guardian/links/confirm', { token: link.searchParams.get('token') });
      expect(early.status).toBe(400);
      expect(early.body).toMatchObject({
        error: 'validation_failed',
        reason: 'learner_not_signed_up',
        details: [{ field: 'token' }],
      });
      await page.click('#action');
      await page.waitForSelector('#error:not([hidden])');
      expect(await page.textContent('#error')).toBe(
        'token: Sign up as a learner with this e-mail address first, then follow the link again.',
      );
      expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    },
  );

  it('says a link without its token is incomplete, and offers no button', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    await page.goto(`${t.url}/pages/verify-email?lang=en`);
    await page.waitForSelector('#error:not([hidden])');
    expect(await page.textContent('#error')).toBe('This link is incomplete: open it again from the mail.');
    expect(await page.isVisible('#action')).toBe(false);
  });
});

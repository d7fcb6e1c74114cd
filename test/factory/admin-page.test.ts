import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentAdmin } from '../learning/support';
import { atEveryWidth, CHROMIUM, launchChromium } from '../support/browser';
import { withMailAndApp } from '../support/setup';
import { adultSignup, PASSWORD, signUp, uniqueEmail } from '../support/users';

const ctx = withMailAndApp({ FACTORY_OFFLINE_DELAY_MS: '60' });

describe.skipIf(!existsSync(CHROMIUM))('the /admin/factory page in headless Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  it('logs in, starts a generation, watches it reach “awaiting approval” live, reads its outputs and approves it', async () => {
    const editor = await contentAdmin(ctx.t);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));
    // Content-security-policy refusals and script errors show up here.
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));

    const response = await page.goto(`${ctx.t.url}/admin/factory`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("default-src 'self'");
    await page.fill('#login-form input[name=email]', editor.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#factory-view:not([hidden])');
    expect(await page.textContent('#who')).toBe(editor.email);

    await page.fill('#generate-form input[name=topic]', 'Lập trình Python cho thiếu nhi');
    await page.selectOption('#generate-form select[name=level]', 'beginner');
    await page.fill('#generate-form input[name=ageRange]', '8-11');
    await page.fill('#generate-form input[name=lessonCount]', '3');
    await page.click('#generate-form button[type=submit]');

    const row = page.locator('#generations tbody tr', { hasText: 'Lập trình Python cho thiếu nhi' });
    await row.waitFor();
    // The row moves through its stages with no reload: progress values seen on the way, then done.
    const seen = new Set<string>();
    const deadline = Date.now() + 20_000;
    while ((await row.locator('.status').textContent()) !== 'awaiting approval') {
      seen.add((await row.locator('[role=progressbar]').getAttribute('aria-valuenow'))!);
      if (Date.now() > deadline) throw new Error(`still ${await row.locator('.status').textContent()}`);
      await page.waitForTimeout(25);
    }
    expect(await row.locator('[role=progressbar]').getAttribute('aria-valuenow')).toBe('100');
    expect(await row.getByRole('progressbar', { name: 'Progress of “Lập trình Python cho thiếu nhi”' }).count()).toBe(
      1,
    );
    expect([...seen].filter((v) => v !== '0' && v !== '100').length).toBeGreaterThan(0);
    expect(await row.locator('.stage.done').count()).toBe(5);
    const [bar, fill] = await row
      .locator('[role=progressbar]')
      .evaluate((el) => [el.getBoundingClientRect().width, el.firstElementChild!.getBoundingClientRect().width]);
    expect(fill).toBeCloseTo(bar, 0);

    await row.click();
    await page.waitForSelector('#detail h2:has-text("awaiting approval")');
    expect(await page.locator('#detail details').count()).toBe(5 + 3);
    expect(await page.locator('#detail .lesson summary').first().textContent()).toContain('Chương trình và câu lệnh');
    await page.click('#detail button:has-text("Approve")');
    await page.waitForSelector('#detail h2:has-text("approved")');

    const list = await ctx.t.http.get('/factory/generations', { token: editor.accessToken });
    const approved = list.body.items.find((g: { topic: string }) => g.topic === 'Lập trình Python cho thiếu nhi');
    expect(approved).toMatchObject({ status: 'approved', decidedById: editor.id });
    const course = await ctx.t.http.get(`/courses/${approved.courseId}`);
    expect(course.body.published).toBe(true);
    // The course is a link named by its title, not an id to copy.
    const link = page.locator('#detail .published a');
    await atEveryWidth(page, 'admin-factory-approved', async () => {
      expect(await link.textContent()).toBe(course.body.title.en);
      expect(await link.isVisible()).toBe(true);
    });
    expect(await page.textContent('#detail')).not.toContain(approved.courseId);
    expect(problems).toEqual([]);
    // Followed: the course as the API answers it (the browser's own favicon request there is no page's problem).
    await link.click();
    await page.waitForURL(`${ctx.t.url}/courses/${approved.courseId}`);
    expect(JSON.parse((await page.textContent('body'))!)).toMatchObject({ id: approved.courseId, published: true });
    await page.close();
  });

  it('shows the reason when the login is not an admin or content admin, and the field errors of a bad request', async () => {
    const creator = await signUp(ctx.t, adultSignup({ role: 'creator', email: uniqueEmail('creator') }));
    const page = await browser.newPage();
    await page.goto(`${ctx.t.url}/admin/factory`);
    await atEveryWidth(page, 'admin-factory-login', async () => expect(await page.isVisible('#login-form')).toBe(true));
    await page.fill('#login-form input[name=email]', creator.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#login-error:has-text("admins and content admins")');
    expect(await page.isHidden('#factory-view')).toBe(true);

    const editor = await contentAdmin(ctx.t);
    await page.fill('#login-form input[name=email]', editor.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
    await page.waitForSelector('#factory-view:not([hidden])');
    await page.fill('#generate-form input[name=topic]', 'Loops');
    await page.fill('#generate-form input[name=ageRange]', '3-20');
    await page.click('#generate-form button[type=submit]');
    await page.waitForSelector('#generate-error:has-text("ageRange")');
    await page.close();
  });
});

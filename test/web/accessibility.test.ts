import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkout, publishedProduct } from '../support/commerce';
import { contentAdmin } from '../learning/support';
import { accessibilityViolations, CHROMIUM, launchChromium } from '../support/browser';
import { withMailAndApp } from '../support/setup';
import { adultSignup, PASSWORD, type SignedIn, signInAdmin, signUp } from '../support/users';

const ctx = withMailAndApp({ FACTORY_OFFLINE_DELAY_MS: '20' });

/** Every page the service serves as HTML: each folder of web/ that the build bundles, and the sandbox's payment page. */
const BUNDLED = ['admin-console', 'admin-factory', 'graph-explorer', 'mail-links'];

describe.skipIf(!existsSync(CHROMIUM))('axe-core in Chromium finds nothing wrong on our pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['web/build.mjs']);
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** A page in a tab of its own; axe's findings in each state `visit` leaves it in. */
  async function audit(
    path: string,
    states: (page: Page, check: (state: string, exclude?: string[]) => Promise<void>) => Promise<void> = async (
      _page,
      check,
    ) => check(''),
  ): Promise<Record<string, string[]>> {
    const page = await browser.newPage();
    const found: Record<string, string[]> = {};
    const response = await page.goto(`${ctx.t.url}${path}`);
    expect(response?.status(), path).toBeLessThan(500);
    await states(page, async (state, exclude) => {
      const violations = await accessibilityViolations(page, exclude);
      if (violations.length) found[`${path} ${state}`.trim()] = violations;
    });
    await page.close();
    return found;
  }

  async function logIn(page: Page, who: SignedIn): Promise<void> {
    await page.fill('#login-form input[name=email]', who.email);
    await page.fill('#login-form input[name=password]', PASSWORD);
    await page.click('#login-form button[type=submit]');
  }

  it('knows every bundled page', () => {
    const web = join(__dirname, '..', '..', 'web');
    expect(readdirSync(web).filter((name) => existsSync(join(web, name, 'main.ts')))).toEqual(BUNDLED);
  });

  it('the admin console, signed out and on every tab signed in', async () => {
    const admin = await signInAdmin(ctx.t);
    await signUp(ctx.t, adultSignup({ role: 'creator' }));
    await ctx.t.http.put(
      '/admin/features/a11y_flag',
      { enabled: true, description: 'A flag to list', rules: [] },
      { token: admin.accessToken },
    );
    await ctx.t.http.post('/contact', {
      name: 'Parent',
      email: 'parent@example.org',
      subject: 'A question',
      message: 'How do refunds work here?',
    });
    const found = await audit('/admin', async (page, check) => {
      await page.waitForSelector('#login-view:not([hidden])');
      await check('signed out');
      await logIn(page, admin);
      await page.locator('#stats .card', { hasText: 'enrollments' }).waitFor();
      await check('stats');
      for (const tab of ['users', 'audit', 'flags', 'contact']) {
        await page.click(`nav button[data-tab=${tab}]`);
        await page.locator(`[data-panel=${tab}] tbody tr`).first().waitFor();
        await check(tab);
      }
    });
    expect(found).toEqual({});
  }, 90_000);

  it('the course factory, signed out, with its generations and one opened', async () => {
    const editor = await contentAdmin(ctx.t);
    const started = await ctx.t.http.post(
      '/factory/generate',
      { topic: 'Loops for beginners', level: 'beginner', ageRange: '9-12', lessonCount: 2 },
      { token: editor.accessToken },
    );
    expect(started.status).toBe(202);
    await expect
      .poll(
        async () =>
          (await ctx.t.http.get(`/factory/generations/${started.body.id}`, { token: editor.accessToken })).body.status,
        { timeout: 20_000 },
      )
      .toBe('awaiting_approval');
    const found = await audit('/admin/factory', async (page, check) => {
      await page.waitForSelector('#login-view:not([hidden])');
      await check('signed out');
      await logIn(page, editor);
      await page.locator('#generations tbody tr').first().waitFor();
      await check('signed in');
      await page.locator('#generations tbody tr').first().click();
      await page.waitForSelector('#detail:not([hidden]) .actions');
      await check('a generation opened');
    });
    expect(found).toEqual({});
  }, 90_000);

  it('the mail links’ pages, in English and Vietnamese, before and after their action', async () => {
    const found = {};
    for (const path of [
      '/pages/verify-email?token=not-a-token',
      '/pages/reset-password?token=not-a-token&lang=vi',
      '/pages/guardian/confirm?token=not-a-token',
      '/pages/verify-email',
    ]) {
      Object.assign(
        found,
        await audit(path, async (page, check) => {
          await check('');
          if (await page.isHidden('#action-form')) return;
          for (const name of ['password', 'repeat'])
            if (await page.isVisible(`input[name=${name}]`))
              await page.fill(`input[name=${name}]`, 'a long enough passphrase');
          await page.click('#action');
          await page.waitForSelector('#error:not([hidden])');
          await check('refused');
        }),
      );
    }
    expect(found).toEqual({});
  }, 90_000);

  it('the GraphQL explorer, signed out and signed in', async () => {
    const admin = await signInAdmin(ctx.t);
    const found = await audit('/graphql', async (page, check) => {
      await page.waitForSelector('#login-view:not([hidden])');
      await check('signed out');
      await logIn(page, admin);
      await page.waitForSelector('#explorer-view:not([hidden]) .graphiql-container');
      // GraphiQL's own editors (CodeMirror) are its authors' markup, not ours: the page around them is checked.
      await check('signed in', ['.graphiql-container']);
    });
    expect(found).toEqual({});
  }, 90_000);

  it('the sandbox payment page, open, paid, and not found', async () => {
    const product = await publishedProduct(ctx.t, await signInAdmin(ctx.t));
    const started = await checkout(ctx.t, await signUp(ctx.t, adultSignup()), {
      productId: product.id,
      priceId: product.prices[0].id,
    });
    const url = new URL(started.body.redirectUrl);
    const found = {
      ...(await audit(`${url.pathname}${url.search}`, async (page, check) => {
        await check('open');
        await page.click('#pay');
        await page.locator('#result', { hasText: 'Succeeded' }).waitFor();
        await check('paid');
      })),
      ...(await audit(`${url.pathname}?t=forged`)),
    };
    expect(found).toEqual({});
  }, 90_000);
});

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { atEveryWidth, CHROMIUM, launchChromium } from '../support/browser';
import { adultSignup, PASSWORD, signUp, uniqueEmail } from '../support/users';

describe.skipIf(!existsSync(CHROMIUM))('the GraphQL explorer at /graphql in headless Chromium', () => {
  let browser: Browser;
  let t: TestApp;
  beforeAll(async () => {
    // The page as `npm run build` bundles it.
    await promisify(execFile)(process.execPath, ['web/build.mjs', 'graph-explorer']);
    t = await startTestApp();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it(
    'serves the bundled page under a strict CSP, signs in, and runs a query whose answer it shows',
    { timeout: 60_000 },
    async () => {
      const person = await signUp(t, adultSignup({ email: uniqueEmail('developer'), displayName: 'Dev Eloper' }));
      const page = await browser.newPage();
      const problems: string[] = [];
      const external: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('requestfailed', (request) => problems.push(`${request.url()} ${request.failure()?.errorText}`));
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      page.on(
        'request',
        (request) =>
          !request.url().startsWith(t.url) && !request.url().startsWith('data:') && external.push(request.url()),
      );

      const response = await page.goto(`${t.url}/graphql`);
      expect(response?.status()).toBe(200);
      const csp = response?.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe');
      // Before log-in the page is the login card and nothing else: no header, no Log out, no editor.
      await atEveryWidth(page, 'graph-explorer-login', async () => {
        expect(await page.isVisible('#login-form')).toBe(true);
        expect(await page.isVisible('#explorer-view')).toBe(false);
        expect(await page.isVisible('#logout')).toBe(false);
        expect(await page.locator('body > :visible').evaluateAll((nodes) => nodes.map((n) => n.id))).toEqual([
          'login-view',
        ]);
      });
      await page.fill('#login-form input[name=email]', person.email);
      await page.fill('#login-form input[name=password]', PASSWORD);
      await page.click('#login-form button[type=submit]');
      await page.waitForSelector('#explorer-view:not([hidden]) .graphiql-container');
      expect(await page.textContent('#who')).toBe(person.email);

      await page.click('.graphiql-execute-button');
      const result = page.locator('.graphiql-response');
      await expect.poll(() => result.textContent(), { timeout: 20_000 }).toContain('Dev Eloper');
      expect(await result.textContent()).toContain('"unreadNotificationCount": 0');
      await atEveryWidth(page, 'graph-explorer', async () => expect(await page.isVisible('#logout')).toBe(true));

      // The schema's descriptions are there to read: the docs explorer shows the Query type's fields.
      await page.click('button[aria-label="Show Documentation Explorer"]');
      await expect
        .poll(() => page.locator('.graphiql-doc-explorer').textContent(), { timeout: 10_000 })
        .toContain('Query');
      expect(external).toEqual([]);
      expect(problems).toEqual([]);
      await page.close();
    },
  );

  it('leaves every other /graphql request to the API', async () => {
    const json = await t.http.rest('GET', '/graphql?query=%7B__typename%7D', {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(json.status).toBe(200);
    expect(json.body.data).toEqual({ __typename: 'Query' });
    const asked = await fetch(`${t.url}/graphql`, { headers: { accept: 'application/json' } });
    expect(asked.headers.get('content-type')).toContain('application/json');
    const posted = await t.http.gql('{ __typename }');
    expect(posted.body.data).toEqual({ __typename: 'Query' });
  });
});

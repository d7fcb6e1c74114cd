import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's chromium, which .ci/run installs when it is missing; a machine without it skips the page tests. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the page tests leave their screenshots for a person to look at: outside the repository, replaced on every run. */
export const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'lp-page-screenshots');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Chromium's background connections would be refused by the closed network, many at a time.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A desktop window and a phone. */
export const WIDTHS = [1280, 390] as const;

/**
 * The page at each width: `check` asserts what a reader must see there, then a full-page screenshot
 * is taken and the page must not scroll sideways (nothing wider than the window).
 */
export async function atEveryWidth(
  page: Page,
  name: string,
  check: (width: number) => Promise<void> = async () => {},
): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await check(width);
    const file = join(SCREENSHOTS, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');
    const { scrollWidth, innerWidth } = await page.evaluate<{ scrollWidth: number; innerWidth: number }>(
      // A string: the tests compile without the DOM's types.
      '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })',
    );
    expect(scrollWidth, `${name} at ${width} px is ${scrollWidth} px wide`).toBeLessThanOrEqual(innerWidth);
  }
}

/**
 * What axe-core finds wrong on the page as it stands (every rule of its default run: WCAG A and AA
 * and its best practices), one line per rule with the elements it found; `exclude` leaves out parts
 * that are not ours (selectors). Evaluated through the DevTools protocol, which the pages' CSP (no
 * inline script) does not stop.
 */
export async function accessibilityViolations(page: Page, exclude: string[] = []): Promise<string[]> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate<{ id: string; help: string; targets: string[] }[], string[]>(
    (excluded) =>
      (
        globalThis as unknown as {
          axe: {
            run: (
              context: unknown,
            ) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }>;
          };
        }
      ).axe
        .run({ exclude: excluded.map((selector) => [selector]) })
        .then((r) =>
          r.violations.map((v) => ({ id: v.id, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) })),
        ),
    exclude,
  );
  return violations.map((v) => `${v.id} (${v.help}): ${v.targets.join(', ')}`);
}

/**
 * A reload, or a discarded tab restored (a full load of the same entry), shows the reader the
 * element they last saw at the top of the screen (issue 32): the front page lays out its lower
 * blocks only near the screen, so the browser's own restoration (a distance from the top) would
 * show another part of it.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import { blockThirdParties, untilHydrated } from '../support/browser.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });

/** Where the page's n-th h2 is, from the viewport's top. */
const headingTop = (page: Page, index: number) =>
  page.evaluate((i) => document.querySelectorAll('main h2')[i]!.getBoundingClientRect().top, index);

/** Scrolls as a finger would until the n-th h2 is at the top of the screen. */
async function scrollHeadingToTop(page: Page, index: number): Promise<void> {
  for (let step = 0; step < 60 && (await headingTop(page, index)) > 300; step++) await page.mouse.wheel(0, 300);
  // Blocks laid out on the way change sizes above it: adjust until it stays at the top.
  for (let step = 0; step < 10 && Math.abs(await headingTop(page, index)) > 1; step++) {
    await page.evaluate(
      (i) => window.scrollBy(0, document.querySelectorAll('main h2')[i]!.getBoundingClientRect().top),
      index,
    );
    await page.waitForTimeout(200);
  }
}

describe('a reload at mid-page', () => {
  it.each([
    [375, true],
    [1280, false],
  ] as const)(
    'at %i px wide, the heading that was at the top of the front page is there again',
    async (width, mobile) => {
      const context = await env.browser.newContext({
        viewport: { width, height: 740 },
        isMobile: mobile,
        hasTouch: mobile,
      });
      try {
        const page = await context.newPage();
        await blockThirdParties(page, env.app.url);
        await page.goto(`${env.app.url}/`, { waitUntil: 'load' });
        await untilHydrated(page, 'footer a[href="/terms"]');
        const index = Math.floor((await page.locator('main h2').count()) / 2);
        await scrollHeadingToTop(page, index);
        expect(Math.abs(await headingTop(page, index))).toBeLessThanOrEqual(1);

        await page.reload({ waitUntil: 'load' });
        await untilHydrated(page, 'footer a[href="/terms"]');
        // Once the router's chunk is there (it puts the view back), and the page has settled.
        await page.waitForLoadState('networkidle');
        await expect.poll(() => headingTop(page, index).then(Math.abs)).toBeLessThanOrEqual(20);
        await page.waitForTimeout(500);
        expect(Math.abs(await headingTop(page, index))).toBeLessThanOrEqual(20);
      } finally {
        await context.close();
      }
    },
  );
});

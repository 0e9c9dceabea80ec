/**
 * What links fetch ahead of a tap, by connection (issue 28, src/shared/ui/connection.ts): on a fast
 * one, the pages of the links in view, at an idle moment once the reader has done something (a page
 * nobody touches fetches nothing ahead); on a slow one (3g and below) only on an
 * intent (hover, touchstart, focus); for a reader saving data nothing at all, not even the router,
 * and a tap still changes the page in place. The connection is the browser's Network Information,
 * given by the test.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import { reactRouterScripts } from '../support/build-modules.ts';
import { blockThirdParties, untilHydrated, untilPageSettled } from '../support/browser.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });
const manifest = JSON.parse(readFileSync('dist/manifest.json', 'utf8')) as { pages: Record<string, string[]> };
const HOME_FILES = new Set(manifest.pages.Home);
/** Other pages' chunks: what a prefetch from the front page fetches. */
const otherPagesFiles = new Set(
  Object.values(manifest.pages).flatMap((files) => files.filter((f) => !HOME_FILES.has(f))),
);

interface Connection {
  saveData: boolean;
  effectiveType: string;
}

/** Several idle moments, then a settled page: an idle prefetch of a link in view would have started. */
async function untilIdle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => requestIdleCallback(() => resolve()));
  });
  await untilPageSettled(page);
}

async function open(connection?: Connection) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await blockThirdParties(page, env.app.url);
  if (connection)
    await page.addInitScript((hints) => {
      Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => hints });
    }, connection);
  const fetched: string[] = [];
  page.on('request', (req) => {
    const { pathname } = new URL(req.url());
    if (pathname.startsWith('/assets/')) fetched.push(pathname);
  });
  await page.goto(`${env.app.url}/`, { waitUntil: 'load' });
  await untilHydrated(page, 'footer a[href="/about"]');
  const prefetched = () => fetched.filter((f) => otherPagesFiles.has(f));
  const routerFetched = () => fetched.some((f) => reactRouterScripts().includes(f));
  return { context, page, prefetched, routerFetched };
}

describe('prefetch by connection', () => {
  it('fast: the pages of the links in view, at an idle moment once the reader has done something', async () => {
    const { context, page, prefetched } = await open();
    try {
      // A page load nobody touches fetches nothing ahead (a crawler, a lab run).
      await untilIdle(page);
      expect(prefetched()).toEqual([]);
      await page.mouse.move(5, 5);
      await expect.poll(() => prefetched().length).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
  });

  it('slow (3g): none for the links in view; a hovered link’s page', async () => {
    const { context, page, prefetched, routerFetched } = await open({ saveData: false, effectiveType: '3g' });
    try {
      await expect.poll(routerFetched).toBe(true);
      // The reader is here (the pointer moves, not onto a link): a fast connection would prefetch now.
      await page.mouse.move(5, 5);
      await untilIdle(page);
      expect(prefetched()).toEqual([]);
      await page.locator('footer a[href="/about"]').hover();
      await expect.poll(prefetched).toEqual(expect.arrayContaining([manifest.pages.About![0]]));
    } finally {
      await context.close();
    }
  });

  it('saving data: nothing before a tap, not on hover either; the tap changes the page in place', async () => {
    const { context, page, prefetched, routerFetched } = await open({ saveData: true, effectiveType: '4g' });
    try {
      await page.evaluate(() => {
        (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
      });
      await page.mouse.move(5, 5);
      await untilIdle(page);
      await page.locator('footer a[href="/about"]').hover();
      await untilIdle(page);
      expect(prefetched()).toEqual([]);
      expect(routerFetched()).toBe(false);
      await page.locator('footer a[href="/about"]').click();
      await expect.poll(() => page.locator('main h1').textContent()).toBe('About Us');
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    } finally {
      await context.close();
    }
  });
});

/**
 * Every page stays eligible for the browser's back/forward cache (issue 21): open a route, leave it
 * for another page by a full page load, come back with the back button: the page is restored from
 * the cache (the same JavaScript world, `pageshow` persisted), and Chromium reports no reason for
 * not restoring it (the DevTools protocol's Page.backForwardCacheNotUsed). The site's service worker
 * controls the pages (this browser allows it, unlike the harness's).
 */
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/shared/pages.ts';
import { type AppProcess, startApp } from '../support/app-process.ts';
import { blockThirdParties, untilHydrated } from '../support/browser.ts';
import { CHROMIUM_BASE_FLAGS, CHROMIUM_PATH } from '../support/chromium.ts';

// Playwright turns the cache off by default; a reader's browser has it on.
const env = {} as { app: AppProcess; browser: Browser };
beforeAll(async () => {
  [env.app, env.browser] = await Promise.all([
    startApp({ LOG_LEVEL: 'warn' }),
    chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_BASE_FLAGS,
      ignoreDefaultArgs: ['--disable-back-forward-cache'],
    }),
  ]);
});
afterAll(async () => {
  await env.browser?.close();
  await env.app?.stop();
});
const ROUTES = pages.filter((p) => p.id !== 'notFound').map((p) => p.path);

describe('back/forward cache', () => {
  it.each(ROUTES)('%s is restored from it', async (route) => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await blockThirdParties(page, env.app.url);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Page.enable');
    const notUsed: string[] = [];
    cdp.on('Page.backForwardCacheNotUsed', (event) => {
      for (const r of event.notRestoredExplanations) notUsed.push(`${r.type}: ${r.reason}`);
      if (event.notRestoredExplanations.length === 0) notUsed.push('not restored, no reason given');
    });
    await page.goto(env.app.url + route, { waitUntil: 'load' });
    await untilHydrated(page, 'footer a[href="/terms"]');
    // A page still loading something (a frame, the router's chunk) is not cached: as a reader who read it.
    await page.waitForLoadState('networkidle');
    // With the service worker (decision 052) installed and in control, as on any visit after the first.
    await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
      timeout: 0,
    });
    await page.evaluate(() => {
      (window as unknown as { __stayed: boolean }).__stayed = true;
    });
    const elsewhere = route === '/privacy' ? '/terms' : '/privacy';
    await page.goto(env.app.url + elsewhere, { waitUntil: 'load' });
    // A page restored from the cache fires no load event.
    await page.goBack({ waitUntil: 'commit' });
    await expect.poll(() => new URL(page.url()).pathname).toBe(route);
    expect(notUsed).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __stayed?: boolean }).__stayed === true)).toBe(true);
    await context.close();
  });
});

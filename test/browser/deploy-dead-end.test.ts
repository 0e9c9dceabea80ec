/**
 * Never a dead end after a deploy (issue 32): the deploy kept none of the previous build's files
 * (every /assets/ URL of the open tab's build answers 404), the radio plays, and a link's page cannot
 * load, so the page region says so. "Try again" cannot succeed in the page: it offers to reload
 * the page (the radio restarts), in a dialog; keeping on listening leaves the radio playing in the
 * same document, reloading loads the page. Once the radio is paused, "Try again" is a full load.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import { axeFindings, describeFindings, seriousOrCritical } from '../support/axe.ts';
import { blockThirdParties, untilHydrated } from '../support/browser.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });

const audio = (page: Page) =>
  page.evaluate(() => {
    const a = document.querySelector('audio') as HTMLAudioElement | null;
    return { paused: a?.paused ?? true, currentTime: a?.currentTime ?? 0 };
  });

async function expectAdvancing(page: Page): Promise<void> {
  const before = await audio(page);
  expect(before.paused).toBe(false);
  await expect.poll(async () => (await audio(page)).currentTime).toBeGreaterThan(before.currentTime + 0.3);
}

const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

const heading = (page: Page) => page.locator('main h1').textContent();

describe('a deploy that kept no earlier files, under a tab playing the radio', () => {
  it('"Try again" offers to reload (the radio restarts); once paused, it reloads at once', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await blockThirdParties(page, env.app.url);
      await page.goto(`${env.app.url}/radio`, { waitUntil: 'load' });
      await untilHydrated(page, 'footer a[href="/terms"]');
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
      await expectAdvancing(page);

      // The deploy: the tab's build is gone from the server.
      const ownAssets = (url: URL) => url.origin === env.app.url && url.pathname.startsWith('/assets/');
      await context.route(ownAssets, (route) => route.fulfill({ status: 404, body: 'gone' }));
      await page.locator('footer a[href="/about"]').click();
      await expect.poll(() => heading(page), { timeout: 30_000 }).toBe('This page could not be loaded');
      const tryAgain = page.getByRole('link', { name: 'Try again' });
      const offer = page.getByRole('dialog', { name: 'Reload the page?' });

      await tryAgain.click();
      await expect.poll(() => offer.isVisible()).toBe(true);
      expect(await offer.textContent()).toContain('The radio will stop and restart.');
      // A modal dialog: the focus is in it, and it passes axe.
      expect(await offer.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
      expect(describeFindings(await axeFindings(page, { keep: seriousOrCritical }))).toEqual([]);
      await offer.getByRole('button', { name: 'Keep listening' }).click();
      await expect.poll(() => offer.isVisible()).toBe(false);
      expect(await sameDocument(page)).toBe(true);
      await expectAdvancing(page);

      await tryAgain.click();
      await expect.poll(() => offer.isVisible()).toBe(true);
      // The new build's page names the new build's files.
      await context.unroute(ownAssets);
      await offer.getByRole('button', { name: 'Reload the page' }).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe('/about');
      await expect.poll(() => heading(page)).toBe('About Us');
      expect(await sameDocument(page)).toBe(false);
      await untilHydrated(page, 'footer a[href="/terms"]');

      // Not playing: "Try again" is the full load.
      await page.goto(`${env.app.url}/radio`, { waitUntil: 'load' });
      await untilHydrated(page, 'footer a[href="/terms"]');
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
      await expectAdvancing(page);
      await context.route(ownAssets, (route) => route.fulfill({ status: 404, body: 'gone' }));
      await page.locator('footer a[href="/careers"]').click();
      await expect.poll(() => heading(page), { timeout: 30_000 }).toBe('This page could not be loaded');
      await page.getByRole('button', { name: 'Pause', exact: true }).first().click();
      // (The server-rendered page shows, whatever its scripts do.)
      await tryAgain.click();
      await expect.poll(() => heading(page)).toBe('Careers');
      expect(await sameDocument(page)).toBe(false);
    } finally {
      await context.close();
    }
  });
});

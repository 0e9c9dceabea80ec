/**
 * A failed load of the router's chunk (decision 043) is not remembered (issue 28): the next link
 * fetches it again and navigates in the page. And a router that cannot be fetched never costs the
 * reader the radio: the link leaves the page where it is, with a notice, and works in the page once
 * the chunk is reachable again.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import { reactRouterScripts } from '../support/build-modules.ts';
import { blockThirdParties, untilHydrated } from '../support/browser.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });

/** Fails the router's chunk while `failing()` says so; resolves `failed` at the first failure. */
async function failRouterChunk(page: Page, failing: () => boolean) {
  const routerUrls = new Set(reactRouterScripts());
  if (!routerUrls.size) throw new Error('no router chunk in the build');
  let attempts = 0;
  let firstFailure!: () => void;
  const failed = new Promise<void>((resolve) => (firstFailure = resolve));
  await page.route(
    (url) => routerUrls.has(url.pathname),
    async (route) => {
      attempts += 1;
      if (!failing()) return route.continue();
      await route.abort('failed');
      firstFailure();
    },
  );
  return { failed, attempts: () => attempts };
}

const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

const audio = (page: Page) =>
  page.evaluate(() => {
    const a = document.querySelector('audio') as (HTMLAudioElement & { __original?: boolean }) | null;
    return { original: a?.__original === true, paused: a?.paused ?? true, currentTime: a?.currentTime ?? 0 };
  });

async function open(path: string, failing: () => boolean) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await blockThirdParties(page, env.app.url);
  const router = await failRouterChunk(page, failing);
  await page.goto(`${env.app.url}${path}`, { waitUntil: 'load' });
  await untilHydrated(page, 'footer a[href="/terms"]');
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    (document.querySelector('audio') as HTMLAudioElement & { __original?: boolean }).__original = true;
  });
  // The app asks for the router after hydration, at an idle moment: that load fails.
  await router.failed;
  return { context, page, router };
}

describe('the router chunk failed to load', () => {
  it('once: the next link fetches it again and changes the page in place', async () => {
    let failures = 0;
    const { context, page, router } = await open('/', () => failures++ === 0);
    try {
      await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
      await expect.poll(() => page.locator('main h1').textContent()).toBe('Terms of Service');
      expect(new URL(page.url()).pathname).toBe('/terms');
      expect(await sameDocument(page)).toBe(true);
      expect(router.attempts()).toBeGreaterThanOrEqual(2);
    } finally {
      await context.close();
    }
  });

  it('while the radio plays: the link keeps the radio playing, says why, and works in place once the chunk is back', async () => {
    let reachable = false;
    const { context, page } = await open('/radio', () => !reachable);
    try {
      await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
      await expect.poll(async () => (await audio(page)).paused).toBe(false);
      const link = page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' });
      await link.click();
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'could not be opened' }).count()).toBe(1);
      expect(new URL(page.url()).pathname).toBe('/radio');
      expect(await sameDocument(page)).toBe(true);
      const before = await audio(page);
      expect(before).toMatchObject({ original: true, paused: false });
      await expect.poll(async () => (await audio(page)).currentTime).toBeGreaterThan(before.currentTime + 0.3);

      reachable = true;
      await link.click();
      await expect.poll(() => page.locator('main h1').textContent()).toBe('Terms of Service');
      expect(await sameDocument(page)).toBe(true);
      expect(await audio(page)).toMatchObject({ original: true, paused: false });
    } finally {
      await context.close();
    }
  });
});

/**
 * Never a blank page (issue 21): with the radio playing on /radio, a footer link to a page whose
 * code cannot be fetched (its chunk answers 404, as after a deploy that removed it; or the browser
 * is offline) shows the site's frame with a message and a working link, the audio keeps advancing
 * on the same element, and once the code is reachable the same link shows the page, in the same
 * document (no reload).
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import { blockThirdParties, untilHydrated } from '../support/browser.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });
const manifest = JSON.parse(readFileSync('dist/manifest.json', 'utf8')) as { pages: Record<string, string[]> };

const audio = (page: Page) =>
  page.evaluate(() => {
    const a = document.querySelector('audio') as (HTMLAudioElement & { __original?: boolean }) | null;
    return { original: a?.__original === true, paused: a?.paused ?? true, currentTime: a?.currentTime ?? 0 };
  });

async function expectAdvancing(page: Page): Promise<void> {
  const before = await audio(page);
  expect(before).toMatchObject({ original: true, paused: false });
  await expect.poll(async () => (await audio(page)).currentTime).toBeGreaterThan(before.currentTime + 0.3);
}

async function listening(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await blockThirdParties(page, env.app.url);
  await page.goto(`${env.app.url}/radio`, { waitUntil: 'load' });
  await untilHydrated(page, 'footer a[href="/terms"]');
  await page.evaluate(() => {
    (document.querySelector('audio') as HTMLAudioElement & { __original?: boolean }).__original = true;
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
  });
  await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(async () => (await audio(page)).paused).toBe(false);
  await expectAdvancing(page);
  return page;
}

/** The frame (header and footer) with the page region's message: not a blank page. */
async function expectFrameWithMessage(page: Page): Promise<void> {
  await expect
    .poll(() => page.locator('main h1').textContent(), { timeout: 30_000 })
    .toBe('This page could not be loaded');
  expect(await page.locator('header.site-header').isVisible()).toBe(true);
  expect(await page.locator('footer.site-footer').isVisible()).toBe(true);
  expect(await page.getByRole('link', { name: 'Try again' }).isVisible()).toBe(true);
}

const sameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

describe('a page whose code cannot be fetched, while the radio plays', () => {
  it('its chunk answers 404: the frame and a message, the radio plays on, the same link works once the chunk is back', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    const chunks = new Set(manifest.pages.About);
    let missing = true;
    await context.route(
      (url) => chunks.has(url.pathname),
      (route) => (missing ? route.fulfill({ status: 404, body: 'gone' }) : route.continue()),
    );
    const page = await listening(context);
    const link = page.locator('footer a[href="/about"]');
    await link.click();
    await expectFrameWithMessage(page);
    await expectAdvancing(page);
    missing = false;
    await link.click();
    await expect.poll(() => page.locator('main h1').textContent()).toBe('About Us');
    expect(await sameDocument(page)).toBe(true);
    await expectAdvancing(page);
    await context.close();
  });

  it('offline: the frame and a message, the radio plays on, the same link works once back online', async () => {
    // Short, so the footer is out of view and its links have not fetched their pages yet.
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 500 } });
    const page = await listening(context);
    // The radio's own stream is a connection already open; everything new fails.
    const chunks = new Set(manifest.pages.Careers);
    let offline = true;
    await context.route(
      (url) => chunks.has(url.pathname),
      (route) => (offline ? route.abort('internetdisconnected') : route.continue()),
    );
    await context.setOffline(true);
    const link = page.locator('footer a[href="/careers"]');
    await link.click();
    await expectFrameWithMessage(page);
    offline = false;
    await context.setOffline(false);
    await link.click();
    await expect.poll(() => page.locator('main h1').textContent()).toBe('Careers');
    expect(await sameDocument(page)).toBe(true);
    await context.close();
  });
});

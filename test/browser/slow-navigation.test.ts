/**
 * A reader on a slow connection (issue 28): a tap whose page's code is still on its way asks for
 * all of that page's files at once (no second round trip for the chunks its chunk imports), shows a
 * thin bar and a polite "Loading…" once it takes longer than a moment, with nothing on the page
 * moving, and the newest tap wins: a link tapped meanwhile is the page shown.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import { blockThirdParties, untilHydrated, untilPageSettled } from '../support/browser.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });
const manifest = JSON.parse(readFileSync('dist/manifest.json', 'utf8')) as { pages: Record<string, string[]> };

/** Holds every request for `files` until release(); `asked` lists those requested so far. */
async function holdFiles(page: Page, files: string[]) {
  const held = new Set(files);
  const asked = new Set<string>();
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => held.has(url.pathname),
    async (route) => {
      asked.add(new URL(route.request().url()).pathname);
      await released;
      await route.continue();
    },
  );
  return { asked: () => [...asked].sort(), release };
}

/** The Terms page's files that the page at `module` has not loaded with itself. */
const termsFilesBeyond = (module: string) => {
  const own = new Set(manifest.pages[module]);
  return manifest.pages.Terms!.filter((f) => !own.has(f)).sort();
};

async function open(path: string, module: string) {
  // Short, so the footer's links are out of view and have prefetched nothing.
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 500 } });
  const page = await context.newPage();
  await blockThirdParties(page, env.app.url);
  const terms = await holdFiles(page, termsFilesBeyond(module));
  await page.goto(`${env.app.url}${path}`, { waitUntil: 'load' });
  await untilHydrated(page, 'footer a[href="/terms"]');
  // The router is there: what the tap waits for is the page's code alone.
  await page.waitForFunction(() => (history.state as { idx?: number } | null)?.idx === 0);
  return { context, page, terms };
}

describe('a navigation whose code is on its way', () => {
  it('asks for all of the page’s files at once', async () => {
    const { context, page, terms } = await open('/', 'Home');
    try {
      expect(terms.asked()).toEqual([]);
      // The click alone: no hover, and no scroll that would bring the footer's links (and their
      // prefetch, which another page sharing a chunk with Terms would make) into view.
      await page.locator('footer a[href="/terms"]').dispatchEvent('click');
      // Every file the front page has not loaded is asked for while none has answered.
      const needed = termsFilesBeyond('Home');
      expect(needed.length).toBeGreaterThan(1);
      await expect.poll(() => terms.asked()).toEqual(needed);
      terms.release();
      await expect.poll(() => page.locator('main h1').textContent()).toBe('Terms of Service');
    } finally {
      terms.release();
      await context.close();
    }
  });

  it('shows a bar and a polite Loading, moves nothing, and the newest tap wins', async () => {
    const { context, page, terms } = await open('/about', 'About');
    try {
      const heading = page.locator('main h1');
      const link = page.locator('footer a[href="/terms"]');
      await link.scrollIntoViewIfNeeded();
      const box = await heading.boundingBox();
      await link.click();
      const bar = page.getByRole('progressbar', { name: 'Loading the page' });
      await bar.waitFor({ state: 'visible' });
      expect(await page.getByRole('status').filter({ hasText: 'Loading…' }).count()).toBe(1);
      expect(await bar.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
      expect(await heading.boundingBox()).toEqual(box);
      expect(new URL(page.url()).pathname).toBe('/about');

      // Another tap meanwhile: its page shows, and the first one's, once it arrives, does not.
      await page.locator('footer a[href="/careers"]').click();
      await expect.poll(() => heading.textContent()).toBe('Careers');
      expect(await bar.count()).toBe(0);
      terms.release();
      await page.waitForResponse((res) => res.url().endsWith(manifest.pages.Terms![0]!));
      await untilPageSettled(page);
      expect(await heading.textContent()).toBe('Careers');
      expect(new URL(page.url()).pathname).toBe('/careers');
    } finally {
      terms.release();
      await context.close();
    }
  });
});

/**
 * react-router arrives after hydration, beside the page tree (decision 043). In Chromium, with the
 * router's chunk held back by the test until it chooses: a link followed before the router has
 * loaded still navigates in the page (one document, the radio still on its one connection), and the
 * router taking over, then navigating, remounts nothing of the frame or the player.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import { reactRouterScripts } from '../support/build-modules.ts';
import {
  blockThirdParties,
  collectConsoleProblems,
  ownProblems,
  recordStreamRequests,
  untilHydrated,
} from '../support/browser.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });

interface HeldRouter {
  /** Resolves when the page has asked for the router's chunk (which is then held). */
  requested: Promise<void>;
  release(): void;
}

/** Holds every request for the router's chunk until release(). */
async function holdRouterChunk(page: Page): Promise<HeldRouter> {
  const [routerUrl] = reactRouterScripts();
  if (!routerUrl) throw new Error('no router chunk in the build');
  let requested!: () => void;
  let release!: () => void;
  const asked = new Promise<void>((resolve) => (requested = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname === routerUrl,
    async (route) => {
      requested();
      await released;
      await route.continue();
    },
  );
  return { requested: asked, release };
}

const pathname = (page: Page) => new URL(page.url()).pathname;

/** What a full page load would lose: the marker on window, and the one navigation entry. */
const sameDocument = (page: Page) =>
  page.evaluate(() => ({
    marker: (window as unknown as { __sameDocument?: boolean }).__sameDocument === true,
    navigations: performance.getEntriesByType('navigation').length,
  }));

const audioState = (page: Page) =>
  page.evaluate(() => {
    const all = document.querySelectorAll('audio');
    const audio = all[0] as (HTMLAudioElement & { __original?: boolean }) | undefined;
    return { count: all.length, original: audio?.__original === true, paused: audio?.paused ?? true };
  });

async function open(path: string) {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await blockThirdParties(page, env.app.url);
  const problems = collectConsoleProblems(page);
  const streamRequests = recordStreamRequests(page);
  const router = await holdRouterChunk(page);
  await page.goto(`${env.app.url}${path}`, { waitUntil: 'load' });
  await untilHydrated(page, 'footer a[href="/terms"]');
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    (document.querySelector('audio') as HTMLAudioElement & { __original?: boolean }).__original = true;
  });
  return { context, page, problems, streamRequests, router };
}

describe('react-router loads after hydration', () => {
  it('a link followed before the router has loaded navigates in the page once it arrives: one document, one stream', async () => {
    const { context, page, problems, streamRequests, router } = await open('/radio');
    try {
      await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
      await expect.poll(async () => (await audioState(page)).paused).toBe(false);
      // The app asks for the router after hydration; the test holds it back.
      await router.requested;

      await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
      // The click was taken (no page load) and waits for the router.
      expect(pathname(page)).toBe('/radio');
      router.release();

      await expect.poll(() => pathname(page)).toBe('/terms');
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Terms of Service' }).count()).toBe(1);
      await expect.poll(() => page.title()).toContain('Terms of Service');
      expect(await sameDocument(page)).toEqual({ marker: true, navigations: 1 });
      expect(await audioState(page)).toEqual({ count: 1, original: true, paused: false });
      expect(streamRequests).toHaveLength(1);
      expect(ownProblems(problems)).toEqual([]);
    } finally {
      router.release();
      await context.close();
    }
  });

  it('takes over without remounting anything on screen; a navigation then re-renders the page only', async () => {
    const { context, page, problems, router } = await open('/');
    try {
      await router.requested;
      // The elements on screen before the router, kept by reference.
      await page.evaluate(() => {
        (window as unknown as { __before: Record<string, Element | null> }).__before = {
          header: document.querySelector('header.site-header'),
          footer: document.querySelector('footer'),
          main: document.querySelector('main'),
          audio: document.querySelector('audio'),
        };
      });
      const stillTheSame = () =>
        page.evaluate(() => {
          const before = (window as unknown as { __before: Record<string, Element | null> }).__before;
          const now: Record<string, Element | null> = {
            header: document.querySelector('header.site-header'),
            footer: document.querySelector('footer'),
            main: document.querySelector('main'),
            audio: document.querySelector('audio'),
          };
          return Object.fromEntries(
            Object.entries(before).map(([name, node]) => [name, !!node && node.isConnected && node === now[name]]),
          );
        });
      const allSame = { header: true, footer: true, main: true, audio: true };
      // react-router's history has not started yet (it numbers the entry when it does).
      expect(await page.evaluate(() => (history.state as { idx?: number } | null)?.idx)).toBeUndefined();

      router.release();
      // The router rendered (its history numbered the entry) in the same task as its commit.
      await expect.poll(() => page.evaluate(() => (history.state as { idx?: number } | null)?.idx)).toBe(0);
      expect(await stillTheSame()).toEqual(allSame);

      await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
      await expect.poll(() => pathname(page)).toBe('/terms');
      await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Terms of Service' }).count()).toBe(1);
      expect(await stillTheSame()).toEqual(allSame);
      await page.goBack();
      await expect.poll(() => pathname(page)).toBe('/');
      await expect.poll(() => page.locator('#politics').count()).toBe(1);
      expect(await stillTheSame()).toEqual(allSame);
      expect(await sameDocument(page)).toEqual({ marker: true, navigations: 1 });
      expect(ownProblems(problems)).toEqual([]);
    } finally {
      router.release();
      await context.close();
    }
  });
});

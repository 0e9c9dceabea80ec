/**
 * The service worker (issue 21, decision 052), in Chromium against the built server, with workers
 * allowed (the harness blocks them by default): after one visit the front page and the pages read
 * are there offline, other pages get the offline page listing those; `/api/*` and range requests
 * never get an answer from the worker; the kill switch served in its place unregisters it; a new
 * build's worker takes over at the next page load and drops the files the new build no longer has.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import type { AppProcess } from '../support/app-process.ts';
import { defaultSite } from '../../src/shared/site.ts';
import { axeFindings, describeFindings, seriousOrCritical } from '../support/axe.ts';
import { blockThirdParties, untilHydrated } from '../support/browser.ts';
import { copyProject, type ProjectCopy, REBUILD_TEST_TIMEOUT_MS } from '../support/project-copy.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });

async function withWorker(origin: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await env.browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await blockThirdParties(page, origin);
  return { context, page };
}

/** Opens `path` and waits until the worker is active and controls the page. */
async function visitUntilControlled(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
    timeout: 0,
  });
}

const heading = (page: Page) => page.locator('main h1').textContent();

/** The paths in the worker's pages cache (kept at install or as visited). */
const keptPages = (page: Page) =>
  page.evaluate(async () =>
    (await (await caches.open('pages')).keys()).map((request) => new URL(request.url).pathname).sort(),
  );

describe('offline after one visit', () => {
  it('the front page and the pages read render from the worker; another page is the offline page listing them', async () => {
    const { context, page } = await withWorker(env.app.url);
    await visitUntilControlled(page, `${env.app.url}/about`);
    // Navigation preload on: the page's request starts while the worker boots.
    expect(
      await page.evaluate(async () => (await navigator.serviceWorker.ready).navigationPreload.getState()),
    ).toMatchObject({ enabled: true });
    // /about loaded before the worker; the install kept it and the front page. /privacy is read through it.
    await page.goto(`${env.app.url}/privacy`, { waitUntil: 'load' });
    await expect.poll(() => keptPages(page)).toEqual(['/', '/about', '/privacy']);

    await context.setOffline(true);
    for (const [path, h1] of [
      ['/', 'Today’s front page'],
      ['/about', 'About Us'],
      ['/privacy', 'Privacy Policy'],
    ] as const) {
      const response = await page.goto(env.app.url + path, { waitUntil: 'load' });
      expect(response?.fromServiceWorker(), path).toBe(true);
      expect(await heading(page), path).toBe(h1);
      // Its scripts come from the worker's precache: the page hydrates offline.
      await untilHydrated(page, 'footer a[href="/terms"]');
    }

    const response = await page.goto(`${env.app.url}/careers`, { waitUntil: 'load' });
    expect(response?.status()).toBe(503);
    expect(await page.locator('h1').textContent()).toBe('You are offline');
    const listed = await page.locator('main li a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(listed).toEqual(['/', '/about', '/privacy']);
    await context.close();
  });
});

/** A finger on the footer's link to `path`, once it is on screen. */
async function tapLink(page: Page, path: string): Promise<void> {
  const link = page.locator(`footer a[href="${path}"]`);
  await link.scrollIntoViewIfNeeded();
  await link.tap();
}

describe('pages read inside the site', () => {
  it('on a phone, a page reached by taps is there offline: reloaded, and in a restored (new) tab', async () => {
    const context = await env.browser.newContext({
      serviceWorkers: 'allow',
      viewport: { width: 375, height: 740 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const page = await context.newPage();
      await blockThirdParties(page, env.app.url);
      await visitUntilControlled(page, `${env.app.url}/`);
      await untilHydrated(page, 'footer a[href="/about"]');
      // Taps inside the site: no request for the page's HTML, so nothing for the worker to keep by itself.
      await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
      await tapLink(page, '/about');
      await expect.poll(() => heading(page)).toBe('About Us');
      await tapLink(page, '/books');
      await expect.poll(() => heading(page)).toBe('Books');
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
      await expect.poll(() => keptPages(page)).toEqual(['/', '/about', '/books']);
      const served = await (await fetch(`${env.app.url}/books`)).text();
      const kept = await page.evaluate(async () => (await (await caches.open('pages')).match('/books'))?.text());
      expect(kept).toBe(served);

      await context.setOffline(true);
      const reloaded = await page.reload({ waitUntil: 'load' });
      expect(reloaded?.fromServiceWorker()).toBe(true);
      expect(await heading(page)).toBe('Books');

      // A discarded tab comes back as a full load of its URL, in a new document.
      await page.close();
      const restored = await context.newPage();
      await blockThirdParties(restored, env.app.url);
      await restored.goto(`${env.app.url}/books`, { waitUntil: 'load' });
      expect(await heading(restored)).toBe('Books');

      // Another page: the offline page lists the kept ones by their headings, the front page first.
      await restored.goto(`${env.app.url}/careers`, { waitUntil: 'load' });
      expect(await restored.locator('h1').textContent()).toBe('You are offline');
      const listed = await restored
        .locator('main li a')
        .evaluateAll((links) => links.map((a) => [a.getAttribute('href'), a.textContent]));
      expect(listed).toEqual([
        ['/', 'Front page'],
        ['/about', 'About Us'],
        ['/books', 'Books'],
      ]);
    } finally {
      await context.close();
    }
  });
});

describe('the offline page', () => {
  /** A controlled page whose worker has kept the front page (its masthead comes from there). */
  async function controlled() {
    const { context, page } = await withWorker(env.app.url);
    await visitUntilControlled(page, `${env.app.url}/about`);
    await expect.poll(() => keptPages(page)).toContain('/');
    return { context, page };
  }

  it('carries the masthead and a Try again, passes axe in both themes, and loads the page once back online', async () => {
    const { context, page } = await controlled();
    try {
      await context.setOffline(true);
      const response = await page.goto(`${env.app.url}/careers?from=test`, { waitUntil: 'load' });
      expect(response?.status()).toBe(503);
      expect(await page.locator('h1').textContent()).toBe('You are offline');
      expect(await page.locator('header a.masthead').textContent()).toBe(defaultSite.masthead);
      expect(await page.getByRole('link', { name: 'Try again' }).getAttribute('href')).toBe('/careers?from=test');
      const backgrounds: string[] = [];
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        backgrounds.push(await page.evaluate(() => getComputedStyle(document.body).backgroundColor));
        expect(describeFindings(await axeFindings(page, { keep: seriousOrCritical })), colorScheme).toEqual([]);
      }
      expect(backgrounds).toEqual(['rgb(255, 255, 255)', 'rgb(18, 18, 18)']);

      // Back online: the page loads by itself.
      await context.setOffline(false);
      await expect.poll(() => heading(page)).toBe('Careers');
      expect(new URL(page.url()).pathname).toBe('/careers');
    } finally {
      await context.close();
    }
  });

  it('loads the page by itself when the network returns without the browser noticing', async () => {
    const { context, page } = await controlled();
    try {
      // The page never hears of the network's return: the 'online' event stops at the window's
      // capture listener, which runs before the page's own.
      await page.addInitScript(() =>
        window.addEventListener('online', (event) => event.stopImmediatePropagation(), { capture: true }),
      );
      await context.setOffline(true);
      await page.goto(`${env.app.url}/careers`, { waitUntil: 'load' });
      expect(await page.locator('h1').textContent()).toBe('You are offline');
      await context.setOffline(false);
      await expect.poll(() => heading(page), { timeout: 30_000 }).toBe('Careers');
    } finally {
      await context.close();
    }
  });
});

describe('what the worker never answers', () => {
  it('/api/* (the stream, now-playing) and range requests go to the network', async () => {
    const { context, page } = await withWorker(env.app.url);
    const byWorker: string[] = [];
    context.on('request', (request) => {
      if (request.serviceWorker()) byWorker.push(new URL(request.url()).pathname);
    });
    const answeredByWorker: string[] = [];
    page.on('response', (response) => {
      if (response.fromServiceWorker()) answeredByWorker.push(new URL(response.url()).pathname);
    });
    await visitUntilControlled(page, `${env.app.url}/radio`);
    await page.reload({ waitUntil: 'load' });
    await untilHydrated(page, 'footer a[href="/terms"]');
    await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
    await expect
      .poll(() => page.evaluate(() => document.querySelector('audio')?.currentTime ?? 0))
      .toBeGreaterThan(0.5);
    const manifest = JSON.parse(readFileSync('dist/manifest.json', 'utf8')) as { entry: { js: string } };
    const ranged = page.waitForResponse((response) => response.request().headers().range !== undefined);
    await page.evaluate(
      (url) => fetch(url, { headers: { Range: 'bytes=0-15' } }).then((r) => r.text()),
      manifest.entry.js,
    );
    await page.evaluate(() => fetch('/api/now-playing?port=8076').then((r) => r.text()));

    // The page's own scripts did come from the worker (it is active), but nothing under /api/ did.
    expect(answeredByWorker.some((path) => path.startsWith('/assets/'))).toBe(true);
    expect(answeredByWorker.filter((path) => path.startsWith('/api/'))).toEqual([]);
    expect(byWorker.filter((path) => path.startsWith('/api/'))).toEqual([]);
    // The precache holds that file: only the guard sends the range request to the network.
    expect((await ranged).fromServiceWorker()).toBe(false);
    await context.close();
  });

  it('the worker script is revalidated every time, and the CSP lets only our own origin start workers', async () => {
    const response = await fetch(`${env.app.url}/sw.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(/(^|;\s*)worker-src 'self'(;|$)/);
  });
});

describe('across deploys (the same origin, restarted)', () => {
  const started = {} as { project?: ProjectCopy; app?: AppProcess };
  beforeAll(() => {
    started.project = copyProject('service-worker-');
  });
  afterAll(async () => {
    await started.app?.stop();
    started.project?.remove();
  });
  const restart = async (env: Record<string, string> = {}) => {
    const port = started.app!.port;
    await started.app!.stop();
    started.app = await started.project!.serve(env, port);
  };

  it(
    "a new build's worker takes over at the next page load and drops the files that build no longer has",
    async () => {
      const project = started.project!;
      started.app = await project.serve();
      const { context, page } = await withWorker(started.app!.url);
      await visitUntilControlled(page, `${started.app!.url}/`);
      const precached = () =>
        page.evaluate(async () => {
          const names = (await caches.keys()).filter((name) => name.includes('precache'));
          const all = await Promise.all(names.map(async (name) => (await caches.open(name)).keys()));
          return all.flat().map((request) => new URL(request.url).pathname.replace('/assets/', ''));
        });
      const before = await precached();
      await project.rebuildWithChangedCode();
      const retired = project.retired();
      const next = JSON.parse(readFileSync(join(project.dist, 'manifest.json'), 'utf8')) as { entry: { js: string } };
      expect(before.some((name) => retired.has(name))).toBe(true);
      await restart();
      await page.reload({ waitUntil: 'load' });
      // The new worker is in control and its precache holds the new build's files only.
      await expect.poll(async () => (await precached()).includes(next.entry.js.replace('/assets/', ''))).toBe(true);
      await expect.poll(async () => (await precached()).filter((name) => retired.has(name))).toEqual([]);
      await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
        timeout: 0,
      });
      await page.reload({ waitUntil: 'load' });
      expect(await heading(page)).toBe('Today’s front page');
      await untilHydrated(page, 'footer a[href="/terms"]');
      await context.close();
    },
    REBUILD_TEST_TIMEOUT_MS,
  );
  it('the kill switch served in its place unregisters the worker and clears its caches', async () => {
    const { context, page } = await withWorker(started.app!.url);
    await visitUntilControlled(page, `${started.app!.url}/`);
    expect(await page.evaluate(() => caches.keys())).not.toEqual([]);
    await restart({ SERVICE_WORKER: 'off' });
    // The next page load checks the worker's script and finds the kill switch.
    await page.reload({ waitUntil: 'load' });
    await expect
      .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length))
      .toBe(0);
    await expect.poll(() => page.evaluate(() => caches.keys())).toEqual([]);
    await context.close();
  });
});

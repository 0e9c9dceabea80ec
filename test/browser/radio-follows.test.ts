/**
 * The radio follows the reader (issue 9): press play on /radio, then read the
 * site by links, anchors, the browser's back button and every route; the one
 * audio element keeps playing on one connection, the player bar shows on
 * every page, and the lock screen (Media Session) follows. In Debian's
 * Chromium, against the embedded demo station and a real Icecast.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/shared/pages.ts';
import { defaultSite } from '../../src/shared/site.ts';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { axeFindings, describeFindings, seriousOrCritical } from '../support/axe.ts';
import {
  blockThirdParties,
  collectConsoleProblems,
  isFailedLoadOf,
  launchBrowser,
  ownProblems,
  recordStreamRequests,
  untilHydrated,
} from '../support/browser.ts';
import { startEzstream, startIcecast, type Ezstream, type Icecast } from '../support/icecast.ts';

interface Listening {
  page: Page;
  problems: string[];
  streamRequests: string[];
}

const UNAVAILABLE = 'Stream temporarily unavailable.';

const card = (page: Page) => page.getByRole('region', { name: 'Live Radio' });
const bar = (page: Page) => page.getByRole('region', { name: 'Radio player' });

const audio = (page: Page) =>
  page.evaluate(() => {
    const all = document.querySelectorAll('audio');
    const a = all[0] as (HTMLAudioElement & { __original?: boolean }) | undefined;
    return {
      count: all.length,
      original: a?.__original === true,
      paused: a?.paused ?? true,
      currentTime: a?.currentTime ?? 0,
    };
  });

const mediaSession = (page: Page) =>
  page.evaluate(() => ({
    title: navigator.mediaSession.metadata?.title ?? '',
    artist: navigator.mediaSession.metadata?.artist ?? '',
    artwork: navigator.mediaSession.metadata?.artwork.map((a) => a.sizes) ?? [],
    playbackState: navigator.mediaSession.playbackState,
  }));

/** Layout shifts since the observer started, recent input or not: the bar must move nothing at all. */
const startShiftObserver = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { value: number })[]) w.__shift += e.value;
    }).observe({ type: 'layout-shift' });
  });

/**
 * Where we are and what plays: the same audio element (marked before play) still playing and advancing, the bar
 * visible with a Pause button, the bar not holding the focus, and the path we expect.
 */
async function expectStillPlaying(page: Page, path: string, { focusOutsideBar = true } = {}): Promise<void> {
  await expect.poll(() => new URL(page.url()).pathname).toBe(path);
  await expect.poll(() => bar(page).getByRole('button', { name: 'Pause', exact: true }).isVisible()).toBe(true);
  const before = await audio(page);
  expect(before).toMatchObject({ count: 1, original: true, paused: false });
  await expect
    .poll(async () => (await audio(page)).currentTime, { timeout: 30_000, interval: 200 })
    .toBeGreaterThan(before.currentTime + 0.3);
  if (focusOutsideBar) expect(await page.evaluate(() => !!document.activeElement?.closest('.player-bar'))).toBe(false);
}

/** A client-side navigation to a page no link leads to (what react-router does for a link: pushState). */
async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(history.state, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  }, path);
}

async function startListening(browser: Browser, contexts: BrowserContext[], app: AppProcess): Promise<Listening> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const problems = collectConsoleProblems(page);
  await blockThirdParties(page, app.url);
  const streamRequests = recordStreamRequests(page);
  const hydrated = page.waitForResponse((res) => res.url().includes('/api/now-playing'), { timeout: 30_000 });
  await page.goto(`${app.url}/radio`, { waitUntil: 'load' });
  await hydrated;

  // Before the first play: no bar, nothing requested.
  expect(await bar(page).count()).toBe(0);
  expect(streamRequests).toEqual([]);
  await page.evaluate(() => {
    (document.querySelector('audio') as HTMLAudioElement & { __original?: boolean }).__original = true;
  });
  await startShiftObserver(page);
  await card(page).getByRole('button', { name: 'Play', exact: true }).click();
  await expectStillPlaying(page, '/radio');
  // The bar appeared and moved nothing.
  expect(await page.evaluate(() => (window as unknown as { __shift: number }).__shift)).toBe(0);
  return { page, problems, streamRequests };
}

function followsTheReader(env: () => { app: AppProcess; browser: Browser; contexts: BrowserContext[] }): void {
  it('keeps playing on one connection across links, anchors, back and every route; the bar and the lock screen control it', async () => {
    const { app, browser, contexts } = env();
    const { page, problems, streamRequests } = await startListening(browser, contexts, app);

    // Media Session: the station's title (or "Live Radio"), the masthead, the manifest's icons; playing.
    await expect.poll(async () => (await mediaSession(page)).playbackState).toBe('playing');
    const session = await mediaSession(page);
    expect(session.title).not.toBe('');
    expect(session.artist).toBe(defaultSite.masthead);
    expect(session.artwork).toEqual(['192x192', '512x512', 'any']);

    // A footer link, a header section anchor, then back, and back again.
    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await expectStillPlaying(page, '/privacy');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link').first().click();
    await expect.poll(() => new URL(page.url()).hash).not.toBe('');
    await expectStillPlaying(page, new URL(page.url()).pathname);
    await page.goBack();
    await page.goBack();
    await expectStillPlaying(page, '/radio');
    // The card shows the same player: Pause, live.
    expect(await card(page).getByRole('button', { name: 'Pause', exact: true }).count()).toBe(1);

    // Every route, the not-found page too; then its Return to Home link, and Back to Home on /books.
    for (const entry of pages) {
      const path = entry.path === '*' ? '/no-such-page' : entry.path;
      await navigateInApp(page, path);
      await expectStillPlaying(page, path);
    }
    await expect.poll(() => page.getByRole('heading', { name: 'Oops! Page not found' }).count()).toBe(1);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expectStillPlaying(page, '/');
    await navigateInApp(page, '/books');
    await page.getByRole('link', { name: 'Back to Home' }).click();
    await expectStillPlaying(page, '/');

    // One connection all along: nothing re-requested the stream.
    expect(streamRequests).toHaveLength(1);

    // The bar's Pause (by keyboard) pauses the one player; the lock screen follows; its Play resumes.
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await audio(page)).paused).toBe(true);
    await expect.poll(async () => (await mediaSession(page)).playbackState).toBe('paused');
    expect(await bar(page).getByRole('button', { name: 'Play', exact: true }).isVisible()).toBe(true);
    await bar(page).getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(async () => (await audio(page)).paused).toBe(false);
    await expect.poll(async () => (await mediaSession(page)).playbackState).toBe('playing');
    // Back on /radio by the bar's link, the card shows the same state.
    await bar(page).getByRole('link', { name: 'Radio page' }).click();
    await expectStillPlaying(page, '/radio', { focusOutsideBar: false }); // the visitor put it on the link
    expect(await card(page).getByRole('button', { name: 'Pause', exact: true }).count()).toBe(1);
    await card(page).getByRole('button', { name: 'Pause', exact: true }).click();
    expect(await bar(page).getByRole('button', { name: 'Play', exact: true }).count()).toBe(1);
    // No hydration warning, no error: only the third-party loads this closed network blocks.
    expect(problems.filter((p) => !p.includes('net::ERR_BLOCKED_BY_CLIENT'))).toEqual([]);
  }, 120_000);
}

let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
});

describe('the radio follows the reader: embedded demo station', () => {
  let app: AppProcess;
  beforeAll(async () => {
    app = await startApp({ LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await app?.stop();
  });

  followsTheReader(() => ({ app, browser, contexts }));

  it('the bar is accessible (axe) in both themes, at a phone and a desktop width', async () => {
    for (const width of [375, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      contexts.push(context);
      const page = await context.newPage();
      await blockThirdParties(page, app.url);
      await page.goto(`${app.url}/radio`, { waitUntil: 'load' });
      // The app loads after the first paint: a click before hydration would reach plain HTML.
      await untilHydrated(page, '.radio-card button');
      await card(page).getByRole('button', { name: 'Play', exact: true }).click();
      await expect.poll(() => bar(page).count()).toBe(1);
      await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
      await expect.poll(() => bar(page).getByRole('button', { name: 'Pause', exact: true }).count()).toBe(1);
      for (const theme of ['light', 'dark'] as const) {
        if (theme === 'dark') await page.getByTestId('theme-toggle').click();
        await expect.poll(() => page.locator('html').getAttribute('class')).toBe(theme === 'dark' ? 'dark' : null);
        // Nothing serious on the page, and nothing at all in the bar.
        const bad = await axeFindings(page, {
          keep: (f) => seriousOrCritical(f) || f.targets.some((t) => t.includes('player-bar')),
        });
        expect(describeFindings(bad), `${theme} @${width}`).toEqual([]);
      }
      // Its content can be scrolled clear of the bar: the page's end sits above the bar's top.
      const clear = await page.evaluate(() => {
        window.scrollTo(0, document.documentElement.scrollHeight);
        const footer = document.querySelector('footer')!.getBoundingClientRect();
        const barTop = document.querySelector('.player-bar')!.getBoundingClientRect().top;
        return footer.bottom <= barTop + 0.5;
      });
      expect(clear).toBe(true);
      await page.getByRole('region', { name: 'Radio player' }).getByRole('button', { name: 'Pause' }).click();
      await context.close();
    }
  }, 90_000);
});

describe('the radio follows the reader: real Icecast', () => {
  let ice: Icecast;
  let source: Ezstream;
  let app: AppProcess;
  beforeAll(async () => {
    ice = await startIcecast();
    source = await startEzstream(ice);
    app = await startApp({
      LOG_LEVEL: 'warn',
      STREAM_UPSTREAM_HOST: '127.0.0.1',
      STREAM_PORT_MAP: `8076:${ice.port}`,
      STREAM_STATUS_CACHE_MS: '1000',
    });
  }, 60_000);
  afterAll(async () => {
    await app?.stop();
    await source?.stop();
    await ice?.stop();
  });

  followsTheReader(() => ({ app, browser, contexts }));

  it('one listener at Icecast all along the reading', async () => {
    const { page } = await startListening(browser, contexts, app);
    expect(await ice.waitForListeners(1)).toBe(1);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expectStillPlaying(page, '/terms');
    await navigateInApp(page, '/about');
    await expectStillPlaying(page, '/about');
    expect(await ice.waitForListeners(1)).toBe(1);
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
    expect(await ice.waitForListeners(0)).toBe(0);
  }, 60_000);

  it('the bar shows the error in red and announces it away from /radio; its next successful play clears it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    await blockThirdParties(page, app.url);
    await page.route('**/api/stream*', (route) => route.abort('connectionrefused'));
    const hydrated = page.waitForResponse((res) => res.url().includes('/api/now-playing'));
    await page.goto(`${app.url}/radio`, { waitUntil: 'load' });
    await hydrated;
    await card(page).getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => card(page).getByRole('alert').innerText(), { timeout: 30_000 }).toBe(UNAVAILABLE);
    // On /radio the card announces it; the bar shows the same words without a second announcement.
    await expect.poll(() => bar(page).locator('.player-bar__error').innerText()).toBe(UNAVAILABLE);
    expect(await bar(page).getByRole('alert').count()).toBe(0);

    await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
    await expect.poll(() => bar(page).getByRole('alert').innerText()).toBe(UNAVAILABLE);
    const color = await bar(page)
      .getByRole('alert')
      .evaluate((el) => getComputedStyle(el).color);
    expect(color).toBe('rgb(179, 38, 30)'); // --color-error, light theme

    await page.unroute('**/api/stream*');
    await bar(page).getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => bar(page).getByRole('alert').innerText(), { timeout: 30_000 }).toBe('');
    await expect.poll(async () => (await audio(page)).currentTime, { timeout: 30_000 }).toBeGreaterThan(0.5);
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
  }, 60_000);

  // Last: it stops and restarts the station's source.
  it('reconnects after the station restarts while the visitor reads another page', async () => {
    const { page, problems, streamRequests } = await startListening(browser, contexts, app);
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expectStillPlaying(page, '/terms');

    await source.stop();
    // The stream ends; the player asks again by itself (a second request), then the station is back.
    await expect.poll(() => streamRequests.length, { timeout: 30_000, interval: 100 }).toBeGreaterThan(1);
    source = await startEzstream(ice);
    expect(await ice.waitForListeners(1, '/stream', 40_000)).toBe(1);
    await expectStillPlaying(page, '/terms');
    expect(await bar(page).locator('.player-bar__error').innerText()).toBe('');
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
    // The stream's load failing while the station was away is the scenario, and third parties are
    // blocked on purpose; any other failed load is not.
    expect(ownProblems(problems).filter((p) => !isFailedLoadOf(p, '/api/stream?port=8076'))).toEqual([]);
  }, 90_000);
});

/**
 * Live radio like a broadcaster's (issue 20), in Debian's Chromium against a real Icecast fed by
 * ezstream: the title pushed to the bar, the /radio card and the lock screen while the reader
 * navigates; one push connection per tab, and only while the radio is shown or playing; a lost
 * network said and healed by itself.
 */
import type { BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useStationAppAndBrowser } from '../support/app-and-browser.ts';
import { changeTitleOnce } from '../support/icecast.ts';
import { RETRY_DUE_ATTRIBUTE } from '../../src/shared/ui/radio/constants.ts';
import { blockThirdParties, recordStreamRequests, untilHydrated } from '../support/browser.ts';
import { until } from '../support/wait.ts';

const EVENTS_PATH = '/api/now-playing/events';
/** How long a changed title may take to be heard: a bound for a loaded machine, not a figure (those are printed). */
const HEARD_LIMIT_MS = 60_000;

const env = useStationAppAndBrowser((icePort) => ({
  LOG_LEVEL: 'warn',
  STREAM_UPSTREAM_HOST: '127.0.0.1',
  STREAM_PORT_MAP: `8076:${icePort}`,
}));

const contexts: BrowserContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
});

const card = (page: Page) => page.getByRole('region', { name: 'Live Radio' });
const bar = (page: Page) => page.getByRole('region', { name: 'Radio player' });
const currentTime = (page: Page) => page.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime);
const lockScreenTitle = (page: Page) => page.evaluate(() => navigator.mediaSession.metadata?.title ?? '');

/** The push connections a page has open: requests to the events path not yet finished or failed. */
function recordPushConnections(page: Page): { opened: () => number; open: () => number } {
  const open = new Set<Request>();
  let opened = 0;
  page.on('request', (req) => {
    if (new URL(req.url()).pathname !== EVENTS_PATH) return;
    opened += 1;
    open.add(req);
  });
  page.on('requestfinished', (req) => open.delete(req));
  page.on('requestfailed', (req) => open.delete(req));
  return { opened: () => opened, open: () => open.size };
}

async function newPage(): Promise<{ page: Page; context: BrowserContext }> {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await blockThirdParties(page, env.app.url);
  return { page, context };
}

/** A client-side navigation (what a link does: pushState and popstate). */
async function navigateInApp(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    history.pushState(history.state, '', to);
    window.dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  }, path);
}

describe('titles pushed live', () => {
  it('a title changed at the station reaches the bar, /radio and the lock screen while the reader navigates; one push connection, only while needed', async () => {
    const { page } = await newPage();
    const push = recordPushConnections(page);
    // A page other than /radio: no push before the first play.
    await page.goto(`${env.app.url}/about`, { waitUntil: 'load' });
    await untilHydrated(page, 'footer a[href="/terms"]');
    expect(push.opened()).toBe(0);

    await navigateInApp(page, '/radio');
    await until('the push to open on /radio', () => push.open() === 1);
    await card(page).getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(() => currentTime(page)).toBeGreaterThan(0.3);
    await navigateInApp(page, '/terms');
    await expect.poll(() => bar(page).getByRole('button', { name: 'Pause', exact: true }).isVisible()).toBe(true);
    expect(push.open()).toBe(1);

    const first = `Evening News ${Date.now()}`;
    const barTitle = () => bar(page).locator('.player-bar__title').innerText();
    // The heard title waits for its song to reach the ear: audio that stalls on a loaded machine holds it back too.
    const barMs = await changeTitleOnce(env.ice, first, async () => (await barTitle()) === first, HEARD_LIMIT_MS);
    await expect.poll(() => lockScreenTitle(page), { interval: 50 }).toBe(first);

    await navigateInApp(page, '/radio');
    const second = `Late Jazz ${Date.now()}`;
    const cardTitle = () => page.locator('.now-playing__title').innerText();
    const cardMs = await changeTitleOnce(env.ice, second, async () => (await cardTitle()) === second, HEARD_LIMIT_MS);
    expect(await barTitle()).toBe(second);
    expect(await lockScreenTitle(page)).toBe(second);
    console.log(`title change seen: bar ${barMs.toFixed(0)} ms (on /terms), /radio card ${cardMs.toFixed(0)} ms`);
    // One push connection per tab all along, shared by the card, the bar and the lock screen.
    expect(push.opened()).toBe(1);
    expect(push.open()).toBe(1);

    // Paused, away from /radio: the push is closed.
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
    await navigateInApp(page, '/about');
    await until('the push to close', () => push.open() === 0);
    expect(push.open()).toBe(0);
  }, 180_000);
});

/** A tab on /radio playing the station, its /api/stream requests recorded. */
async function playingOnRadio(): Promise<{ page: Page; context: BrowserContext; streamRequests: string[] }> {
  const { page, context } = await newPage();
  const streamRequests = recordStreamRequests(page);
  // The push opens from the card's effect: the page has hydrated and Play works.
  const hydrated = page.waitForRequest((req) => new URL(req.url()).pathname === EVENTS_PATH);
  await page.goto(`${env.app.url}/radio`, { waitUntil: 'load' });
  await hydrated;
  await card(page).getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => currentTime(page)).toBeGreaterThan(0.5);
  return { page, context, streamRequests };
}

/** The network goes; the card says so at once. */
async function goOffline(page: Page, context: BrowserContext): Promise<void> {
  await context.setOffline(true);
  await expect.poll(() => card(page).getByRole('status').innerText(), { interval: 100 }).toBe('Reconnecting…');
}

/** When the player's next reconnect is due (epoch ms), or null when none is scheduled (radio-controller.ts). */
const retryDue = (page: Page) => page.locator('audio').getAttribute(RETRY_DUE_ATTRIBUTE);
const hasSource = (page: Page) => page.locator('audio').evaluate((a: HTMLAudioElement) => a.hasAttribute('src'));

describe('a lost signal', () => {
  it('offline for 10 s while playing: says so, then plays again by itself within seconds of the network, with one new request', async () => {
    const { page, context, streamRequests } = await playingOnRadio();
    await goOffline(page, context);
    await page.waitForTimeout(10_000); // the outage itself, as a reader would have it
    const before = streamRequests.length;
    const stalledAt = await currentTime(page);
    const backAt = performance.now();
    await context.setOffline(false);
    await expect.poll(() => currentTime(page), { interval: 50 }).toBeGreaterThan(stalledAt + 0.2);
    console.log(`audio advancing again ${(performance.now() - backAt).toFixed(0)} ms after the network came back`);
    await expect.poll(() => card(page).getByRole('status').innerText()).toBe('Playing live');
    expect(await card(page).getByRole('alert').innerText()).toBe('');
    expect(streamRequests.length - before).toBe(1);
    await card(page).getByRole('button', { name: 'Pause', exact: true }).click();
  }, 90_000);

  it('Stop beside "Reconnecting…" during the outage stops the retries', async () => {
    const { page, context, streamRequests } = await playingOnRadio();
    await goOffline(page, context);
    // The player has a reconnect scheduled: the thing the pause must cancel.
    await expect.poll(() => retryDue(page), { interval: 50 }).not.toBeNull();
    await card(page).getByRole('button', { name: 'Stop reconnecting', exact: true }).click();
    // Nothing scheduled any more, and the element has let go of the stream.
    await expect.poll(() => retryDue(page)).toBeNull();
    expect(await hasSource(page)).toBe(false);
    const afterPause = streamRequests.length;
    // The network comes back: the player hears 'online' before this listener (it registered first).
    await page.evaluate(() => {
      (window as unknown as { backOnline: boolean }).backOnline = false;
      window.addEventListener('online', () => Object.assign(window, { backOnline: true }), { once: true });
    });
    await context.setOffline(false);
    await until('the page to hear that the network is back', () =>
      page.evaluate(() => (window as unknown as { backOnline: boolean }).backOnline),
    );
    expect(await retryDue(page)).toBeNull();
    expect(await hasSource(page)).toBe(false);
    expect(streamRequests.length).toBe(afterPause);
    expect(await card(page).getByRole('button', { name: 'Play', exact: true }).count()).toBe(1);
  }, 60_000);
});

/**
 * Outages the browser does not announce (issue 32 items 2-3, issue 29 item 5), in Debian's Chromium
 * against the built server's demo station, every request of the page through a TCP proxy that
 * passes, resets or refuses connections (test/support/fault-proxy.ts; no `offline` event): the bar
 * says "Buffering…" as the audio stops and "Reconnecting…" once the player retries, the lock screen
 * never says "playing" over silence, retries wait at most about 10 s while the page is shown,
 * "Retry now" connects at once, and the audio comes back by itself. Times are printed, not asserted,
 * but for the one window the issue names ("Buffering…" within a second of the stall).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_DUE_ATTRIBUTE } from '../../src/shared/ui/radio/constants.ts';
import { VISIBLE_RETRY_MAX_MS } from '../../src/shared/ui/radio/radio-player-logic.ts';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import { axeFindings, describeFindings, seriousOrCritical } from '../support/axe.ts';
import { blockThirdParties } from '../support/browser.ts';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.ts';
import { sleep, until } from '../support/wait.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });
let proxy: FaultProxy;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  proxy = await startFaultProxy(env.app.port);
});
// A failed test leaves no outage behind for the next.
afterEach(() => proxy.setMode('pass'));
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await proxy?.stop();
});

const bar = (page: Page) => page.getByRole('region', { name: 'Radio player' });
/** The bar's first line: the station, or what the player is doing. */
const barStatusLine = (page: Page) => bar(page).locator('.player-bar__station').innerText();
const currentTime = (page: Page) => page.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime);
const lockScreen = (page: Page) => page.evaluate(() => navigator.mediaSession.playbackState);

interface Timeline {
  /** Each scheduled retry: when it was scheduled (epoch ms), when it is due, and whether the page was shown. */
  retries: { at: number; due: number; visible: boolean }[];
  /** Each change of the bar's status (data-status), with performance.now(). */
  statuses: { status: string | null; at: number }[];
  /** performance.now() when the audio's time last moved on. */
  lastAdvance: number;
}

/**
 * Records, inside the page, what the test reads afterwards: the retries the player schedules (the audio
 * element's data-retry-due), the bar's status changes, and when the audio last moved on (sampled every
 * 50 ms), so the times printed do not depend on how fast the test polls.
 */
async function recordTimeline(page: Page): Promise<void> {
  await page.addInitScript(
    ({ retryAttribute }) => {
      const timeline: Timeline = { retries: [], statuses: [], lastAdvance: 0 };
      Object.assign(window, { __timeline: timeline });
      document.addEventListener('DOMContentLoaded', () => {
        const audio = document.querySelector('audio')!;
        new MutationObserver(() => {
          const due = audio.getAttribute(retryAttribute);
          if (due === null) return;
          timeline.retries.push({ at: Date.now(), due: Number(due), visible: document.visibilityState === 'visible' });
        }).observe(audio, { attributes: true, attributeFilter: [retryAttribute] });
        new MutationObserver(() => {
          const status = document.querySelector('.player-bar')?.getAttribute('data-status') ?? null;
          if (status !== timeline.statuses.at(-1)?.status) timeline.statuses.push({ status, at: performance.now() });
        }).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: ['data-status'],
        });
        let last = -1;
        setInterval(() => {
          if (audio.currentTime === last) return;
          last = audio.currentTime;
          timeline.lastAdvance = performance.now();
        }, 50);
      });
    },
    { retryAttribute: RETRY_DUE_ATTRIBUTE },
  );
}

const timeline = (page: Page): Promise<Timeline> =>
  page.evaluate(() => (window as unknown as { __timeline: Timeline }).__timeline);

/** performance.now() when the bar first took `status` after `since`, or undefined. */
async function statusSeenAt(page: Page, status: string, since = 0): Promise<number | undefined> {
  return (await timeline(page)).statuses.find((s) => s.status === status && s.at >= since)?.at;
}

/** Dispatches 'stalled' on the audio element every 500 ms, as a stalling connection may keep saying; returns the stop. */
async function keepStalling(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(() => {
    const audio = document.querySelector('audio')!;
    const timer = setInterval(() => audio.dispatchEvent(new Event('stalled')), 500);
    Object.assign(window, { __stopStalling: () => clearInterval(timer) });
  });
  return () => page.evaluate(() => (window as unknown as { __stopStalling: () => void }).__stopStalling());
}

/** A page loaded through the proxy, playing from /radio, then reading /terms with the bar. */
async function listeningThroughProxy(): Promise<Page> {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await blockThirdParties(page, proxy.url);
  await recordTimeline(page);
  const hydrated = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/now-playing/events');
  await page.goto(`${proxy.url}/radio`, { waitUntil: 'load' });
  await hydrated;
  await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
  await expect.poll(() => currentTime(page)).toBeGreaterThan(0.5);
  // Away from /radio: the bar alone says what happens (and announces it).
  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
  await until('the /terms page', () => page.evaluate(() => location.pathname === '/terms'));
  await expect.poll(() => barStatusLine(page)).not.toBe('');
  expect(await bar(page).getAttribute('data-status')).toBe('playing');
  expect(await lockScreen(page)).toBe('playing');
  return page;
}

/** Waits for the audio to move on again; the ms it took from `from` (performance.now() in this process). */
async function untilAudioBack(page: Page, from: number): Promise<number> {
  const stalledAt = await currentTime(page);
  await expect.poll(() => currentTime(page), { interval: 50, timeout: 60_000 }).toBeGreaterThan(stalledAt + 0.2);
  return performance.now() - from;
}

describe('an outage without an offline event: the proxy resets, then refuses, every connection', () => {
  it('the bar says "Buffering…" as the audio stops and "Reconnecting…" once retrying; no wait longer than 10 s while shown; back soon after the proxy lets connections through', async () => {
    const page = await listeningThroughProxy();
    const outageAt = performance.now();
    await proxy.setMode('refuse');

    // The buffered audio runs out: "Buffering…" at once, and the lock screen says paused.
    await expect.poll(() => barStatusLine(page), { interval: 50 }).toBe('Buffering…');
    const { lastAdvance } = await timeline(page);
    const bufferingAt = (await statusSeenAt(page, 'buffering'))!;
    console.log(`"Buffering…" ${(bufferingAt - lastAdvance).toFixed(0)} ms after the audio stopped`);
    expect(bufferingAt - lastAdvance).toBeLessThan(1_000); // the window the issue names
    expect(await lockScreen(page)).toBe('paused');

    // A stalling connection may keep saying so ('stalled' again and again): the one stall timer still runs out.
    const stopStalling = await keepStalling(page);
    await expect.poll(() => barStatusLine(page), { interval: 100 }).toBe('Reconnecting…');
    await stopStalling();
    console.log(
      `"Reconnecting…" ${((await statusSeenAt(page, 'reconnecting'))! - bufferingAt).toFixed(0)} ms after "Buffering…"`,
    );
    // Still trying: no red error; the play button retries at once; Stop ends the retries; the lock screen: paused.
    expect(await bar(page).locator('.player-bar__error').innerText()).toBe('');
    expect(await bar(page).getByRole('button', { name: 'Retry now', exact: true }).count()).toBe(1);
    expect(await bar(page).getByRole('button', { name: 'Stop reconnecting', exact: true }).count()).toBe(1);
    // Announced politely once it has lasted a moment (a blip of buffering is shown, not read out). The player's
    // own announcement, not the rewind controls' (their fieldset has a status of its own).
    const announcement = bar(page).locator('[role="status"]:not(fieldset *)');
    await expect.poll(() => announcement.innerText()).toBe('Reconnecting…');
    expect(await lockScreen(page)).toBe('paused');
    expect(describeFindings(await axeFindings(page, { within: '.player-bar', keep: seriousOrCritical }))).toEqual([]);

    // Past the backoff's 15 s step: no wait while the page is shown is longer than 10 s.
    await until('six retries scheduled', async () => (await timeline(page)).retries.length >= 6, 90_000);
    const waits = (await timeline(page)).retries.map((r) => ({ ms: r.due - r.at, visible: r.visible }));
    console.log(`waits between retries: ${waits.map((w) => (w.ms / 1000).toFixed(1)).join(', ')} s`);
    expect(waits.every((w) => w.visible)).toBe(true);
    expect(Math.max(...waits.map((w) => w.ms))).toBeLessThanOrEqual(VISIBLE_RETRY_MAX_MS);

    const backAt = performance.now();
    await proxy.setMode('pass');
    const recovery = await untilAudioBack(page, backAt);
    console.log(
      `outage ${((backAt - outageAt) / 1000).toFixed(1)} s: audio back ${(recovery / 1000).toFixed(1)} s after the proxy let connections through`,
    );
    await expect.poll(() => bar(page).getAttribute('data-status')).toBe('playing');
    expect(await lockScreen(page)).toBe('playing');
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
  }, 180_000);

  it('"Retry now" connects at once, before the scheduled retry', async () => {
    const page = await listeningThroughProxy();
    await proxy.setMode('refuse');
    await expect.poll(() => bar(page).getAttribute('data-status'), { timeout: 60_000 }).toBe('reconnecting');
    // A wait long enough to tell "at once" from "when due": the third (about 4 s).
    await until(
      'a retry due in 2 s or more',
      async () => {
        const due = Number((await page.locator('audio').getAttribute(RETRY_DUE_ATTRIBUTE)) ?? 0);
        return due - Date.now() >= 2_000;
      },
      60_000,
    );
    await proxy.setMode('pass');
    const due = Number(await page.locator('audio').getAttribute(RETRY_DUE_ATTRIBUTE));
    const request = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/stream');
    const clickedAt = Date.now();
    // By keyboard, as any control of the bar.
    await bar(page).getByRole('button', { name: 'Retry now', exact: true }).focus();
    await page.keyboard.press('Enter');
    await request;
    const requestedAt = Date.now();
    console.log(
      `"Retry now": a new request ${requestedAt - clickedAt} ms after the click, ${due - requestedAt} ms before the retry was due`,
    );
    expect(requestedAt).toBeLessThan(due);
    await untilAudioBack(page, performance.now());
    expect(await bar(page).getAttribute('data-status')).toBe('playing');
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
  }, 120_000);

  it('a 75 s outage: prints how long after the proxy lets connections through the audio is back', async () => {
    const page = await listeningThroughProxy();
    await proxy.setMode('refuse');
    await sleep(75_000);
    const backAt = performance.now();
    await proxy.setMode('pass');
    const recovery = await untilAudioBack(page, backAt);
    const waits = (await timeline(page)).retries.map((r) => ((r.due - r.at) / 1000).toFixed(1));
    console.log(
      `75 s outage (no offline event): audio back ${(recovery / 1000).toFixed(1)} s after the proxy let connections through; waits ${waits.join(', ')} s`,
    );
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
  }, 200_000);
});

describe('a connection that goes silent (open, no byte passes, no reset)', () => {
  it('"Buffering…", then "Reconnecting…" after one stall timer however often the element says it stalled; back by itself', async () => {
    const page = await listeningThroughProxy();
    await proxy.setMode('hold');
    await expect.poll(() => barStatusLine(page), { interval: 50 }).toBe('Buffering…');
    const bufferingAt = (await statusSeenAt(page, 'buffering'))!;
    expect(await lockScreen(page)).toBe('paused');
    // The browser does not end such a connection by itself: only the player's stall timer does. Were every
    // 'stalled' to restart it, it would never run out.
    const stopStalling = await keepStalling(page);
    await expect.poll(() => barStatusLine(page), { interval: 100 }).toBe('Reconnecting…');
    await stopStalling();
    console.log(
      `silent connection: "Reconnecting…" ${((await statusSeenAt(page, 'reconnecting'))! - bufferingAt).toFixed(0)} ms after "Buffering…"`,
    );
    const backAt = performance.now();
    await proxy.setMode('pass');
    const recovery = await untilAudioBack(page, backAt);
    console.log(`silent connection: audio back ${(recovery / 1000).toFixed(1)} s after bytes passed again`);
    await expect.poll(() => bar(page).getAttribute('data-status')).toBe('playing');
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
  }, 120_000);
});

describe('a connection reset for 10 s while playing live', () => {
  it('the bar says "Reconnecting…" as soon as the player retries, and the audio resumes by itself', async () => {
    const page = await listeningThroughProxy();
    const resetAt = performance.now();
    await proxy.setMode('reset');
    await until('the first retry', async () => (await timeline(page)).retries.length > 0, 60_000);
    await expect.poll(() => barStatusLine(page), { interval: 50 }).toBe('Reconnecting…');
    const { retries, statuses } = await timeline(page);
    const reconnectingAt = statuses.find((s) => s.status === 'reconnecting')!.at;
    // The first retry scheduled, in this page's clock: its epoch time less the page's time origin.
    const firstRetryAt = retries[0]!.at - (await page.evaluate(() => performance.timeOrigin));
    console.log(
      `"Reconnecting…" ${(reconnectingAt - firstRetryAt).toFixed(0)} ms after the player began retrying` +
        ` (${((performance.now() - resetAt) / 1000).toFixed(1)} s after the reset, the buffered audio and the stall timer included)`,
    );
    expect(reconnectingAt - firstRetryAt).toBeLessThan(1_000);
    await sleep(Math.max(0, 10_000 - (performance.now() - resetAt)));
    const backAt = performance.now();
    await proxy.setMode('pass');
    const recovery = await untilAudioBack(page, backAt);
    console.log(`reset for 10 s: audio back ${(recovery / 1000).toFixed(1)} s after connections were let through`);
    await expect.poll(() => bar(page).getAttribute('data-status')).toBe('playing');
    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
  }, 120_000);
});

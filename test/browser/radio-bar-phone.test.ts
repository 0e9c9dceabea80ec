/**
 * The player on a phone and between visits (issue 29 item 5), in Debian's Chromium against the built
 * server's demo station: the whole title is shown (it scrolls to its end, or can be scrolled with
 * reduced motion), never cut off; the volume set on one visit is there on the next, with the
 * server's HTML and the first client render equal and nothing shifting.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import {
  blockThirdParties,
  collectConsoleProblems,
  layoutShiftSoFar,
  ownProblems,
  recordLayoutShifts,
  untilPageSettled,
} from '../support/browser.ts';
import { until } from '../support/wait.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });
const contexts: BrowserContext[] = [];
afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
});

const card = (page: Page) => page.getByRole('region', { name: 'Live Radio' });
const bar = (page: Page) => page.getByRole('region', { name: 'Radio player' });
const slider = (page: Page) => card(page).getByRole('slider', { name: 'Volume' });

async function newContext(options: Parameters<typeof env.browser.newContext>[0]): Promise<BrowserContext> {
  const context = await env.browser.newContext(options);
  contexts.push(context);
  return context;
}

/** /radio, hydrated: the card's effect has created the player and opened the push. */
async function openRadio(page: Page): Promise<void> {
  await blockThirdParties(page, env.app.url);
  const hydrated = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/now-playing/events');
  await page.goto(`${env.app.url}/radio`, { waitUntil: 'load' });
  await hydrated;
}

const LONG_TITLE =
  'The Chicago Symphony Orchestra and Chorus — Mahler: Symphony No. 2 in C minor "Resurrection", V. Im Tempo des Scherzos (live from Orchestra Hall)';

/**
 * Where the title's text sits in its line: its left and right edges against the line's, in px,
 * with the scrolling animation (if any) held at `progress` (0 = start, 1 = end) of one pass.
 */
function titlePlacement(line: Locator, progress: number) {
  return line.evaluate((el, at) => {
    const text = el.querySelector('.scrolling-title__text') as HTMLElement;
    const animations = el.getAnimations({ subtree: true });
    for (const animation of animations) {
      animation.pause();
      const duration = Number(animation.effect?.getComputedTiming().duration ?? 0);
      animation.currentTime = duration * at;
    }
    const outer = el.getBoundingClientRect();
    const inner = text.getBoundingClientRect();
    return {
      animated: animations.length > 0,
      overflows: inner.width > outer.width + 1,
      left: inner.left - outer.left,
      right: inner.right - outer.right,
      text: text.textContent,
    };
  }, progress);
}

describe('the whole title on a phone', () => {
  it('a title wider than the bar scrolls to its end and back, in the bar and on the card; with reduced motion it can be scrolled', async () => {
    const context = await newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const problems = collectConsoleProblems(page);
    await page.route('**/api/now-playing/events*', (route) =>
      route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' },
        body: `retry: 600000\ndata: ${JSON.stringify({ title: LONG_TITLE, listeners: 2 })}\n\n`,
      }),
    );
    await openRadio(page);
    await card(page).getByRole('button', { name: 'Play', exact: true }).click();
    const barTitle = bar(page).locator('.player-bar__title');
    await expect.poll(() => barTitle.innerText()).toBe(LONG_TITLE);

    for (const line of [barTitle, page.locator('.now-playing__title')]) {
      const start = await titlePlacement(line, 0);
      expect(start).toMatchObject({ animated: true, overflows: true, text: LONG_TITLE });
      expect(start.left).toBeCloseTo(0, 0); // the title's beginning shows first
      const end = await titlePlacement(line, 0.9); // late in a pass, where the end is held
      expect(end.right).toBeLessThanOrEqual(1); // ... and its end, later: nothing is cut off for good
      expect(end.left).toBeLessThan(0);
    }

    // Less motion: the title stands still and the line scrolls under a finger or the keyboard.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const still = await titlePlacement(barTitle, 0);
    expect(still.animated).toBe(false);
    const scrolled = await barTitle.evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
      const text = el.querySelector('.scrolling-title__text')!.getBoundingClientRect();
      return { scrollable: el.scrollLeft > 0, right: text.right - el.getBoundingClientRect().right };
    });
    expect(scrolled.scrollable).toBe(true);
    expect(scrolled.right).toBeLessThanOrEqual(1);

    await bar(page).getByRole('button', { name: 'Pause', exact: true }).click();
    expect(ownProblems(problems)).toEqual([]);
  });
});

describe('the volume between visits', () => {
  it('the volume set on one visit is there on the next: the same first render as the server, no layout shift', async () => {
    const context = await newContext({ viewport: { width: 1280, height: 900 } });
    const first = await context.newPage();
    await openRadio(first);
    expect(await slider(first).inputValue()).toBe('0.9');
    await slider(first).focus();
    await first.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await first.keyboard.press('PageUp');
    for (let i = 0; i < 5; i++) await first.keyboard.press('ArrowRight');
    expect(Number(await slider(first).inputValue())).toBeCloseTo(0.35, 5);
    await first.close();

    const next = await context.newPage();
    const problems = collectConsoleProblems(next);
    await recordLayoutShifts(next);
    // The server's HTML shows the default (it cannot know the visitor's choice) ...
    const html = await (await next.request.get(`${env.app.url}/radio`)).text();
    expect(html).toMatch(/<input[^>]*aria-label="Volume"[^>]*value="0.9"/);
    await openRadio(next);
    // ... and once the player exists, the remembered volume.
    await expect.poll(async () => Number(await slider(next).inputValue())).toBeCloseTo(0.35, 5);
    await card(next).getByRole('button', { name: 'Play', exact: true }).click();
    await until('the audio to play', () =>
      next.locator('audio').evaluate((a: HTMLAudioElement) => a.currentTime > 0.3),
    );
    expect(await next.locator('audio').evaluate((a: HTMLAudioElement) => a.volume)).toBeCloseTo(0.35, 5);
    await card(next).getByRole('button', { name: 'Pause', exact: true }).click();
    await untilPageSettled(next);
    expect(await layoutShiftSoFar(next)).toBe(0);
    // A hydration mismatch is reported on the console.
    expect(ownProblems(problems)).toEqual([]);
  });
});

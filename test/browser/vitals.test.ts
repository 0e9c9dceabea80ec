/**
 * The page's field Web Vitals beacon in Chromium (src/client/vitals.ts): one beacon per page view,
 * sent as the view ends (an in-site navigation, or the page hidden as the reader leaves it), for the
 * document's load, an in-site navigation (NAV) and a back/forward cache restore, each with only the
 * route's id, the navigation type and the values; the LCP sent is the one the browser's own
 * PerformanceObserver reports. With VITALS_SAMPLE_RATE=0 nothing is sent. The beacons reach the
 * real server, which records them (its metrics listener).
 */
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VitalsBeacon } from '../../src/shared/vitals.ts';
import { type AppProcess, freePort, startApp } from '../support/app-process.ts';
import { blockThirdParties, untilHydrated } from '../support/browser.ts';
import { CHROMIUM_BASE_FLAGS, requireChromium } from '../support/chromium.ts';

let browser: Browser;
beforeAll(async () => {
  // Playwright turns the back/forward cache off by default; a reader's browser has it on.
  browser = await chromium.launch({
    executablePath: requireChromium(),
    args: CHROMIUM_BASE_FLAGS,
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
  });
});
afterAll(() => browser?.close());

/** A context whose beacons to /api/vitals are collected (parsed bodies), in the order sent. */
async function openPage(app: AppProcess): Promise<{ context: BrowserContext; page: Page; beacons: unknown[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const beacons: unknown[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/vitals') beacons.push(JSON.parse(request.postData() ?? 'null'));
  });
  const page = await context.newPage();
  await blockThirdParties(page, app.url);
  return { context, page, beacons };
}

/** Loads `path` and waits until the vitals chunk (fetched with the router, after idle) has run. */
async function load(page: Page, url: string): Promise<void> {
  const chunk = page.waitForResponse((res) => /\/assets\/vitals-[\w-]+\.js$/.test(res.url()));
  await page.goto(url, { waitUntil: 'load' });
  await untilHydrated(page, 'footer a[href="/terms"]');
  await chunk;
  await page.waitForLoadState('networkidle');
}

/** The browser's own largest contentful paint of the document, in ms. */
const observedLcp = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({
          type: 'largest-contentful-paint',
          buffered: true,
        });
      }),
  );

/**
 * What the server recorded, as the non-zero counts: `route metric` for each histogram's count by
 * route, `navigation` for the reports by navigation type. A beacon sent as its page unloads is not
 * seen by Playwright's request events, so beacons are counted where they arrive.
 */
async function recorded(metricsUrl: string): Promise<Record<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^web_vitals_(\w+?)(?:_seconds)?_count\{route="(\w+)"\} (\d+)$/gm))
    if (m[3] !== '0') counts[`${m[2]} ${m[1]}`] = Number(m[3]);
  for (const m of text.matchAll(/^web_vitals_reports_total\{navigation="([\w-]+)"\} (\d+)$/gm))
    if (m[2] !== '0') counts[m[1]!] = Number(m[2]);
  return counts;
}

describe('with VITALS_SAMPLE_RATE=1', () => {
  let app: AppProcess;
  let metricsUrl: string;
  beforeAll(async () => {
    const metricsPort = await freePort();
    app = await startApp({ LOG_LEVEL: 'warn', METRICS_PORT: String(metricsPort) });
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  });
  afterAll(() => app?.stop());

  it('sends one beacon per page view: the load, an in-site navigation and a back/forward restore', async () => {
    const { context, page, beacons } = await openPage(app);
    await load(page, `${app.url}/`);
    const lcp = await observedLcp(page);
    expect(beacons, 'nothing before the view ends').toEqual([]);

    // An in-site navigation ends the first view: its beacon carries these fields only.
    await page.click('footer a[href="/about"]');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/about');
    await expect.poll(() => beacons.length).toBe(1);
    const first = beacons[0] as VitalsBeacon;
    expect(Object.keys(first).sort()).toEqual(['metrics', 'navigation', 'route']);
    expect(first).toMatchObject({ route: 'home', navigation: 'navigate' });
    // The tap's own interaction (INP) is in it when the browser reported one (a fast tap may not count).
    expect(
      Object.keys(first.metrics)
        .filter((name) => name !== 'INP')
        .sort(),
    ).toEqual(['CLS', 'FCP', 'LCP', 'TTFB']);
    console.log(`first view's beacon: ${JSON.stringify(first)}`);
    // The LCP the browser's own PerformanceObserver reports.
    expect(first.metrics.LCP).toBeCloseTo(lcp, 3);
    const home = {
      navigate: 1,
      'home lcp': 1,
      'home cls': 1,
      'home fcp': 1,
      'home ttfb': 1,
      ...('INP' in first.metrics && { 'home inp': 1 }),
    };
    await expect.poll(() => recorded(metricsUrl)).toEqual(home);

    // Leaving the document (pagehide, the page hidden) ends the in-site view: its NAV only.
    await page.goto(`${app.url}/privacy`, { waitUntil: 'load' });
    const about = { ...home, 'soft-navigation': 1, 'about navigation': 1 };
    await expect.poll(() => recorded(metricsUrl)).toEqual(about);

    // Back: the document restored from the back/forward cache (at /about) is a page view of its
    // own; leaving /privacy sent that one's.
    await untilHydrated(page, 'footer a[href="/terms"]');
    await page.waitForLoadState('networkidle');
    await page.goBack({ waitUntil: 'commit' });
    await expect.poll(() => new URL(page.url()).pathname).toBe('/about');
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(1);
    const privacy = { ...about, navigate: 2, 'privacy lcp': 1, 'privacy cls': 1, 'privacy fcp': 1, 'privacy ttfb': 1 };
    await expect.poll(() => recorded(metricsUrl)).toEqual(privacy);
    // web-vitals reports a restore's values after its next two frames.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve)))),
    );
    await page.goto(`${app.url}/terms`, { waitUntil: 'load' });
    await expect.poll(async () => (await recorded(metricsUrl))['back-forward-cache']).toBe(1);
    const restored = await recorded(metricsUrl);
    expect(restored['about fcp']).toBe(1);
    expect(restored['about lcp']).toBe(1);
    // Nothing else moved: one beacon per view.
    expect(restored.navigate).toBe(2);
    expect(restored['soft-navigation']).toBe(1);
    await context.close();
  });
});

describe('with VITALS_SAMPLE_RATE=0', () => {
  let app: AppProcess;
  let metricsUrl: string;
  beforeAll(async () => {
    const metricsPort = await freePort();
    app = await startApp({ LOG_LEVEL: 'warn', VITALS_SAMPLE_RATE: '0', METRICS_PORT: String(metricsPort) });
    metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  });
  afterAll(() => app?.stop());

  it('sends nothing', async () => {
    const { context, page, beacons } = await openPage(app);
    await load(page, `${app.url}/`);
    await page.click('footer a[href="/about"]');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/about');
    await page.goto(`${app.url}/privacy`, { waitUntil: 'load' });
    await untilHydrated(page, 'footer a[href="/terms"]');
    await context.close();
    expect(beacons).toEqual([]);
    expect(await recorded(metricsUrl)).toEqual({});
  });
});

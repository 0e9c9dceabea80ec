import { chromium, type Browser, type Page, type ConsoleMessage } from 'playwright-core';
import { CHROMIUM_BASE_FLAGS, CHROMIUM_PATH, requireChromium } from './chromium.ts';

export { CHROMIUM_PATH };

/**
 * Debian's Chromium, headless, with the flags this closed-network machine needs. Its contexts and
 * pages block service workers unless a test asks for them (`serviceWorkers: 'allow'`): with the
 * site's worker in the way, `page.route` would no longer see the requests it answers (a chunk made
 * to fail, say), and each test would depend on what an earlier one cached.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: requireChromium(),
    args: [...CHROMIUM_BASE_FLAGS, '--autoplay-policy=no-user-gesture-required'],
  });
  return withoutServiceWorkers(browser);
}

/** `browser`, whose newContext and newPage default to `serviceWorkers: 'block'`. */
export function withoutServiceWorkers(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = (options = {}) => newContext({ serviceWorkers: 'block', ...options });
  browser.newPage = (options = {}) => newPage({ serviceWorkers: 'block', ...options });
  return browser;
}

/** What Playwright logs when a page registers a service worker in a context that blocks them (the harness's default). */
const WORKER_BLOCKED = 'Service Worker registration blocked by Playwright';

/**
 * Collects console errors and warnings (hydration mismatches are reported there) for a page, but
 * Playwright's note that it blocked the service worker's registration. A failed
 * load's message ("Failed to load resource: …") does not name the resource: its URL is added.
 */
export function collectConsoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() !== 'error' && msg.type() !== 'warning') return;
    // The harness's own doing (launchBrowser), not the page's.
    if (msg.text() === WORKER_BLOCKED) return;
    const at = msg.text().startsWith('Failed to load resource') ? ` (${msg.location().url})` : '';
    problems.push(`${msg.type()}: ${msg.text()}${at}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  return problems;
}

/**
 * The problems a test must not see: all but the third-party loads the tests block on purpose
 * (Chromium reports each as a console error) and any messages containing `alsoExpected`.
 */
export function ownProblems(problems: string[], ...alsoExpected: string[]): string[] {
  return problems.filter((p) => !p.includes('net::ERR_BLOCKED_BY_CLIENT') && !alsoExpected.some((e) => p.includes(e)));
}

/**
 * Whether a console problem is Chromium's report that a load of `url` (a full URL, or a path on the
 * page's own origin, query included when it matters) failed: the tests that make a load fail on purpose
 * drop exactly those, so a failed chunk or image of our own still shows.
 */
export function isFailedLoadOf(problem: string, url: string | ((url: string) => boolean)): boolean {
  const at = /^error: Failed to load resource: .* \((.*)\)$/.exec(problem)?.[1];
  if (!at) return false;
  if (typeof url === 'function') return url(at);
  const { pathname, search } = new URL(at);
  return at === url || pathname + search === url;
}

/**
 * The problems a test must not see on the not-found page at `path`: Chromium reports the document's
 * own 404 as a failed load of that one URL; a 404 of any other file of ours still shows.
 */
export const notFoundPageProblems = (problems: string[], path: string): string[] =>
  ownProblems(problems).filter((p) => !isFailedLoadOf(p, path));

let settleMarkers = 0;

/**
 * A positive signal that what the page has set in motion has shown itself, for a check that something
 * did not happen: two animation frames (layout, IntersectionObserver callbacks, and React's commits
 * scheduled before them; pass `frames: false` under a paused fake clock, which holds frames back), then a
 * request of the page's own, which Playwright reports after every request the page started before it.
 */
export async function untilPageSettled(page: Page, { frames = true }: { frames?: boolean } = {}): Promise<void> {
  await page.evaluate(async (waitForFrames) => {
    const nextTask = () =>
      new Promise<void>((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
      });
    const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
    for (let i = 0; i < 2; i++) await (waitForFrames ? nextFrame() : nextTask());
  }, frames);
  const marker = `/healthz?settled=${++settleMarkers}`;
  const seen = page.waitForRequest((req) => req.url().endsWith(marker));
  await page.evaluate((url) => fetch(url).then(() => undefined), marker);
  await seen;
}

/** Sums the page's layout shifts (not those right after input) from its first paint, for layoutShiftSoFar. */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>) {
        if (!e.hadRecentInput) w.__shift += e.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift recordLayoutShifts has summed so far. */
export const layoutShiftSoFar = (page: Page): Promise<number> =>
  page.evaluate(() => (window as unknown as { __shift: number }).__shift);

/** Third-party hosts cannot be reached here: fail them at once so pages do not wait on them. */
export async function blockThirdParties(page: Page, origin: string): Promise<void> {
  await page.route(
    (url) => !url.href.startsWith(origin) && !url.protocol.startsWith('data') && !url.protocol.startsWith('blob'),
    (route) => route.abort('blockedbyclient'),
  );
}

/**
 * Waits until React has hydrated the element (its event handlers are attached): the app loads after
 * the first paint, so a click right after `load` may still reach plain HTML (a link then does a full
 * page load, which is correct but not what a test of client-side behaviour wants). No limit of its
 * own: the test's timeout (vitest.config.ts) stops a hang.
 */
export async function untilHydrated(page: Page, selector: string): Promise<void> {
  await page.waitForFunction(
    (sel) => {
      const element = document.querySelector(sel);
      return !!element && Object.keys(element).some((key) => key.startsWith('__reactProps$'));
    },
    selector,
    { timeout: 0 },
  );
}

/** The URLs of every request the page makes to the radio stream, as they happen. */
export function recordStreamRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/api/stream') urls.push(req.url());
  });
  return urls;
}

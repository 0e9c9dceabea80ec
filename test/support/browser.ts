import { chromium, type Browser, type Page, type ConsoleMessage } from 'playwright-core';
import { CHROMIUM_BASE_FLAGS, CHROMIUM_PATH, requireChromium } from './chromium.ts';

export { CHROMIUM_PATH };

/** Debian's Chromium, headless, with the flags this closed-network machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: requireChromium(),
    args: [...CHROMIUM_BASE_FLAGS, '--autoplay-policy=no-user-gesture-required'],
  });
}

/** Collects console errors and warnings (hydration mismatches are reported there) for a page. */
export function collectConsoleProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${msg.type()}: ${msg.text()}`);
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

/**
 * Online page loads with and without the service worker (decision 052), in one run: two browser
 * contexts on the same server, one with the worker installed and in control, one with workers
 * blocked, both having visited the site once (so both have the immutable files in the HTTP cache
 * or the precache). The loads alternate between them, route by route, so the machine's load falls
 * on both alike. Figures from the Navigation Timing entry: time to the page's first byte
 * (`responseStart`: with the worker, navigation preload answers it) and to the `load` event.
 */
import type { Browser, BrowserContext } from 'playwright-core';
import { blockThirdParties } from '../../test/support/browser.ts';
import { interleave, median, table } from './harness.ts';

export interface WorkerLoadFigures {
  route: string;
  without: { firstByte: number; load: number };
  with: { firstByte: number; load: number };
}

async function loadTimes(context: BrowserContext, url: string): Promise<{ firstByte: number; load: number }> {
  const page = await context.newPage();
  try {
    await blockThirdParties(page, new URL(url).origin);
    await page.goto(url, { waitUntil: 'load' });
    return await page.evaluate(() => {
      const entry = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      return { firstByte: entry.responseStart, load: entry.loadEventEnd || performance.now() };
    });
  } finally {
    await page.close();
  }
}

async function contextWithWorker(browser: Browser, origin: string): Promise<BrowserContext> {
  const context = await browser.newContext({ serviceWorkers: 'allow' });
  const page = await context.newPage();
  await blockThirdParties(page, origin);
  await page.goto(`${origin}/`, { waitUntil: 'load' });
  await page.waitForFunction(() => navigator.serviceWorker.controller?.state === 'activated', undefined, {
    timeout: 60_000,
  });
  await page.close();
  return context;
}

/** `loads` loads of each route in each context, alternating; the medians. */
export async function workerPageLoads(
  browser: Browser,
  origin: string,
  routes: readonly string[],
  loads: number,
): Promise<WorkerLoadFigures[]> {
  const withWorker = await contextWithWorker(browser, origin);
  const without = await browser.newContext({ serviceWorkers: 'block' });
  try {
    await loadTimes(without, `${origin}/`);
    const contexts = [
      { name: 'without', context: without },
      { name: 'with', context: withWorker },
    ];
    const figures: WorkerLoadFigures[] = [];
    for (const route of routes) {
      const runs = await interleave(loads, contexts, ({ context }) => loadTimes(context, origin + route));
      const medians = (name: string) => ({
        firstByte: median(runs.get(name)!.map((r) => r.firstByte)),
        load: median(runs.get(name)!.map((r) => r.load)),
      });
      figures.push({ route, without: medians('without'), with: medians('with') });
    }
    return figures;
  } finally {
    await withWorker.close();
    await without.close();
  }
}

/** The figures as a table, with the ratio with/without. */
export function workerLoadsTable(figures: WorkerLoadFigures[], loads: number): string {
  const ms = (n: number) => n.toFixed(1);
  const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(2) : '–');
  const header = ['route', 'TTFB no SW', 'TTFB SW', 'ratio', 'load no SW', 'load SW', 'ratio'];
  const rows = figures.map((f) => [
    f.route,
    ms(f.without.firstByte),
    ms(f.with.firstByte),
    ratio(f.with.firstByte, f.without.firstByte),
    ms(f.without.load),
    ms(f.with.load),
    ratio(f.with.load, f.without.load),
  ]);
  return `Online page loads, median of ${loads} per route and context, alternating (ms; ratio = with worker / without)\n${table(header, rows)}`;
}

/**
 * Field Web Vitals as the bench's own readers send them: page views on a 375 px phone with a 4×
 * slower CPU, each a load, a tap on a footer link (an in-site navigation: INP and NAV), and leaving
 * (the beacons go). The app records them in its histograms (src/server/vitals.ts); the p75 per
 * route is read from its metrics listener the way Prometheus's histogram_quantile reads it (linear
 * within the bucket), so it is as coarse as the buckets.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { blockThirdParties } from '../../test/support/browser.ts';
import { VITAL_HISTOGRAMS } from '../../src/server/vitals.ts';
import type { VitalName } from '../../src/shared/vitals.ts';

/** Beacons the app has recorded so far (all navigation types). */
async function reports(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return [...text.matchAll(/^web_vitals_reports_total\{[^}]*\} (\S+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

/** A 375 px touch phone with a 4× slower CPU, third parties blocked: the bench's reader. */
export async function slowPhonePage(
  browser: Browser,
  origin: string,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await blockThirdParties(page, origin);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  return { context, page };
}

/**
 * `views` page views of each route; the beacons reach the app at `origin`, whose metrics listener
 * is `metricsUrl`. Each view's browser closes once its beacons have arrived (a closed context
 * drops a beacon still on its way), or after 5 s.
 */
export async function fieldPageViews(
  browser: Browser,
  origin: string,
  metricsUrl: string,
  routes: string[],
  views: number,
): Promise<void> {
  for (const route of routes) {
    for (let i = 0; i < views; i++) {
      const before = await reports(metricsUrl);
      let expected = 1;
      const { context, page } = await slowPhonePage(browser, origin);
      try {
        const chunk = page.waitForResponse((res) => /\/assets\/vitals-[\w-]+\.js$/.test(res.url()));
        await page.goto(origin + route, { waitUntil: 'networkidle' });
        await chunk;
        const [to, name] = route === '/terms' ? ['/privacy', 'Privacy Policy'] : ['/terms', 'Terms of Service'];
        const link = page.locator('footer').getByRole('link', { name });
        // A page without the site's chrome (the not-found page) has no footer: its load only.
        if ((await link.count()) > 0) {
          await link.scrollIntoViewIfNeeded();
          const box = (await link.boundingBox())!;
          await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
          await page.waitForURL(`**${to}`);
          await page.waitForLoadState('networkidle');
          expected = 2;
        }
        await page.goto('about:blank');
        const deadline = performance.now() + 5_000;
        while ((await reports(metricsUrl)) < before + expected && performance.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 50));
      } finally {
        await context.close();
      }
    }
  }
}

/** The p75 of a cumulative histogram (bound, count), as histogram_quantile computes it. */
function p75(buckets: Array<[number, number]>): number {
  const total = buckets.at(-1)?.[1] ?? 0;
  if (total === 0) return Number.NaN;
  const rank = 0.75 * total;
  let lower = 0;
  let below = 0;
  for (const [bound, count] of buckets) {
    if (count >= rank) {
      if (!Number.isFinite(bound)) return lower;
      return lower + ((bound - lower) * (rank - below)) / (count - below);
    }
    lower = bound;
    below = count;
  }
  return Number.NaN;
}

export type FieldFigures = Map<string, Partial<Record<VitalName | 'views', number>>>;
/** Each metric's cumulative buckets by route, as the app's metrics listener serves them. */
export type FieldHistograms = Map<VitalName, Map<string, Array<[number, number]>>>;

export async function fieldHistograms(metricsUrl: string): Promise<FieldHistograms> {
  const text = await (await fetch(metricsUrl)).text();
  const histograms: FieldHistograms = new Map();
  for (const [metric, { name }] of Object.entries(VITAL_HISTOGRAMS) as Array<[VitalName, { name: string }]>) {
    const byRoute = new Map<string, Array<[number, number]>>();
    const line = new RegExp(`^${name}_bucket\\{le="([^"]+)",route="(\\w+)"\\} (\\S+)$`, 'gm');
    for (const m of text.matchAll(line)) {
      const bound = m[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m[1]);
      byRoute.set(m[2]!, [...(byRoute.get(m[2]!) ?? []), [bound, Number(m[3])]]);
    }
    histograms.set(metric, byRoute);
  }
  return histograms;
}

/**
 * Per route id: each metric's p75 (seconds; CLS a score) and the page views counted (LCP's count),
 * of the beacons recorded between `before` and `after`.
 */
export function fieldP75(after: FieldHistograms, before: FieldHistograms): FieldFigures {
  const figures: FieldFigures = new Map();
  for (const [metric, byRoute] of after) {
    for (const [route, buckets] of byRoute) {
      const earlier = before.get(metric)?.get(route) ?? [];
      const added = buckets.map(([bound, count], i): [number, number] => [bound, count - (earlier[i]?.[1] ?? 0)]);
      const entry = figures.get(route) ?? {};
      entry[metric] = p75(added);
      if (metric === 'LCP') entry.views = added.at(-1)?.[1] ?? 0;
      figures.set(route, entry);
    }
  }
  return figures;
}

/**
 * Where the client stands on a phone (issue 12): `npm run bench:client` builds, starts the app and prints,
 * per route, Lighthouse's mobile medians (simulated throttling: performance, TBT, FCP, LCP, CLS,
 * accessibility, best practices, SEO; devtools throttling: FCP and LCP), the first-load JS (gzip), and
 * the tap-to-paint of an in-site navigation on a 375 px phone with a 4× slower CPU (the footer's Terms
 * of Service link on /). Figures, with one goal marked (issue 28): performance, as the median of
 * the runs per route, at least LIGHTHOUSE_TARGETS.performance (95) on this machine. It is judged
 * here, not in the test gate: timings vary with the machine's load. One audit of / after Chromium
 * starts is thrown away (a cold Chromium costs points of its own).
 *
 *   node scripts/bench-client.ts [--runs 3] [--taps 5] [--routes /,/radio | --routes none] [--details]
 *
 * --details adds, per route, the long tasks and the LCP breakdown of the median (simulated) run.
 * Then online page loads with and without the service worker, side by side with their ratio
 * (scripts/perf/worker-page-loads.ts; `--worker-loads 9` per route and context, 0 to skip).
 * Then field Web Vitals: page views on the same phone send their beacons to the app, and each route's
 * p75 (from the app's histograms) is printed beside Lighthouse's lab LCP and CLS (scripts/perf/
 * field-vitals.ts; `--field-views 5` per route, 0 to skip). Goals on this machine (issue 30): p75 LCP
 * ≤ 1.0 s, INP ≤ 100 ms, CLS ≤ 0.01, in-site navigation ≤ 150 ms.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../test/support/browser.ts';
import { freePort, startApp } from '../test/support/app-process.ts';
import { pages } from '../src/shared/pages.ts';
import { BUDGET_REPORT, type PageWeight } from './build/budget.ts';
import { FINAL_DIST } from './build/layout.ts';
import { LIGHTHOUSE_TARGETS, launchChromium, type Lhr, runOnce, warmUpChromium } from '../test/support/lighthouse.ts';
import { type Cleanup, loadAverage, median, table, withCleanup } from './perf/harness.ts';
import { type WorkerLoadFigures, workerLoadsTable, workerPageLoads } from './perf/worker-page-loads.ts';
import { type FieldFigures, fieldHistograms, fieldP75, fieldPageViews, slowPhonePage } from './perf/field-vitals.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    taps: { type: 'string', default: '5' },
    routes: { type: 'string' },
    details: { type: 'boolean', default: false },
    'worker-loads': { type: 'string', default: '9' },
    'field-views': { type: 'string', default: '5' },
  },
});
const RUNS = Number(args.runs);
/** Lighthouse's performance score, per route, as the median of RUNS runs (issue 28: 95 on this machine). */
const GOAL = LIGHTHOUSE_TARGETS.performance;
const TAPS = Number(args.taps);
const WORKER_LOADS = Number(args['worker-loads']);
const FIELD_VIEWS = Number(args['field-views']);
const ALL_ROUTES = pages.map((p) => (p.path === '*' ? '/no-such-page' : p.path));
// `--routes none`: tap-to-paint only.
const routes = args.routes === 'none' ? [] : args.routes ? args.routes.split(',') : ALL_ROUTES;

interface Simulated {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  tbt: number;
  fcp: number;
  lcp: number;
  cls: number;
  /** All the script bytes the load fetched (transfer size), idle prefetches included: Lighthouse's resource summary. */
  scriptBytes: number;
}

const score = (lhr: Lhr, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const metric = (lhr: Lhr, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;

function scriptBytes(lhr: Lhr): number {
  const items = (lhr.audits['resource-summary']?.details as { items?: Array<Record<string, unknown>> })?.items ?? [];
  return Number(items.find((item) => item.resourceType === 'script')?.transferSize ?? Number.NaN);
}

function simulatedFigures(lhr: Lhr): Simulated {
  return {
    performance: score(lhr, 'performance'),
    accessibility: score(lhr, 'accessibility'),
    bestPractices: score(lhr, 'best-practices'),
    seo: score(lhr, 'seo'),
    tbt: metric(lhr, 'total-blocking-time'),
    fcp: metric(lhr, 'first-contentful-paint'),
    lcp: metric(lhr, 'largest-contentful-paint'),
    cls: metric(lhr, 'cumulative-layout-shift'),
    scriptBytes: scriptBytes(lhr),
  };
}

/** The long tasks and the LCP breakdown Lighthouse found in a run, in a few lines. */
function details(lhr: Lhr): string[] {
  const origin = new URL(lhr.finalDisplayedUrl).origin;
  const tasks = ((lhr.audits['long-tasks']?.details as { items?: Record<string, unknown>[] })?.items ?? []).map(
    (t) =>
      `long task ${Math.round(Number(t.duration))} ms at ${Math.round(Number(t.startTime))} ms: ${String(t.url ?? '?').replace(origin, '')}`,
  );
  const breakdown = lhr.audits['lcp-breakdown-insight']?.details as
    | { items?: Array<{ type?: string; items?: Array<Record<string, unknown>> }> }
    | undefined;
  const phases = (breakdown?.items ?? [])
    .flatMap((table) => (table.type === 'table' ? (table.items ?? []) : []))
    .map((row) => `LCP ${String(row.label ?? row.subpart)}: ${Math.round(Number(row.duration))} ms`);
  const element = lhr.audits['largest-contentful-paint-element']?.details as
    | { items?: Array<{ items?: Array<{ node?: { snippet?: string } }> }> }
    | undefined;
  const snippet = element?.items?.[0]?.items?.[0]?.node?.snippet;
  const lost = ['accessibility', 'best-practices', 'seo'].flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${category} lost: ${ref.id} ${lhr.audits[ref.id]?.displayValue ?? ''}`.trim()),
  );
  // Which requests the console errors came from (third parties the closed network cannot reach, or ours).
  const consoleErrors = (
    (
      lhr.audits['errors-in-console']?.details as {
        items?: Array<{ source?: string; description?: string; url?: string; sourceLocation?: { url?: string } }>;
      }
    )?.items ?? []
  ).map(
    (item) =>
      `console error (${item.source ?? '?'}): ${String(item.description ?? '').slice(0, 80)} ${item.sourceLocation?.url ?? item.url ?? ''}`,
  );
  return [...(snippet ? [`LCP element ${snippet.slice(0, 100)}`] : []), ...phases, ...tasks, ...lost, ...consoleErrors];
}

const medianOf = <T>(runs: T[], pick: (r: T) => number) => median(runs.map(pick));

/** Tap-to-paint: from the tap on the footer's Terms link on / to the paint that shows /terms. */
async function tapToPaint(origin: string, taps: number): Promise<number[]> {
  const browser = await launchBrowser();
  const times: number[] = [];
  try {
    for (let i = 0; i < taps; i++) {
      const { context, page } = await slowPhonePage(browser, origin);
      try {
        await page.goto(`${origin}/`, { waitUntil: 'networkidle' });
        // A reader scrolls down to the footer before tapping it.
        const link = page.locator('footer').getByRole('link', { name: 'Terms of Service' });
        await link.scrollIntoViewIfNeeded();
        await page.waitForTimeout(1_000);
        // A touch at the link's centre through the DevTools protocol: locator.tap() would also run
        // Playwright's own hit-target checks inside the page, in the time measured.
        const box = (await link.boundingBox())!;
        times.push(await measureTap(page, () => page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2)));
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return times;
}

async function measureTap(page: Page, tap: () => Promise<void>): Promise<number> {
  await page.evaluate(() => {
    const w = window as unknown as { __tapToPaint: Promise<number> };
    w.__tapToPaint = new Promise((resolve) => {
      let start = Number.NaN;
      addEventListener('pointerdown', (e) => (start = e.timeStamp), { capture: true, once: true });
      const shown = () =>
        location.pathname === '/terms' && document.querySelector('main h1')?.textContent === 'Terms of Service';
      const observer = new MutationObserver(() => {
        if (!shown()) return;
        observer.disconnect();
        // The task after the next frame's rendering: the new page has been painted.
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => resolve(performance.now() - start);
          channel.port2.postMessage(null);
        });
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
  });
  await tap();
  return page.evaluate(() => (window as unknown as { __tapToPaint: Promise<number> }).__tapToPaint);
}

// The build's own figures (scripts/build/budget.ts).
const weights = (JSON.parse(readFileSync(join(FINAL_DIST, BUDGET_REPORT), 'utf8')) as { pages: PageWeight[] }).pages;
const jsOf = (route: string) => {
  const page = pages.find((p) => (p.path === '*' ? '/no-such-page' : p.path) === route);
  return weights.find((w) => w.page === page?.module)?.js ?? Number.NaN;
};

/** One route's row (and, with --details, its notes): RUNS simulated and RUNS devtools audits. */
async function auditRoute(
  url: string,
  chromiumPort: number,
  route: string,
): Promise<{ row: string[]; notes: string[] }> {
  const simulated: Array<{ lhr: Lhr; figures: Simulated }> = [];
  const devtools: Array<{ fcp: number; lcp: number }> = [];
  for (let i = 0; i < RUNS; i++) {
    const lhr = await runOnce(url + route, chromiumPort, undefined, {
      categories: ['performance', 'accessibility', 'best-practices', 'seo'],
    });
    simulated.push({ lhr, figures: simulatedFigures(lhr) });
  }
  for (let i = 0; i < RUNS; i++) {
    const lhr = await runOnce(url + route, chromiumPort, undefined, {
      categories: ['performance'],
      throttlingMethod: 'devtools',
    });
    devtools.push({ fcp: metric(lhr, 'first-contentful-paint'), lcp: metric(lhr, 'largest-contentful-paint') });
  }
  const m = (pick: (f: Simulated) => number) => medianOf(simulated, (r) => pick(r.figures));
  const ms = (n: number) => String(Math.round(n));
  const performance = m((f) => f.performance);
  const row = [
    route,
    String(performance),
    `${performance >= GOAL ? 'met' : 'MISSED'} (${simulated.map((r) => r.figures.performance).join('/')})`,
    ms(m((f) => f.tbt)),
    ms(m((f) => f.fcp)),
    ms(m((f) => f.lcp)),
    m((f) => f.cls).toFixed(3),
    String(m((f) => f.accessibility)),
    String(m((f) => f.bestPractices)),
    String(m((f) => f.seo)),
    ms(medianOf(devtools, (r) => r.fcp)),
    ms(medianOf(devtools, (r) => r.lcp)),
    (m((f) => f.scriptBytes) / 1024).toFixed(1),
    (jsOf(route) / 1024).toFixed(1),
  ];
  const midRun = simulated.find((r) => r.figures.tbt === m((f) => f.tbt)) ?? simulated[0]!;
  const notes = args.details ? [`${route}:`, ...details(midRun.lhr).map((line) => `  ${line}`)] : [];
  return { row, notes };
}

/** Every figure of the run: the app and the browsers started here are stopped by `cleanup`. */
async function measureAll(cleanup: Cleanup) {
  const port = await freePort();
  const metricsPort = await freePort();
  const app = cleanup.add(
    await startApp({
      PORT: String(port),
      SITE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      METRICS_PORT: String(metricsPort),
    }),
    (a) => a.stop(),
  );
  const chromium = cleanup.add(await launchChromium(), (c) => c.close());
  const rows: string[][] = [];
  const notes: string[] = [];
  // Warm the page cache, as production traffic would, and Chromium.
  for (const route of routes) await (await fetch(app.url + route)).text();
  if (routes.length > 0) await warmUpChromium(app.url, chromium.port);
  for (const route of routes) {
    if (route === '/no-such-page') {
      // Lighthouse refuses to audit a page answered with 404 (ERRORED_DOCUMENT_REQUEST).
      rows.push([route, ...Array<string>(12).fill('–'), (jsOf(route) / 1024).toFixed(1)]);
      continue;
    }
    const audited = await auditRoute(app.url, chromium.port, route);
    rows.push(audited.row);
    notes.push(...audited.notes);
    console.error(`bench:client: ${audited.row.join(' ')}`);
  }
  const taps = TAPS > 0 ? await tapToPaint(app.url, TAPS) : [];
  let workerLoads: WorkerLoadFigures[] = [];
  if (WORKER_LOADS > 0) {
    const browser = cleanup.add(await launchBrowser(), (b) => b.close());
    const audited = ALL_ROUTES.filter((r) => r !== '/no-such-page');
    workerLoads = await workerPageLoads(browser, app.url, audited, WORKER_LOADS);
  }
  let field: FieldFigures = new Map();
  if (FIELD_VIEWS > 0) {
    // Only the field pass's own beacons: Lighthouse's runs sent some too.
    const browser = cleanup.add(await launchBrowser(), (b) => b.close());
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const before = await fieldHistograms(metricsUrl);
    await fieldPageViews(browser, app.url, metricsUrl, ALL_ROUTES, FIELD_VIEWS);
    field = fieldP75(await fieldHistograms(metricsUrl), before);
  }
  return { rows, notes, taps, workerLoads, field };
}

/** Field p75 per route beside Lighthouse's lab LCP and CLS (the simulated medians of the table above). */
function fieldTable(field: FieldFigures): string {
  const lab = new Map(rows.map((r) => [r[0], { lcp: r[5], cls: r[6] }]));
  const goal = (value: number | undefined, limit: number) =>
    value === undefined || !Number.isFinite(value) ? '–' : value <= limit ? 'met' : 'MISSED';
  const ms = (s: number | undefined) => (s === undefined || !Number.isFinite(s) ? '–' : String(Math.round(s * 1000)));
  const out = pages.map((p) => {
    const route = p.path === '*' ? '/no-such-page' : p.path;
    const f = field.get(p.id) ?? {};
    return [
      route,
      String(f.views ?? 0),
      ms(f.LCP),
      lab.get(route)?.lcp ?? '–',
      ms(f.INP),
      f.CLS === undefined || !Number.isFinite(f.CLS) ? '–' : f.CLS.toFixed(3),
      lab.get(route)?.cls ?? '–',
      ms(f.NAV),
      `${goal(f.LCP, 1)}/${goal(f.INP, 0.1)}/${goal(f.CLS, 0.01)}/${goal(f.NAV, 0.15)}`,
    ];
  });
  const header = [
    'route',
    'views',
    'field LCP',
    'lab LCP',
    'field INP',
    'field CLS',
    'lab CLS',
    'field NAV',
    'goals L/I/C/N',
  ];
  return (
    `Field Web Vitals, p75 of the beacons of ${FIELD_VIEWS} page views per route (375 px, CPU 4× slower; ms, from the app's histograms: ` +
    'linear within a bucket), beside Lighthouse (simulated, median); NAV: in-site navigation from the tap, counted on the page it leads to; ' +
    'goals: LCP ≤ 1000, INP ≤ 100, CLS ≤ 0.01, NAV ≤ 150\n' +
    table(header, out)
  );
}

console.log(`load average (1/5/15 min) at the start: ${loadAverage()}`);
const { rows, notes, taps, workerLoads, field } = await withCleanup(measureAll);

const header = [
  'route',
  'perf',
  `perf ≥ ${GOAL} (runs)`,
  'TBT',
  'FCP',
  'LCP',
  'CLS',
  'a11y',
  'BP',
  'SEO',
  'dt FCP',
  'dt LCP',
  'load JS KiB',
  'first JS KiB',
];
console.log(
  `Lighthouse mobile, median of ${RUNS} runs: simulated throttling (perf … SEO; ms), devtools throttling (dt FCP, dt LCP; ms)`,
);
console.log(
  'load JS: KiB of all the scripts a page load fetched (transfer size, idle prefetches included; Lighthouse, median); ' +
    'first JS: gzip KiB of the scripts fetched before the first paint (loader, app, page chunks), as the build budgets it',
);
console.log(table(header, rows));
const judged = rows.filter((r) => r[2] !== '–');
const missed = judged.filter((r) => r[2]!.startsWith('MISSED')).map((r) => `${r[0]} ${r[1]}`);
if (judged.length)
  console.log(
    `performance goal, median of ${RUNS} ≥ ${GOAL} per route: ${missed.length ? `MISSED on ${missed.join(', ')}` : `met on all ${judged.length} routes`}`,
  );
if (taps.length) {
  const tapLine = taps.map((t) => Math.round(t)).join(', ');
  console.log(
    `\ntap-to-paint, footer Terms of Service link on /, 375 px, CPU 4× slower: median ${Math.round(median(taps))} ms (${tapLine})`,
  );
}
if (notes.length) console.log(`\n${notes.join('\n')}`);
if (workerLoads.length) console.log(`\n${workerLoadsTable(workerLoads, WORKER_LOADS)}`);
if (field.size) console.log(`\n${fieldTable(field)}`);
console.log(
  `\nThe not-found page answers 404, which Lighthouse does not audit (–). Timings vary with the machine's load (a shared machine: compare within a run); load average at the end: ${loadAverage()}.`,
);

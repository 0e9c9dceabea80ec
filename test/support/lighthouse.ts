/**
 * Lighthouse on the built site: Debian's Chromium, Lighthouse's default
 * (mobile, simulated throttling) settings, several runs per page, the median of
 * each figure. The gate (test/lighthouse/lighthouse.test.ts) asserts only the
 * deterministic parts (accessibility, best practices, SEO, layout shift); the timing figures, and
 * the performance goal per route, are the client benchmark's (`npm run bench:client`).
 *
 * Third-party hosts cannot be reached here, and a page must not wait on them:
 * Chromium resolves every host but loopback nowhere, so ads, frames and covers
 * fail at once instead of timing out.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Launcher } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_BASE_FLAGS, CHROMIUM_PATH, requireChromium } from './chromium.ts';
import { median } from './stats.ts';
import { sleep } from './wait.ts';

export { CHROMIUM_PATH };

/** The issue's targets; `tbt` and `cls` are upper bounds (CLS must be exactly 0). */
export const LIGHTHOUSE_TARGETS = { performance: 95, accessibility: 100, seo: 100, cls: 0, tbtMs: 100 } as const;

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

/**
 * Lighthouse's own launcher flags (chrome-launcher's defaults: no background services, the page's
 * timers and renderer never backgrounded), then ours: the closed network, DevTools on loopback, no
 * scrollbar in the screenshots.
 * `extraFlags` is for an A/B of one flag.
 */
function chromiumFlags(extraFlags: readonly string[]): string[] {
  return [
    ...new Set([
      ...Launcher.defaultFlags(),
      ...CHROMIUM_BASE_FLAGS,
      // Every host but loopback resolves nowhere: third parties fail fast.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
      '--remote-debugging-address=127.0.0.1',
      '--remote-debugging-port=0',
      // No scrollbar in the frames: with it, the mobile emulation's overlay scrollbar flashes after the
      // first paint (14–22 frames drawn and screenshotted) while the page loads, which a phone does
      // not do after a load; what it cost the renderer was a wait for a core (decision 048).
      // Playwright's and Puppeteer's headless defaults have the same flag.
      '--hide-scrollbars',
      ...extraFlags,
    ]),
  ];
}

export interface Chromium {
  /** DevTools port Lighthouse connects to. */
  port: number;
  close(): Promise<void>;
}

/** Starts headless Chromium with a fresh profile and waits for its DevTools port. */
export async function launchChromium(extraFlags: readonly string[] = []): Promise<Chromium> {
  const profile = mkdtempSync(join(tmpdir(), 'lighthouse-chromium-'));
  const child: ChildProcess = spawn(
    requireChromium(),
    [...chromiumFlags(extraFlags), `--user-data-dir=${profile}`, 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < 20_000) stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(profile, { recursive: true, force: true });
  };

  // Chromium writes the port it picked to <profile>/DevToolsActivePort.
  const portFile = join(profile, 'DevToolsActivePort');
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    if (existsSync(portFile)) {
      const port = Number(readFileSync(portFile, 'utf8').split('\n')[0]);
      if (port > 0) return { port, close };
    }
    await sleep(50);
  }
  await close();
  throw new Error(`Chromium did not open its DevTools port:\n${stderr.slice(0, 2_000)}`);
}

export interface RunFigures {
  /** Category scores, 0–100. */
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  lcpMs: number;
  speedIndexMs: number;
  /** Lighthouse's measure of this machine's speed at the run (its CPU multiplier assumes ≥ 1300). */
  benchmarkIndex: number;
}

/** An audit that lost points, with the elements it names, so a failure says where to look. */
export interface FailingAudit {
  category: Category;
  id: string;
  title: string;
  /** Selectors or snippets (or URLs/values) of the items the audit lists, a few at most. */
  items: string[];
}

export interface PageResult {
  path: string;
  runs: RunFigures[];
  median: RunFigures;
  /** Failing audits seen in any run, by id (one entry per audit). */
  failing: FailingAudit[];
  /** Long main-thread tasks of the run with the median TBT: where blocking time comes from. */
  longTasks: string[];
  /** Elements that moved, from any run with a layout shift (CLS must be 0). */
  layoutShifts: string[];
  warnings: string[];
}

/** The median of each figure on its own (robust to one noisy run). */
export function medianFigures(runs: RunFigures[]): RunFigures {
  const keys = Object.keys(runs[0]!) as (keyof RunFigures)[];
  return Object.fromEntries(keys.map((k) => [k, median(runs.map((r) => r[k]))])) as unknown as RunFigures;
}

export type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

function describeItem(item: Record<string, unknown>): string | undefined {
  const node = item.node as { selector?: string; snippet?: string; nodeLabel?: string } | undefined;
  if (node?.selector || node?.snippet) return `${node.selector ?? ''} ${node.snippet ?? ''}`.trim().slice(0, 200);
  // Console errors: where the error comes from, then what it says.
  const location = item.sourceLocation as { url?: string } | undefined;
  if (location?.url) return `${location.url} ${String(item.description ?? '')}`.trim().slice(0, 200);
  for (const key of ['url', 'source', 'href', 'text', 'description']) {
    const value = item[key];
    if (typeof value === 'string' && value) return value.slice(0, 200);
  }
  return undefined;
}

function failingAudits(lhr: Lhr): FailingAudit[] {
  const failing: FailingAudit[] = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || ref.weight === 0 || audit.score === null || audit.score >= (category === 'performance' ? 0.9 : 1))
        continue;
      const details = audit.details as { items?: Record<string, unknown>[] } | undefined;
      const items = (details?.items ?? [])
        .map(describeItem)
        .filter((x): x is string => !!x)
        .slice(0, 5);
      failing.push({
        category,
        id: ref.id,
        title: audit.title,
        items: items.length ? items : audit.displayValue ? [audit.displayValue] : [],
      });
    }
  }
  return failing;
}

function figuresOf(lhr: Lhr): RunFigures {
  const score = (c: Category) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const metric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (typeof value !== 'number') throw new Error(`Lighthouse gave no ${id} for ${lhr.finalDisplayedUrl}`);
    return value;
  };
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    cls: metric('cumulative-layout-shift'),
    tbtMs: metric('total-blocking-time'),
    fcpMs: metric('first-contentful-paint'),
    lcpMs: metric('largest-contentful-paint'),
    speedIndexMs: metric('speed-index'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

function longTasksOf(lhr: Lhr): string[] {
  const items =
    (
      lhr.audits['long-tasks']?.details as
        | { items?: { url?: string; duration?: number; startTime?: number }[] }
        | undefined
    )?.items ?? [];
  const origin = new URL(lhr.finalDisplayedUrl).origin;
  return items
    .slice(0, 8)
    .map(
      (t) =>
        `${Math.round(t.duration ?? 0)} ms at ${Math.round(t.startTime ?? 0)} ms: ${(t.url ?? '?').replace(origin, '')}`,
    );
}

function layoutShiftsOf(lhr: Lhr): string[] {
  const items =
    (lhr.audits['layout-shifts']?.details as { items?: Record<string, unknown>[] } | undefined)?.items ?? [];
  return items
    .slice(0, 5)
    .map((item) =>
      `${typeof item.score === 'number' ? item.score.toFixed(4) : '?'} ${describeItem(item) ?? ''}`.trim(),
    );
}

/** Trace-recording hiccups Lighthouse itself says to retry; anything else is a real failure. */
const RETRYABLE = new Set([
  'NO_NAVSTART',
  'NO_TRACING_STARTED',
  'NO_SPEEDLINE_FRAMES',
  'NO_SCREENSHOTS',
  'INVALID_SPEEDLINE',
  'SPEEDINDEX_OF_ZERO',
]);
const ATTEMPTS = 3;

/** What a caller may change of a run: the throttling method (default simulated), the categories. */
export interface RunSettings {
  throttlingMethod?: 'simulate' | 'devtools';
  categories?: string[];
}

export type RunnerResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>;

/** One Lighthouse run with the default (mobile) config, our categories unless `settings` names others. */
export async function runOnce(...args: Parameters<typeof runWithArtifacts>): Promise<Lhr> {
  return (await runWithArtifacts(...args)).lhr;
}

/** `runOnce`, with what Lighthouse gathered (its trace among them) beside the report. */
export async function runWithArtifacts(
  url: string,
  port: number,
  warnings?: Set<string>,
  settings: RunSettings = {},
): Promise<RunnerResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      hostname: '127.0.0.1',
      output: 'json',
      logLevel: 'error',
      onlyCategories: settings.categories ?? [...CATEGORIES],
      ...(settings.throttlingMethod && { throttlingMethod: settings.throttlingMethod }),
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const error = result.lhr.runtimeError;
    if (!error) return result;
    if (!RETRYABLE.has(error.code) || attempt >= ATTEMPTS)
      throw new Error(`Lighthouse failed on ${url}: ${error.code} ${error.message}`);
    warnings?.add(`retried a run after ${error.code}`);
  }
}

/** `runs` Lighthouse runs of one page; the median of each figure and every failing audit. */
export async function auditPage(baseUrl: string, path: string, port: number, runs: number): Promise<PageResult> {
  const reports: Lhr[] = [];
  const warnings = new Set<string>();
  for (let i = 0; i < runs; i++) reports.push(await runOnce(baseUrl + path, port, warnings));
  return summarisePage(path, reports, warnings);
}

/** A page's runs (Lighthouse's reports, in order) summed up: medians, failing audits, long tasks, shifts. */
export function summarisePage(path: string, reports: Lhr[], retries: Set<string> = new Set()): PageResult {
  const all = reports.map(figuresOf);
  const shifts = new Set<string>();
  const failing = new Map<string, FailingAudit>();
  const warnings = new Set(retries);
  reports.forEach((lhr, i) => {
    for (const shift of layoutShiftsOf(lhr)) shifts.add(`run ${i + 1}: ${shift}`);
    for (const f of failingAudits(lhr)) if (!failing.has(f.id)) failing.set(f.id, f);
    for (const w of lhr.runWarnings) warnings.add(String(w));
  });
  const mid = median(all.map((r) => r.tbtMs));
  const midReport = reports[all.findIndex((r) => r.tbtMs === mid)] ?? reports[0];
  return {
    path,
    runs: all,
    median: medianFigures(all),
    failing: [...failing.values()],
    longTasks: midReport ? longTasksOf(midReport) : [],
    layoutShifts: [...shifts],
    warnings: [...warnings],
  };
}

/** Fetches each page once, as production traffic would: Lighthouse audits the page cache's steady state. */
export async function warmPageCache(baseUrl: string): Promise<void> {
  for (const path of AUDITED_PATHS) await (await fetch(baseUrl + path)).text();
}

/**
 * One audit of the home page whose figures are thrown away: the first audit after Chromium starts
 * pays for Chromium's own cold start (/ scored 94, then 100 in the next run), not for the page.
 */
export async function warmUpChromium(baseUrl: string, port: number): Promise<void> {
  await runOnce(`${baseUrl}/`, port, undefined, { categories: ['performance'] });
}

export function formatTable(results: PageResult[]): string {
  const header = [
    'page',
    'perf',
    'a11y',
    'bp',
    'seo',
    'CLS',
    'TBT ms',
    'FCP ms',
    'LCP ms',
    'SI ms',
    'bench idx',
    'perf runs',
    'TBT runs',
  ];
  const rows = results.map((r) => [
    r.path,
    String(r.median.performance),
    String(r.median.accessibility),
    String(r.median.bestPractices),
    String(r.median.seo),
    r.median.cls.toFixed(3),
    String(Math.round(r.median.tbtMs)),
    String(Math.round(r.median.fcpMs)),
    String(Math.round(r.median.lcpMs)),
    String(Math.round(r.median.speedIndexMs)),
    String(Math.round(r.median.benchmarkIndex)),
    r.runs.map((x) => x.performance).join('/'),
    r.runs.map((x) => Math.round(x.tbtMs)).join('/'),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [
    `Lighthouse (mobile, simulated throttling), median of ${results[0]?.runs.length ?? 0} runs`,
    line(header),
    ...rows.map(line),
  ].join('\n');
}

/** Audits that lost points (with the elements they name), long tasks when TBT misses, warnings. */
export function formatFailures(results: PageResult[]): string {
  return results
    .flatMap((r) => [
      ...r.failing.map(
        (f) =>
          `${r.path} [${f.category}] ${f.id}: ${f.title}${f.items.length ? `\n    ${f.items.join('\n    ')}` : ''}`,
      ),
      ...(r.median.tbtMs >= LIGHTHOUSE_TARGETS.tbtMs && r.longTasks.length
        ? [`${r.path} long tasks (median-TBT run, simulated):\n    ${r.longTasks.join('\n    ')}`]
        : []),
      ...(r.layoutShifts.length ? [`${r.path} layout shifts:\n    ${r.layoutShifts.join('\n    ')}`] : []),
      ...r.warnings.map((w) => `${r.path} warning: ${w}`),
    ])
    .join('\n');
}

/** Every route of the site (issue 21: Lighthouse mobile on every route). */
export const AUDITED_PATHS = ['/', '/about', '/contact', '/careers', '/privacy', '/terms', '/radio', '/books'] as const;

/**
 * The JS and CSS budgets per page, in gzip bytes (issues 5, 12 and 18; decisions 001 and 043).
 *
 * - First load: the scripts fetched before the first paint can use them: the loader, the app and
 *   its imports, the page's own chunks (the loader imports them all at once); and the CSS, inlined
 *   in every page.
 * - Page load: all the JS a page load fetches, the first load plus what the app imports after
 *   hydration (react-router's chunk, decision 043), each file once.
 * - With prefetch: the page load and the chunks of the pages whose links are in view, which links
 *   fetch at an idle moment (PrefetchLink), as Lighthouse counts a page load on its phone. Which links
 *   are in view is the browser's to say: test/budgets.test.ts measures it in Chromium.
 * - After idle: the field Web Vitals chunk (web-vitals and the beacon, src/client/vitals.ts), which
 *   the router's chunk imports: a budget of its own, so the page load's stays what it measured.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Manifest } from '../../src/server/manifest.ts';
import { table } from '../text-table.ts';
import type { OutputLayout } from './layout.ts';

export const BUDGET = {
  js: 80 * 1024,
  css: 20 * 1024,
  pageLoadJs: 94 * 1024,
  withPrefetchJs: 100 * 1024,
  afterIdleJs: 4 * 1024,
};

export interface PageWeight {
  page: string;
  /** First-load JS (fetched before the first paint). */
  js: number;
  /** The inlined CSS. */
  css: number;
  /** All the JS the page load fetches. */
  pageLoadJs: number;
  /** The URLs counted in `pageLoadJs`. */
  pageLoadFiles: string[];
  /** JS fetched after the page is idle (the field Web Vitals chunk), and its URLs. */
  afterIdleJs: number;
  afterIdleFiles: string[];
}

/** Where the build writes its figures and budget, read by the budget test (test/budgets.test.ts). */
export const BUDGET_REPORT = 'first-load.json';

/**
 * Gzip bytes per page. `afterPaint` are the URLs the app fetches after hydration on every page;
 * `afterIdle` those it fetches once the page is idle; `clientDir` holds the public files.
 */
export function pageWeights(
  manifest: Manifest,
  afterPaint: string[],
  clientDir: string,
  afterIdle: string[] = [],
): PageWeight[] {
  const gz = (url: string) => gzipSync(readFileSync(join(clientDir, url)), { level: 9 }).length;
  const sum = (urls: string[]) => urls.reduce((total, url) => total + gz(url), 0);
  const entry = [manifest.entry.js, ...manifest.entry.imports];
  // The CSS is inlined in every page's HTML (decision 044): its gzip bytes ride with each page.
  const css = gzipSync(manifest.entry.styles, { level: 9 }).length;
  return Object.entries(manifest.pages).map(([page, files]) => {
    const firstLoad = [...entry, ...files];
    const pageLoadFiles = [...new Set([...firstLoad, ...afterPaint])];
    const afterIdleFiles = afterIdle.filter((url) => !pageLoadFiles.includes(url));
    const pageLoadJs = sum(pageLoadFiles);
    return {
      page,
      js: sum(firstLoad),
      css,
      pageLoadJs,
      pageLoadFiles,
      afterIdleJs: sum(afterIdleFiles),
      afterIdleFiles,
    };
  });
}

export const overBudget = (weights: PageWeight[]) =>
  weights.filter(
    (w) =>
      w.js > BUDGET.js || w.css > BUDGET.css || w.pageLoadJs > BUDGET.pageLoadJs || w.afterIdleJs > BUDGET.afterIdleJs,
  );

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

/** The build's table: each page's figures, with what each budget counts. */
export function budgetTable(weights: PageWeight[]): string {
  const header = [
    'gzip',
    `first-load JS ≤ ${kib(BUDGET.js)}`,
    `CSS ≤ ${kib(BUDGET.css)}`,
    `page-load JS ≤ ${kib(BUDGET.pageLoadJs)}`,
    `after-idle JS ≤ ${kib(BUDGET.afterIdleJs)}`,
  ];
  const rows = weights.map((w) => [w.page, kib(w.js), kib(w.css), kib(w.pageLoadJs), kib(w.afterIdleJs)]);
  return (
    `${table(header, rows)}\n` +
    'first-load JS: the scripts fetched before the first paint (loader, app, page chunks); CSS: inlined in the page;\n' +
    'page-load JS: all the JS a page load fetches (the first load and the router after hydration);\n' +
    `with the idle prefetch of the links in view ≤ ${kib(BUDGET.withPrefetchJs)}: measured in Chromium by test/budgets.test.ts;\n` +
    'after-idle JS: the field Web Vitals chunk the router imports'
  );
}

export function overBudgetMessage(over: PageWeight[]): string {
  return `build: over budget (first-load JS ${kib(BUDGET.js)}, CSS ${kib(BUDGET.css)}, page-load JS ${kib(BUDGET.pageLoadJs)}, after-idle JS ${kib(BUDGET.afterIdleJs)}): ${over.map((w) => w.page).join(', ')}`;
}

export function writeBudgetReport(weights: PageWeight[], layout: OutputLayout): void {
  writeFileSync(join(layout.dist, BUDGET_REPORT), JSON.stringify({ budget: BUDGET, pages: weights }, null, 2));
}

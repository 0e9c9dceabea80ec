/**
 * Budgets per page (issues 5, 12 and 18): the first load (the scripts fetched before the first
 * paint) is at most 80 KiB of gzip JS and the inlined CSS 20 KiB gzip; the whole page load (the
 * first load and the router fetched after hydration) at most 94 KiB of gzip JS, and with the pages
 * its links in view prefetch at an idle moment (as Lighthouse counts on its phone) at most 100 KiB.
 * The build computes the first three (dist/first-load.json) and fails past them; here the figures are
 * checked against what the server links and what a browser really fetches, and the last is measured.
 * How they are computed: scripts/build/budget.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../src/server/manifest.ts';
import { pages } from '../src/shared/pages.ts';
import { useAppAndBrowser } from './support/app-and-browser.ts';
import { blockThirdParties, untilPageSettled } from './support/browser.ts';
import { testApp } from './support/test-app.ts';

interface BudgetReport {
  budget: { js: number; css: number; pageLoadJs: number; withPrefetchJs: number; afterIdleJs: number };
  pages: Array<{
    page: string;
    js: number;
    css: number;
    pageLoadJs: number;
    pageLoadFiles: string[];
    afterIdleJs: number;
    afterIdleFiles: string[];
  }>;
}

const DIST = 'dist';
/** V8's magic comment asking for eager compilation, which the build puts first in every JS file. */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';
const report = JSON.parse(readFileSync(join(DIST, 'first-load.json'), 'utf8')) as BudgetReport;
const BUDGET = report.budget;
const manifest = JSON.parse(readFileSync(join(DIST, 'manifest.json'), 'utf8')) as Manifest;
const weights = report.pages;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const gzipSize = (url: string) => gzipSync(readFileSync(join(DIST, 'client', url)), { level: 9 }).length;

describe('the budgets of the build', () => {
  it('are 80 KiB gzip first-load JS (react-router loads after hydration: decision 043), 20 KiB gzip CSS, 94 KiB gzip page-load JS 100 KiB with the idle prefetch and 4 KiB after idle (field Web Vitals) per route', () => {
    expect(BUDGET).toEqual({
      js: 80 * 1024,
      css: 20 * 1024,
      pageLoadJs: 94 * 1024,
      withPrefetchJs: 100 * 1024,
      afterIdleJs: 4 * 1024,
    });
  });

  it.each(pages.map((p) => [p.module, p.path] as const))('%s (%s) stays within them', (module) => {
    const weight = weights.find((w) => w.page === module);
    expect(weight, `manifest has no page "${module}"`).toBeDefined();
    console.log(
      `${module.padEnd(9)} first-load js ${kb(weight!.js)}  css ${kb(weight!.css)}  page-load js ${kb(weight!.pageLoadJs)}`,
    );
    expect(weight!.js, `${module} first-load JS ${kb(weight!.js)}`).toBeLessThanOrEqual(BUDGET.js);
    expect(weight!.css, `${module} first-load CSS ${kb(weight!.css)}`).toBeLessThanOrEqual(BUDGET.css);
    expect(weight!.pageLoadJs, `${module} page-load JS ${kb(weight!.pageLoadJs)}`).toBeLessThanOrEqual(
      BUDGET.pageLoadJs,
    );
    expect(weight!.afterIdleJs, `${module} after-idle JS ${kb(weight!.afterIdleJs)}`).toBeLessThanOrEqual(
      BUDGET.afterIdleJs,
    );
  });
});

const attributes = (source: string): Record<string, string> =>
  Object.fromEntries([...source.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!]));

describe('the manifest figure is what the page links', () => {
  const app = testApp();

  // The script the server writes into the page (the loader) and the modules it imports after the
  // first paint (listed in the boot data), gzipped one by one, must add up to the manifest's
  // first-load JS weight; the CSS inlined in the head to its CSS weight.
  it.each(pages.map((p) => [p.path === '*' ? '/no-such-page' : p.path, p.module] as const))(
    '%s links exactly its first-load files',
    async (path, module) => {
      const res = await request(app).get(path);
      const head = res.text.slice(0, res.text.indexOf('</head>'));
      const tags = [...head.matchAll(/<(script|link)\b([^>]*)>/g)].map((m) => ({
        name: m[1],
        attr: attributes(m[2]!),
      }));
      const scripts = tags.flatMap((t) => (t.name === 'script' && t.attr.src ? [t.attr.src] : []));
      // Nothing but the loader is fetched before the first paint.
      expect(scripts).toHaveLength(1);
      expect(tags.filter((t) => t.attr.rel === 'modulepreload')).toEqual([]);
      const boot = JSON.parse(/<script type="application\/json" id="__boot">(.*?)<\/script>/.exec(res.text)![1]!) as {
        assets: { preload: string[] };
      };
      const js = [...scripts, ...boot.assets.preload];
      // The CSS is in the page itself (decision 044): no stylesheet request before the first paint.
      expect(tags.filter((t) => t.attr.rel === 'stylesheet')).toEqual([]);
      const styles = /<style id="__styles">(.*?)<\/style>/s.exec(head)?.[1] ?? '';
      expect(js.length).toBeGreaterThan(1);
      expect(new Set(js).size).toBe(js.length);
      const weight = weights.find((w) => w.page === module)!;
      expect(js.reduce((sum, f) => sum + gzipSize(f), 0)).toBe(weight.js);
      expect(gzipSync(styles, { level: 9 }).length).toBe(weight.css);
      // V8 compiles these eagerly off the main thread (see COMPILE_HINT): the hint must open each file.
      for (const f of js)
        expect(readFileSync(join(DIST, 'client', f), 'utf8').startsWith(`${COMPILE_HINT}\n`), f).toBe(true);
    },
  );
});

describe('the page-load figure is what a browser fetches', () => {
  const site = useAppAndBrowser();
  const otherPagesChunks = (module: string) =>
    new Set(Object.entries(manifest.pages).flatMap(([name, files]) => (name === module ? [] : files)));

  // Every file counted is fetched (the router's last), each once; any other script fetched is
  // another page's chunk, prefetched because its link came into view (PrefetchLink), not counted.
  it.each(pages.map((p) => [p.path === '*' ? '/no-such-page' : p.path, p.module] as const))(
    '%s fetches its page-load files',
    async (path, module) => {
      const weight = weights.find((w) => w.page === module)!;
      const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await blockThirdParties(page, site.app.url);
      const fetched: string[] = [];
      page.on('request', (req) => {
        const url = new URL(req.url());
        // The bundle's scripts (a service worker's own script, outside /assets/, is not the page's).
        if (req.resourceType() === 'script' && url.origin === site.app.url && url.pathname.startsWith('/assets/'))
          fetched.push(url.pathname);
      });
      // The field Web Vitals chunk (after idle) is counted on its own line.
      const counted = [...weight.pageLoadFiles, ...weight.afterIdleFiles];
      expect(weight.afterIdleFiles).toHaveLength(1);
      const all = Promise.all(counted.map((f) => page.waitForResponse((res) => res.url().endsWith(f))));
      await page.goto(`${site.app.url}${path}`);
      await all;
      await context.close();
      expect(fetched).toEqual(expect.arrayContaining(counted));
      const extra = fetched.filter((f) => !counted.includes(f));
      const prefetchable = otherPagesChunks(module);
      expect(extra.filter((f) => !prefetchable.has(f))).toEqual([]);
      expect(new Set(fetched).size).toBe(fetched.length);
      console.log(
        `${module.padEnd(9)} page load ${kb(weight.pageLoadJs)} counted, ${kb(extra.reduce((n, f) => n + gzipSize(f), 0))} of other pages' chunks prefetched`,
      );
    },
  );
});

/** Lighthouse's phone: its viewport and pixel ratio (the links in view are those it sees). */
const LIGHTHOUSE_PHONE = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};

describe('all the JS of a page load, idle prefetch included, as Lighthouse counts it', () => {
  const site = useAppAndBrowser();

  // Every script of ours the page load fetches, the chunks its links in view prefetch at an idle
  // moment included, until nothing more is on its way: gzip bytes, whatever the network's speed.
  it.each(pages.map((p) => [p.path === '*' ? '/no-such-page' : p.path, p.module] as const))(
    '%s stays within the budget with prefetch',
    async (path, module) => {
      const weight = weights.find((w) => w.page === module)!;
      const context = await site.browser.newContext(LIGHTHOUSE_PHONE);
      const page = await context.newPage();
      await blockThirdParties(page, site.app.url);
      const fetched = new Set<string>();
      const inFlight = new Set<object>();
      page.on('request', (req) => {
        const url = new URL(req.url());
        if (req.resourceType() !== 'script' || url.origin !== site.app.url || !url.pathname.startsWith('/assets/'))
          return;
        fetched.add(url.pathname);
        inFlight.add(req);
      });
      page.on('requestfinished', (req) => inFlight.delete(req));
      page.on('requestfailed', (req) => inFlight.delete(req));
      const all = Promise.all(weight.pageLoadFiles.map((f) => page.waitForResponse((res) => res.url().endsWith(f))));
      await page.goto(`${site.app.url}${path}`);
      await all;
      // Idle moments after the router has come: the links in view would have asked for their pages,
      // but nobody touched this page (as in Lighthouse's run), and links wait for a reader (PrefetchLink).
      await page.evaluate(async () => {
        for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => requestIdleCallback(() => resolve()));
      });
      await untilPageSettled(page);
      await expect.poll(() => inFlight.size).toBe(0);
      await context.close();
      // Everything fetched counts, the field Web Vitals chunk (after-idle JS, its own budget too) included.
      expect([...fetched]).toEqual(expect.arrayContaining(weight.afterIdleFiles));
      const total = [...fetched].reduce((n, f) => n + gzipSize(f), 0);
      console.log(
        `${module.padEnd(9)} all JS of the page load ${kb(total)} (after idle ${kb(weight.afterIdleJs)} included)`,
      );
      expect(total, `${module} JS with prefetch ${kb(total)}`).toBeLessThanOrEqual(BUDGET.withPrefetchJs);
    },
  );
});

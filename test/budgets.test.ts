/**
 * First-load budgets (issues 5 and 12): every route's first load is at most 80 KB of
 * gzip JS and 20 KB of gzip CSS, as the build computed it from its manifest
 * (dist/first-load.json), and the build's figure is what a browser really
 * fetches for the page. How the figure is computed: scripts/bundle.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pages } from '../src/shared/pages.ts';
import { testApp } from './support/test-app.ts';

interface FirstLoadReport {
  budget: { js: number; css: number };
  pages: Array<{ page: string; js: number; css: number }>;
}

const DIST = 'dist';
/** V8's magic comment asking for eager compilation, which the build puts first in every JS file. */
const COMPILE_HINT = '//# allFunctionsCalledOnLoad';
const report = JSON.parse(readFileSync(join(DIST, 'first-load.json'), 'utf8')) as FirstLoadReport;
const BUDGET = report.budget;
const weights = report.pages;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const gzipSize = (url: string) => gzipSync(readFileSync(join(DIST, 'client', url)), { level: 9 }).length;

describe('first-load budgets of the build', () => {
  it('are 80 KB gzip JS (react-router loads after hydration: decision 043) and 20 KB gzip CSS per route', () => {
    expect(BUDGET).toEqual({ js: 80 * 1024, css: 20 * 1024 });
  });

  it.each(pages.map((p) => [p.module, p.path] as const))('%s (%s) stays within them', (module) => {
    const weight = weights.find((w) => w.page === module);
    expect(weight, `manifest has no page "${module}"`).toBeDefined();
    console.log(`first load ${module.padEnd(9)} js ${kb(weight!.js)}  css ${kb(weight!.css)}`);
    expect(weight!.js, `${module} first-load JS ${kb(weight!.js)}`).toBeLessThanOrEqual(BUDGET.js);
    expect(weight!.css, `${module} first-load CSS ${kb(weight!.css)}`).toBeLessThanOrEqual(BUDGET.css);
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

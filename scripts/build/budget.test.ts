/** How the build weighs a page (the budgets it enforces; the real build: test/budgets.test.ts). */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/server/manifest.ts';
import { BUDGET, overBudget, pageWeights } from './budget.ts';

describe('pageWeights', () => {
  const dir = mkdtempSync(join(tmpdir(), 'budget-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (url: string, bytes: Buffer | string) => {
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, url), bytes);
  };
  const gz = (url: string) => gzipSync(readFileSync(join(dir, url)), { level: 9 }).length;

  write('/assets/entry.js', 'export const entry = 1;\n'.repeat(200));
  write('/assets/shared.js', 'export const shared = 2;\n'.repeat(200));
  write('/assets/Small.js', 'export const small = 3;\n');
  // Random bytes do not compress: 120 KiB stays about 120 KiB in gzip.
  write('/assets/Big.js', randomBytes(120 * 1024));
  write('/assets/router.js', 'export const router = 4;\n'.repeat(300));
  const styles = 'body{margin:0}\n'.repeat(100);
  const fixture: Manifest = {
    entry: { js: '/assets/entry.js', styles, imports: ['/assets/shared.js'] },
    pages: { Small: ['/assets/Small.js'], Big: ['/assets/Big.js'] },
  };
  write('/assets/vitals.js', 'export const vitals = 5;\n'.repeat(100));
  const weights = pageWeights(fixture, ['/assets/router.js', '/assets/shared.js'], dir, [
    '/assets/vitals.js',
    '/assets/router.js',
  ]);
  const small = weights.find((w) => w.page === 'Small')!;
  const big = weights.find((w) => w.page === 'Big')!;
  const entryJs = gz('/assets/entry.js') + gz('/assets/shared.js');

  it("counts in the first load the loader, its imports and the page's own chunks, so a big chunk breaks the budget", () => {
    expect(small.js).toBe(entryJs + gz('/assets/Small.js'));
    expect(big.js).toBe(entryJs + gz('/assets/Big.js'));
    expect(overBudget([small])).toEqual([]);
    expect(overBudget([big])).toEqual([big]);
  });

  it('counts the CSS, inlined in every page, once per page', () => {
    expect(small.css).toBe(gzipSync(styles, { level: 9 }).length);
    expect(big.css).toBe(small.css);
  });

  it('counts in the page load the first load and what comes after the first paint, each file once', () => {
    expect(small.pageLoadFiles).toEqual([
      '/assets/entry.js',
      '/assets/shared.js',
      '/assets/Small.js',
      '/assets/router.js',
    ]);
    expect(small.pageLoadJs).toBe(small.js + gz('/assets/router.js'));
  });

  it('counts after idle what the page load does not already have', () => {
    expect(small.afterIdleFiles).toEqual(['/assets/vitals.js']);
    expect(small.afterIdleJs).toBe(gz('/assets/vitals.js'));
    const heavy = { ...small, afterIdleJs: BUDGET.afterIdleJs + 1 };
    expect(overBudget([heavy])).toEqual([heavy]);
  });

  it('fails a page whose page load alone is over budget', () => {
    const heavyRouter = { ...small, pageLoadJs: BUDGET.pageLoadJs + 1 };
    expect(small.js).toBeLessThanOrEqual(BUDGET.js);
    expect(overBudget([heavyRouter])).toEqual([heavyRouter]);
  });
});

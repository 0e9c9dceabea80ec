/** How the build measures a route's first load (the budget it enforces; the real build: test/budgets.test.ts). */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../src/server/manifest.ts';
import { BUDGET, firstLoadWeights } from './bundle.ts';

describe('firstLoadWeights', () => {
  const dir = mkdtempSync(join(tmpdir(), 'budget-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const write = (url: string, bytes: Buffer | string) => {
    mkdirSync(join(dir, 'assets'), { recursive: true });
    writeFileSync(join(dir, url), bytes);
  };

  it("counts the entry, its imports, the page's own chunks and the CSS, so a big chunk breaks the budget", () => {
    write('/assets/entry.js', 'export const entry = 1;\n'.repeat(200));
    write('/assets/shared.js', 'export const shared = 2;\n'.repeat(200));
    write('/assets/Small.js', 'export const small = 3;\n');
    // Random bytes do not compress: 120 KB stays about 120 KB in gzip.
    write('/assets/Big.js', randomBytes(120 * 1024));
    const styles = 'body{margin:0}\n'.repeat(100);
    const fixture: Manifest = {
      entry: {
        js: '/assets/entry.js',
        styles,
        imports: ['/assets/shared.js'],
      },
      pages: { Small: ['/assets/Small.js'], Big: ['/assets/Big.js'] },
    };
    const gz = (url: string) => gzipSync(readFileSync(join(dir, url)), { level: 9 }).length;
    const result = firstLoadWeights(fixture, dir);
    const small = result.find((w) => w.page === 'Small')!;
    const big = result.find((w) => w.page === 'Big')!;

    const entryJs = gz('/assets/entry.js') + gz('/assets/shared.js');
    expect(small.js).toBe(entryJs + gz('/assets/Small.js'));
    expect(big.js).toBe(entryJs + gz('/assets/Big.js'));
    // The CSS is inlined in every page: its gzip size, counted once per page.
    expect(small.css).toBe(gzipSync(styles, { level: 9 }).length);
    expect(big.css).toBe(small.css);
    expect(small.js).toBeLessThanOrEqual(BUDGET.js);
    expect(big.js).toBeGreaterThan(BUDGET.js);
  });
});

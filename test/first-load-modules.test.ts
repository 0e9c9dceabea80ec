/**
 * No first load carries react-router (decision 043): the server's HTML and the hydration need none;
 * it arrives in its own chunk after hydration. Checked on the build's files, by the modules each one
 * holds (source maps), not by timing: the loader, the app's files and every page's files.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../src/server/manifest.ts';
import { pages } from '../src/shared/pages.ts';
import { isReactRouter, reactRouterScripts, sourcesOf } from './support/build-modules.ts';

const manifest = JSON.parse(readFileSync('dist/manifest.json', 'utf8')) as Manifest;

describe('react-router on the first load', () => {
  it('is in the build, in a chunk of its own that the router module imports', () => {
    const routerFiles = reactRouterScripts();
    expect(routerFiles).toHaveLength(1);
    expect(sourcesOf(routerFiles[0]!)).toContain('src/client/router.tsx');
  });

  it.each(pages.map((p) => [p.module] as const))('is not among the first-load files of %s', (module) => {
    const files = [manifest.entry.js, ...manifest.entry.imports, ...(manifest.pages[module] ?? [])];
    expect(manifest.pages[module], `manifest has no page "${module}"`).toBeDefined();
    for (const file of files) expect(sourcesOf(file).filter(isReactRouter), file).toEqual([]);
  });
});

/** esbuild's options for the client and the server, production (`npm run build`) or development (`npm run dev`). */
import type * as esbuild from 'esbuild';
import { join } from 'node:path';
import { ROOT, type OutputLayout } from './layout.ts';
import { reactRouterProduction } from './plugins.ts';
import { oneSharedChunk } from './shared-chunk.ts';

/** The loader: the one script a page names; it imports the app after the first paint. */
export const LOADER_ENTRY = 'src/client/entry.tsx';
/** The client app (hydration); the loader imports it after the first paint. */
export const APP_ENTRY = 'src/client/app.tsx';
/** The router: the app imports it after hydration (decision 043); a page load fetches it after the first paint. */
export const ROUTER_MODULE = 'src/client/router.tsx';
/** Field Web Vitals: the router imports it (a chunk of its own), so a page load fetches it after the page is idle. */
export const VITALS_MODULE = 'src/client/vitals.ts';
/** One chunk per page module in here (src/shared/page-modules.ts imports each). */
export const PAGES_DIR = 'src/shared/ui/pages/';

const nodeEnv = (production: boolean) => JSON.stringify(production ? 'production' : 'development');

export function clientOptions(production: boolean, layout: OutputLayout): esbuild.BuildOptions {
  return {
    plugins: production ? [oneSharedChunk, reactRouterProduction] : [],
    absWorkingDir: ROOT,
    entryPoints: [LOADER_ENTRY, APP_ENTRY],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    outdir: layout.assets,
    publicPath: '/assets/',
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    jsx: 'automatic',
    minify: production,
    // Maps go to dist/sourcemaps (never served); no sourceMappingURL comment leaks their names.
    sourcemap: production ? 'external' : 'linked',
    metafile: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': nodeEnv(production) },
    logLevel: 'warning',
  };
}

export function serverOptions(production: boolean, layout: OutputLayout): esbuild.BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: ['src/server/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node26',
    outfile: join(layout.server, 'main.js'),
    packages: 'external',
    plugins: production ? [reactRouterProduction] : [],
    jsx: 'automatic',
    sourcemap: 'linked',
    minify: false,
    define: { 'process.env.NODE_ENV': nodeEnv(production) },
    logLevel: 'warning',
  };
}

/**
 * The service worker (decision 052): esbuild bundles src/client/service-worker/worker.ts with the
 * Workbox modules it imports, then Workbox's injectManifest writes the list of the build's hashed
 * files into it (`self.__WB_MANIFEST`) as dist/client/sw.js. The kill switch is bundled beside it,
 * into dist/ (not public): the server serves it at the worker's URL when SERVICE_WORKER=off.
 * Runs before precompression (sw.js gets .br/.gz) and before the previous build's files are kept
 * (the precache lists this build's files only).
 */
import * as esbuild from 'esbuild';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { injectManifest } from 'workbox-build';
import { KILL_SWITCH_FILE, SERVICE_WORKER_PATH } from '../../src/shared/service-worker.ts';
import { ROOT, type OutputLayout } from './layout.ts';

export const WORKER_ENTRY = 'src/client/service-worker/worker.ts';
export const KILL_SWITCH_ENTRY = 'src/client/service-worker/kill-switch.ts';

const workerOptions = (entry: string, outfile: string): esbuild.BuildOptions => ({
  absWorkingDir: ROOT,
  entryPoints: [entry],
  outfile,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
  minify: true,
  legalComments: 'none',
  // Workbox logs only outside production.
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});

/** Writes dist/sw-kill-switch.js, which the server serves at the worker's URL when SERVICE_WORKER=off. */
export async function buildKillSwitch(layout: OutputLayout): Promise<void> {
  await esbuild.build(workerOptions(KILL_SWITCH_ENTRY, join(layout.dist, KILL_SWITCH_FILE)));
}

/** Writes dist/client/sw.js (with the precache list) and dist/sw-kill-switch.js; returns the precached count. */
export async function buildServiceWorker(layout: OutputLayout): Promise<number> {
  const unlisted = join(layout.dist, 'sw-unlisted.js');
  await Promise.all([esbuild.build(workerOptions(WORKER_ENTRY, unlisted)), buildKillSwitch(layout)]);
  const { count, warnings } = await injectManifest({
    swSrc: unlisted,
    swDest: join(layout.client, SERVICE_WORKER_PATH.slice(1)),
    globDirectory: layout.client,
    globPatterns: ['assets/*.js'],
    // hls.js (the rewind window's player, 114 KiB gzip) is fetched at a reader's first rewind, never by
    // every install: offline there is no window to play (decision 056).
    globIgnores: ['assets/hls.light-*.js'],
    // The names carry esbuild's content hash: no revision needed.
    dontCacheBustURLsMatching: /-[A-Z0-9]{8}\.js$/,
  });
  rmSync(unlisted);
  if (warnings.length > 0) throw new Error(`build: service worker: ${warnings.join('; ')}`);
  return count;
}

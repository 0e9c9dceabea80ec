/**
 * `npm run build`: the production build, as named steps (each in scripts/build/). It builds into a
 * private folder beside the output folder and swaps it in whole, so a running test never sees half a
 * build, and fails when a page is over budget (scripts/build/budget.ts). The output folder is dist/,
 * or `--out DIR` (the rebuild test deploys a second build into a folder of its own).
 */
import * as esbuild from 'esbuild';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Manifest } from '../src/server/manifest.ts';
import { budgetTable, overBudget, overBudgetMessage, pageWeights, writeBudgetReport } from './build/budget.ts';
import { FINAL_DIST, type OutputLayout, outputLayout } from './build/layout.ts';
import { KEEP_RETIRED_DAYS, keepPreviousAssets } from './build/previous-assets.ts';
import { afterIdleFiles, manifestFrom, routerFiles, writeManifest } from './build/manifest.ts';
import { buildServiceWorker } from './build/service-worker.ts';
import { clientOptions, serverOptions } from './build/options.ts';
import {
  cleanOutput,
  copyPublic,
  copyServerFiles,
  dropInlinedCss,
  precompress,
  squeeze,
  stashSourceMaps,
} from './build/post-process.ts';

/** esbuild: the client (code-split, with its metafile) and the server, side by side. */
async function bundle(layout: OutputLayout): Promise<esbuild.Metafile> {
  const [client] = await Promise.all([
    esbuild.build(clientOptions(true, layout)),
    esbuild.build(serverOptions(true, layout)),
  ]);
  if (!client.metafile) throw new Error('build: esbuild gave no metafile');
  return client.metafile;
}

/** The public files as served: minified again, maps out, the inlined CSS gone, public/ copied. */
async function postProcess(layout: OutputLayout): Promise<void> {
  await squeeze(layout.assets);
  stashSourceMaps(layout);
  dropInlinedCss(layout.assets);
  copyPublic(layout);
  copyServerFiles(layout);
}

/** Fails the build when a page is over budget; otherwise writes the figures the budget test reads. */
function checkBudgets(manifest: Manifest, afterPaint: string[], afterIdle: string[], layout: OutputLayout): void {
  const weights = pageWeights(manifest, afterPaint, layout.client, afterIdle);
  console.log(budgetTable(weights));
  const over = overBudget(weights);
  if (over.length > 0) {
    rmSync(layout.dist, { recursive: true, force: true });
    throw new Error(overBudgetMessage(over));
  }
  writeBudgetReport(weights, layout);
}

/** Replaces the output folder with the finished build. */
function swapIn(layout: OutputLayout, out: string): void {
  const old = `${out}.old-${process.pid}`;
  if (existsSync(out)) renameSync(out, old);
  renameSync(layout.dist, out);
  rmSync(old, { recursive: true, force: true });
}

async function build(out: string): Promise<void> {
  const started = performance.now();
  // Beside the output folder (one file system, so the swap is a rename): dist/ → .dist-build-<pid>.
  const layout = outputLayout(join(dirname(out), `.${basename(out)}-build-${process.pid}`));
  cleanOutput(layout);
  const metafile = await bundle(layout);
  const manifest = manifestFrom(metafile, layout);
  await postProcess(layout);
  writeManifest(manifest, layout);
  // Steps that write public files go here: before precompression, so they get .br/.gz copies.
  const precached = await buildServiceWorker(layout);
  console.log(`build: service worker precaches ${precached} file(s)`);
  precompress(layout.client);
  checkBudgets(manifest, routerFiles(metafile, layout), afterIdleFiles(metafile, layout), layout);
  const kept = keepPreviousAssets(outputLayout(out), layout);
  console.log(`build: kept ${kept} file(s) of earlier builds (for ${KEEP_RETIRED_DAYS} days after they were left out)`);
  swapIn(layout, out);
  console.log(`build: done in ${Math.round(performance.now() - started)} ms`);
}

const { values } = parseArgs({ options: { out: { type: 'string' } } });
await build(values.out ? resolve(values.out) : FINAL_DIST).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

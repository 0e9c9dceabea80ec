/** Production build: `npm run build`. Fails when a route's first load is over budget. */
import * as esbuild from 'esbuild';
import { existsSync, renameSync, rmSync } from 'node:fs';

// Build into a private folder, then swap it in (see bundle.ts).
process.env.BUILD_DIST_DIR ??= new URL(`../.dist-build-${process.pid}`, import.meta.url).pathname;
const {
  BUDGET,
  cleanDist,
  clientOptions,
  copyPublic,
  copyServerFiles,
  dropInlinedCss,
  firstLoadWeights,
  manifestFrom,
  precompress,
  serverOptions,
  squeeze,
  ASSETS_OUT,
  stashSourceMaps,
  writeManifest,
  writeFirstLoadReport,
  CLIENT_OUT,
  DIST,
  FINAL_DIST,
} = await import('./bundle.ts');

const started = performance.now();
cleanDist();
const [client] = await Promise.all([esbuild.build(clientOptions(true)), esbuild.build(serverOptions(true))]);
if (!client.metafile) throw new Error('build: esbuild gave no metafile');
const manifest = manifestFrom(client.metafile);
await squeeze(ASSETS_OUT);
stashSourceMaps();
dropInlinedCss(ASSETS_OUT);
copyPublic();
copyServerFiles();
writeManifest(manifest);
precompress(CLIENT_OUT);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const weights = firstLoadWeights(manifest);
const over = weights.filter((w) => w.js > BUDGET.js || w.css > BUDGET.css);
console.log('first load (gzip)  page          js         css');
for (const w of weights)
  console.log(`                   ${w.page.padEnd(12)}  ${kb(w.js).padStart(9)}  ${kb(w.css).padStart(9)}`);
if (over.length > 0) {
  console.error(
    `build: over budget (js ${kb(BUDGET.js)}, css ${kb(BUDGET.css)}): ${over.map((w) => w.page).join(', ')}`,
  );
  rmSync(DIST, { recursive: true, force: true });
  process.exit(1);
}
writeFirstLoadReport(weights);
const old = `${FINAL_DIST}.old-${process.pid}`;
if (existsSync(FINAL_DIST)) renameSync(FINAL_DIST, old);
renameSync(DIST, FINAL_DIST);
rmSync(old, { recursive: true, force: true });
console.log(`build: done in ${Math.round(performance.now() - started)} ms`);

/**
 * The manifest the server reads (src/server/manifest.ts): the loader, the text of the CSS every page
 * inlines, the app's files, and each page's own chunks, read from esbuild's metafile.
 */
import type * as esbuild from 'esbuild';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import type { Manifest } from '../../src/server/manifest.ts';
import { ROOT, type OutputLayout } from './layout.ts';
import { APP_ENTRY, LOADER_ENTRY, PAGES_DIR, ROUTER_MODULE, VITALS_MODULE } from './options.ts';

type Output = [file: string, meta: esbuild.Metafile['outputs'][string]];

/** An output file and every file it imports statically (what the browser fetches with it). */
export function staticClosure(metafile: esbuild.Metafile, file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const imp of metafile.outputs[file]?.imports ?? []) {
    if (imp.kind === 'import-statement' && !imp.external) staticClosure(metafile, imp.path, seen);
  }
  return seen;
}

/** The output built from an entry point (or a dynamically imported module). */
export function outputOf(metafile: esbuild.Metafile, entryPoint: string): Output {
  const output = Object.entries(metafile.outputs).find(
    ([file, o]) => o.entryPoint === entryPoint && file.endsWith('.js'),
  );
  if (!output) throw new Error(`build: no output for ${entryPoint} in the metafile`);
  return output;
}

/** An output path (relative to the root) as the URL the browser fetches. */
export const publicUrl = (layout: OutputLayout, file: string) =>
  `/${relative(layout.client, join(ROOT, file)).split('\\').join('/')}`;

/**
 * Every page inlines the CSS in a <style> (decision 044): nothing in it may end that element. A dev
 * build's map comment goes: relative to the page it would name a file that is never served.
 */
function inlineStyles(appMeta: Output[1]): string {
  if (!appMeta.cssBundle) throw new Error('build: the client app has no CSS output');
  const styles = readFileSync(join(ROOT, appMeta.cssBundle), 'utf8').replace(
    /\/\*# sourceMappingURL=[^*]*\*\/\s*$/,
    '',
  );
  if (/<\/style/i.test(styles))
    throw new Error('build: the CSS contains "</style", which would end the inline <style>');
  return styles;
}

/** The loader and the app with their static imports: the files every first load fetches. */
function entryClosure(metafile: esbuild.Metafile): Set<string> {
  const [loaderFile] = outputOf(metafile, LOADER_ENTRY);
  const [appFile] = outputOf(metafile, APP_ENTRY);
  return staticClosure(metafile, appFile, staticClosure(metafile, loaderFile));
}

export function manifestFrom(metafile: esbuild.Metafile, layout: OutputLayout): Manifest {
  const url = (file: string) => publicUrl(layout, file);
  const [loaderFile] = outputOf(metafile, LOADER_ENTRY);
  const [, appMeta] = outputOf(metafile, APP_ENTRY);
  // The loader imports the app and its static imports (and the page's chunks) after the first paint.
  const entry = entryClosure(metafile);
  const manifest: Manifest = {
    entry: {
      js: url(loaderFile),
      styles: inlineStyles(appMeta),
      imports: [...entry].filter((f) => f !== loaderFile).map(url),
    },
    pages: {},
  };
  for (const [file, meta] of Object.entries(metafile.outputs)) {
    if (!meta.entryPoint?.startsWith(PAGES_DIR) || !file.endsWith('.js')) continue;
    const name = basename(meta.entryPoint, extname(meta.entryPoint));
    manifest.pages[name] = [...staticClosure(metafile, file)].filter((f) => !entry.has(f)).map(url);
  }
  return manifest;
}

export function writeManifest(manifest: Manifest, layout: OutputLayout): void {
  writeFileSync(join(layout.dist, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

/** The router's files (decision 043) the first load does not already have: every page load fetches them after hydration. */
export function routerFiles(metafile: esbuild.Metafile, layout: OutputLayout): string[] {
  const firstLoad = entryClosure(metafile);
  const [routerFile] = outputOf(metafile, ROUTER_MODULE);
  return [...staticClosure(metafile, routerFile)].filter((f) => !firstLoad.has(f)).map((f) => publicUrl(layout, f));
}

/** The field Web Vitals chunk's files that neither the first load nor the router brings: fetched after the page is idle. */
export function afterIdleFiles(metafile: esbuild.Metafile, layout: OutputLayout): string[] {
  const [routerFile] = outputOf(metafile, ROUTER_MODULE);
  const before = staticClosure(metafile, routerFile, entryClosure(metafile));
  const [vitalsFile] = outputOf(metafile, VITALS_MODULE);
  return [...staticClosure(metafile, vitalsFile)].filter((f) => !before.has(f)).map((f) => publicUrl(layout, f));
}

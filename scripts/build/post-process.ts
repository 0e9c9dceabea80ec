/**
 * What the build does to esbuild's output: a second minification, source maps out of the public
 * folder, the inlined CSS files deleted, public/ and the server's files copied, .br/.gz beside
 * every text file.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, extname, join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { minify } from 'terser';
import { ROOT, type OutputLayout } from './layout.ts';

const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.webmanifest', '.txt', '.xml', '.html']);

/** Files the server reads beside its bundle (paths from the root; copied flat into dist/server/). */
export const SERVER_FILES = ['src/server/demo-station/demo-loop.mp3'];

export function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

/** An empty output folder with the bundler's subfolder in place. */
export function cleanOutput(layout: OutputLayout): void {
  rmSync(layout.dist, { recursive: true, force: true });
  mkdirSync(layout.assets, { recursive: true });
}

/**
 * First line of every client JS file: V8 (Chrome 136+) then compiles all of the file's functions
 * eagerly, on a background thread while it streams in, instead of lazily on the main thread while
 * the page hydrates. That takes tens of ms off the long tasks Lighthouse counts as blocking time.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/**
 * A second minification pass over the client JS. esbuild keeps some of react-router's unused
 * module-level code that terser's two compress passes drop: about 2.5 KB gzip off every first load.
 * Source maps are chained so they still point at src/.
 */
export async function squeeze(dir: string): Promise<void> {
  for (const file of walk(dir)) {
    if (!file.endsWith('.js')) continue;
    const mapFile = `${file}.map`;
    const hasMap = existsSync(mapFile);
    const result = await minify(readFileSync(file, 'utf8'), {
      module: true,
      compress: { passes: 2 },
      mangle: true,
      format: { comments: false, preamble: COMPILE_HINT },
      ...(hasMap && { sourceMap: { content: readFileSync(mapFile, 'utf8'), filename: basename(file) } }),
    });
    if (result.code === undefined) throw new Error(`terser produced nothing for ${file}`);
    writeFileSync(file, result.code);
    if (hasMap && typeof result.map === 'string') writeFileSync(mapFile, result.map);
  }
}

/** Moves source maps out of the public folder: kept for debugging, never served. */
export function stashSourceMaps(layout: OutputLayout): void {
  mkdirSync(layout.sourcemaps, { recursive: true });
  for (const file of walk(layout.assets)) {
    if (file.endsWith('.map')) renameSync(file, join(layout.sourcemaps, basename(file)));
  }
}

/** Deletes the CSS files: the manifest holds their text, which every page inlines (decision 044). */
export function dropInlinedCss(dir: string): void {
  for (const file of walk(dir)) if (file.endsWith('.css')) rmSync(file);
}

export function copyPublic(layout: OutputLayout): void {
  const from = join(ROOT, 'public');
  if (existsSync(from)) cpSync(from, layout.client, { recursive: true });
}

export function copyServerFiles(layout: OutputLayout): void {
  mkdirSync(layout.server, { recursive: true });
  for (const file of SERVER_FILES) cpSync(join(ROOT, file), join(layout.server, basename(file)));
}

/** Writes .br and .gz beside every compressible public file, at maximum effort (done once, at build). */
export function precompress(dir: string): void {
  for (const file of walk(dir)) {
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const raw = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(raw, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length },
      }),
    );
  }
}

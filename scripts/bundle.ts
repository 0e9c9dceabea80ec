/**
 * The build, as functions shared by `npm run build` (scripts/build.ts) and
 * `npm run dev` (scripts/dev.ts). The client bundle gets content-hashed names,
 * one chunk per page, extracted CSS, a manifest the server reads, and .br/.gz
 * copies the server sends as they are. The server is bundled too, with
 * node_modules left as imports.
 */
import type * as esbuild from 'esbuild';
import { minify } from 'terser';
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
import { basename, dirname, extname, join, relative } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Manifest } from '../src/server/manifest.ts';

export const ROOT = new URL('..', import.meta.url).pathname;
export const FINAL_DIST = join(ROOT, 'dist');
/** Builds write to a private folder first and swap it in whole, so a running test never sees half a build. */
export const DIST = process.env.BUILD_DIST_DIR ?? FINAL_DIST;
export const CLIENT_OUT = join(DIST, 'client');
export const ASSETS_OUT = join(CLIENT_OUT, 'assets');
export const SERVER_OUT = join(DIST, 'server');
export const PAGES_DIR = 'src/shared/ui/pages/';
/** The client app (hydration); src/client/entry.tsx, the loader the page names, imports it after the first paint. */
export const APP_ENTRY = 'src/client/app.tsx';

/** First-load budgets per route (issues 5 and 12, decision 043), gzip bytes. */
export const BUDGET = { js: 80 * 1024, css: 20 * 1024 };

const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.webmanifest', '.txt', '.xml', '.html']);

/**
 * react-router's package exports point every bundler (and Node) at its development build; its
 * production build drops dev-only warnings and checks. react-router-dom is a re-export of it, so
 * both resolve to the production files, on the client and, bundled in, on the server.
 */
const reactRouterProduction: esbuild.Plugin = {
  name: 'react-router-production',
  setup(build) {
    const files: Record<string, string> = {
      'react-router': 'node_modules/react-router/dist/production/index.mjs',
      'react-router/dom': 'node_modules/react-router/dist/production/dom-export.mjs',
      'react-router-dom': 'node_modules/react-router-dom/dist/index.mjs',
    };
    build.onResolve({ filter: /^react-router(-dom|\/dom)?$/ }, (args) => ({ path: join(ROOT, files[args.path]!) }));
  },
};

const SHARED_CHUNK = join(ROOT, 'src/client/shared-chunk.ts');
/** Our modules that src/client/shared-chunk.ts re-exports. */
const SHARED_MODULES = new Set(
  [
    'src/shared/pages.ts',
    'src/shared/ui/app-context.tsx',
    'src/shared/ui/navigation.tsx',
    'src/shared/ui/PrefetchLink.tsx',
    'src/shared/ui/radio/PlayerProvider.tsx',
  ].map((file) => join(ROOT, file)),
);

/**
 * React, its JSX runtime and our few modules every first load needs, as one chunk
 * (src/client/shared-chunk.ts): imported from our code, they resolve to that module, so they share
 * one set of importers and esbuild emits one chunk for them instead of several: ~1.3 KB gzip off
 * every first load. The shared module and the modules it re-exports resolve the real files.
 * react-router-dom is not among them: only the router chunk, loaded after hydration, imports it
 * (decision 043).
 */
const oneSharedChunk: esbuild.Plugin = {
  name: 'one-shared-chunk',
  setup(build) {
    const ours = join(ROOT, 'src/');
    const redirect = (importer: string) =>
      importer.startsWith(ours) && importer !== SHARED_CHUNK && !SHARED_MODULES.has(importer)
        ? { path: SHARED_CHUNK }
        : undefined;
    build.onResolve({ filter: /^react(\/jsx-runtime)?$/ }, (args) => redirect(args.importer));
    // react-router's react-dom (flushSync) too, so react-dom is not a chunk of its own between the app and the router.
    const reactRouter = join(ROOT, 'node_modules/react-router/');
    build.onResolve({ filter: /^react-dom$/ }, (args) =>
      args.importer.startsWith(reactRouter) ? { path: SHARED_CHUNK } : undefined,
    );
    build.onResolve({ filter: /\/(pages\.ts|(app-context|navigation|PrefetchLink|PlayerProvider)\.tsx)$/ }, (args) =>
      SHARED_MODULES.has(join(dirname(args.importer), args.path)) ? redirect(args.importer) : undefined,
    );
  },
};

export function clientOptions(production: boolean): esbuild.BuildOptions {
  return {
    plugins: production ? [oneSharedChunk, reactRouterProduction] : [],
    absWorkingDir: ROOT,
    entryPoints: ['src/client/entry.tsx', APP_ENTRY],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16.4'],
    outdir: ASSETS_OUT,
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
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    logLevel: 'warning',
  };
}

export function serverOptions(production: boolean): esbuild.BuildOptions {
  return {
    absWorkingDir: ROOT,
    entryPoints: ['src/server/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    outfile: join(SERVER_OUT, 'main.js'),
    packages: 'external',
    plugins: production ? [reactRouterProduction] : [],
    jsx: 'automatic',
    sourcemap: 'linked',
    minify: false,
    define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    logLevel: 'warning',
  };
}

/** Files the server reads beside its bundle (paths from the root; copied flat into dist/server/). */
export const SERVER_FILES = ['src/server/demo-station/demo-loop.mp3'];

export function copyServerFiles(): void {
  mkdirSync(SERVER_OUT, { recursive: true });
  for (const file of SERVER_FILES) cpSync(join(ROOT, file), join(SERVER_OUT, basename(file)));
}

const publicPath = (file: string) => `/${relative(CLIENT_OUT, join(ROOT, file)).split('\\').join('/')}`;

/** Reads esbuild's metafile into the manifest: the entry, the text of its CSS, and each page's own chunks. */
export function manifestFrom(metafile: esbuild.Metafile): Manifest {
  const outputs = Object.entries(metafile.outputs);
  const staticClosure = (file: string, seen = new Set<string>()): Set<string> => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const imp of metafile.outputs[file]?.imports ?? []) {
      if (imp.kind === 'import-statement' && !imp.external) staticClosure(imp.path, seen);
    }
    return seen;
  };

  const entryOut = outputs.find(([, o]) => o.entryPoint === 'src/client/entry.tsx');
  if (!entryOut) throw new Error('build: client entry output missing from metafile');
  const [entryFile] = entryOut;
  // The entry is the loader; it imports the app and its static imports after the first paint.
  const appOut = outputs.find(([, o]) => o.entryPoint === APP_ENTRY);
  if (!appOut) throw new Error('build: client app output missing from metafile');
  const [appFile, appMeta] = appOut;
  const entryClosure = staticClosure(appFile, staticClosure(entryFile));
  // Every page inlines the CSS in a <style> (decision 044): nothing in it may end that element. A
  // dev build's map comment goes: relative to the page it would name a file that is never served.
  if (!appMeta.cssBundle) throw new Error('build: the client app has no CSS output');
  const styles = readFileSync(join(ROOT, appMeta.cssBundle), 'utf8').replace(
    /\/\*# sourceMappingURL=[^*]*\*\/\s*$/,
    '',
  );
  if (/<\/style/i.test(styles))
    throw new Error('build: the CSS contains "</style", which would end the inline <style>');
  const manifest: Manifest = {
    entry: {
      js: publicPath(entryFile),
      styles,
      imports: [...entryClosure].filter((f) => f !== entryFile).map(publicPath),
    },
    pages: {},
  };
  for (const [file, meta] of outputs) {
    if (!meta.entryPoint?.startsWith(PAGES_DIR) || !file.endsWith('.js')) continue;
    const name = basename(meta.entryPoint, extname(meta.entryPoint));
    manifest.pages[name] = [...staticClosure(file)].filter((f) => !entryClosure.has(f)).map(publicPath);
  }
  return manifest;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
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
export function stashSourceMaps(): void {
  const target = join(DIST, 'sourcemaps');
  mkdirSync(target, { recursive: true });
  for (const file of walk(ASSETS_OUT)) {
    if (file.endsWith('.map')) renameSync(file, join(target, basename(file)));
  }
}

/** Deletes the CSS files: the manifest holds their text, which every page inlines (decision 044). */
export function dropInlinedCss(dir: string): void {
  for (const file of walk(dir)) if (file.endsWith('.css')) rmSync(file);
}

export function copyPublic(): void {
  const from = join(ROOT, 'public');
  if (existsSync(from)) cpSync(from, CLIENT_OUT, { recursive: true });
}

export function writeManifest(manifest: Manifest): void {
  writeFileSync(join(DIST, 'manifest.json'), JSON.stringify(manifest, null, 2));
}

export function cleanDist(): void {
  rmSync(DIST, { recursive: true, force: true });
  mkdirSync(ASSETS_OUT, { recursive: true });
}

export interface RouteWeight {
  page: string;
  js: number;
  css: number;
}

/** Where the build writes its first-load figures and budget, read by the budget test (test/budgets.test.ts). */
export const FIRST_LOAD_REPORT = 'first-load.json';

export function writeFirstLoadReport(weights: RouteWeight[]): void {
  writeFileSync(join(DIST, FIRST_LOAD_REPORT), JSON.stringify({ budget: BUDGET, pages: weights }, null, 2));
}

/** First-load gzip bytes per page: entry JS and its imports plus the page's chunks; the inlined CSS. `clientDir` holds the public files. */
export function firstLoadWeights(manifest: Manifest, clientDir: string = CLIENT_OUT): RouteWeight[] {
  const gz = (url: string) => gzipSync(readFileSync(join(clientDir, url)), { level: 9 }).length;
  const entryJs = [manifest.entry.js, ...manifest.entry.imports].reduce((sum, f) => sum + gz(f), 0);
  // The CSS is inlined in every page's HTML (decision 044): its gzip bytes ride with each page.
  const css = gzipSync(manifest.entry.styles, { level: 9 }).length;
  return Object.entries(manifest.pages).map(([page, files]) => ({
    page,
    js: entryJs + files.reduce((sum, f) => sum + gz(f), 0),
    css,
  }));
}

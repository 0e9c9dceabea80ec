/**
 * Public files from the build, held in memory with their .br/.gz twins.
 * Hashed files under /assets/ are immutable for a year; a missing asset is a
 * fast 404, never a page render.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { RequestHandler } from 'express';
import type { PageAssets } from '../shared/boot.ts';
import { SERVICE_WORKER_PATH } from '../shared/service-worker.ts';
import { etagOf, prepareRepresentation, sendRepresentation, type PreparedRepresentation } from './http-cache.ts';
import type { Manifest } from './manifest.ts';
import type { HeaderList } from './security.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.mp3': 'audio/mpeg',
};

export const IMMUTABLE = 'public, max-age=31536000, immutable';
const SHORT = 'public, max-age=3600';
/** The service worker's script: the browser asks the server each time it checks for a new one. */
const WORKER = 'no-cache';

const cacheControlOf = (url: string) =>
  url.startsWith('/assets/') ? IMMUTABLE : url === SERVICE_WORKER_PATH ? WORKER : SHORT;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

/** Each page's chunks after its own (the manifest lists a page's own chunk first), where it has any. */
function pageDependencies(manifest: Manifest): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(manifest.pages).flatMap(([module, [, ...imports]]) => (imports.length ? [[module, imports]] : [])),
  );
}

/** Asset links for a page module; a page the build does not know about is a build bug, so fail loudly. */
export function pageAssets(manifest: Manifest, module: string): PageAssets {
  const chunks = manifest.pages[module];
  if (!chunks) throw new Error(`manifest has no chunk for page module "${module}"`);
  return {
    entry: manifest.entry.js,
    preload: [...manifest.entry.imports, ...chunks],
    pageDependencies: pageDependencies(manifest),
  };
}

export interface StaticFiles {
  /** Whether a path (without query) names a file we hold. */
  has(path: string): boolean;
  /** The paths of the files we hold outside /assets/ (the fixed files: icons, manifest, worker, ...). */
  fixed: readonly string[];
  /** The Express chain's handler: GET/HEAD of a file we hold, or a fast 404 under /assets/. */
  middleware: RequestHandler;
}

/** A file held in memory with its .br/.gz twins (when the build wrote them), its answers prepared. */
function prepareFile(full: string, url: string, security: HeaderList): PreparedRepresentation {
  const identity = readFileSync(full);
  const representation = {
    etag: etagOf(identity),
    identity,
    ...(existsSync(`${full}.br`) && { br: readFileSync(`${full}.br`) }),
    ...(existsSync(`${full}.gz`) && { gzip: readFileSync(`${full}.gz`) }),
  };
  return prepareRepresentation(
    representation,
    { contentType: TYPES[extname(full)] ?? 'application/octet-stream', cacheControl: cacheControlOf(url) },
    security,
  );
}

/**
 * The public files. `killSwitch`, when given (SERVICE_WORKER=off), is the file served at the
 * worker's URL instead of the worker (decision 052).
 */
export function staticFiles(clientDir: string, security: HeaderList, killSwitch?: string): StaticFiles {
  const files = new Map<string, PreparedRepresentation>();
  for (const full of walk(clientDir)) {
    if (full.endsWith('.br') || full.endsWith('.gz') || full.endsWith('.map')) continue;
    const url = `/${relative(clientDir, full).split('\\').join('/')}`;
    files.set(url, prepareFile(full, url, security));
  }
  if (killSwitch) files.set(SERVICE_WORKER_PATH, prepareFile(killSwitch, SERVICE_WORKER_PATH, security));

  const middleware: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = files.get(req.path);
    if (!file) {
      if (req.path.startsWith('/assets/')) {
        res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
        return;
      }
      return next();
    }
    sendRepresentation(req, res, file, 'security');
  };
  const fixed = [...files.keys()].filter((url) => !url.startsWith('/assets/'));
  return { has: (path) => files.has(path) || path.startsWith('/assets/'), fixed, middleware };
}

/**
 * Public files from the build, held in memory with their .br/.gz twins.
 * Hashed files under /assets/ are immutable for a year; a missing asset is a
 * fast 404, never a page render.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { RequestHandler } from 'express';
import type { PageAssets } from '../shared/boot.ts';
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

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

/** Asset links for a page module; a page the build does not know about is a build bug, so fail loudly. */
export function pageAssets(manifest: Manifest, module: string): PageAssets {
  const chunks = manifest.pages[module];
  if (!chunks) throw new Error(`manifest has no chunk for page module "${module}"`);
  return { entry: manifest.entry.js, preload: [...manifest.entry.imports, ...chunks] };
}

export interface StaticFiles {
  /** Whether a path (without query) names a file we hold. */
  has(path: string): boolean;
  /** The Express chain's handler: GET/HEAD of a file we hold, or a fast 404 under /assets/. */
  middleware: RequestHandler;
}

export function staticFiles(clientDir: string, security: HeaderList): StaticFiles {
  const files = new Map<string, PreparedRepresentation>();
  for (const full of walk(clientDir)) {
    if (full.endsWith('.br') || full.endsWith('.gz') || full.endsWith('.map')) continue;
    const url = `/${relative(clientDir, full).split('\\').join('/')}`;
    const identity = readFileSync(full);
    const representation = {
      etag: etagOf(identity),
      identity,
      ...(existsSync(`${full}.br`) && { br: readFileSync(`${full}.br`) }),
      ...(existsSync(`${full}.gz`) && { gzip: readFileSync(`${full}.gz`) }),
    };
    files.set(
      url,
      prepareRepresentation(
        representation,
        {
          contentType: TYPES[extname(full)] ?? 'application/octet-stream',
          cacheControl: url.startsWith('/assets/') ? IMMUTABLE : SHORT,
        },
        security,
      ),
    );
  }

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
  return { has: (path) => files.has(path) || path.startsWith('/assets/'), middleware };
}

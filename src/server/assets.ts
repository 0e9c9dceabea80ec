/**
 * Public files from the build, held in memory with their .br/.gz twins.
 * Hashed files under /assets/ are immutable for a year; a missing asset is a
 * fast 404, never a page render.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { Request, RequestHandler } from 'express';
import type { Manifest } from '../../scripts/bundle.ts';
import type { PageAssets } from '../shared/boot.ts';

export type { Manifest };

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

interface StaticFile {
  type: string;
  etag: string;
  cacheControl: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/** Picks the smallest encoding the client accepts among those we hold. */
export function negotiateEncoding(req: Request, has: { br?: unknown; gzip?: unknown }): 'br' | 'gzip' | null {
  const offers = [has.br ? 'br' : null, has.gzip ? 'gzip' : null].filter((x): x is string => x !== null);
  if (offers.length === 0) return null;
  const chosen = req.acceptsEncodings([...offers, 'identity']);
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

export function loadManifest(distDir: string): Manifest {
  const file = join(distDir, 'manifest.json');
  if (!existsSync(file)) throw new Error(`build output missing: ${file} (run "npm run build")`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

/** Asset links for a page module; a page the build does not know about is a build bug, so fail loudly. */
export function pageAssets(manifest: Manifest, module: string): PageAssets {
  const chunks = manifest.pages[module];
  if (!chunks) throw new Error(`manifest has no chunk for page module "${module}"`);
  return { css: manifest.entry.css, entry: manifest.entry.js, preload: [...manifest.entry.imports, ...chunks] };
}

export function staticFiles(clientDir: string): RequestHandler {
  const files = new Map<string, StaticFile>();
  for (const full of walk(clientDir)) {
    if (full.endsWith('.br') || full.endsWith('.gz') || full.endsWith('.map')) continue;
    const url = '/' + relative(clientDir, full).split('\\').join('/');
    const identity = readFileSync(full);
    files.set(url, {
      type: TYPES[extname(full)] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(identity).digest('base64url').slice(0, 20)}"`,
      cacheControl: url.startsWith('/assets/') ? IMMUTABLE : SHORT,
      identity,
      ...(existsSync(`${full}.br`) && { br: readFileSync(`${full}.br`) }),
      ...(existsSync(`${full}.gz`) && { gzip: readFileSync(`${full}.gz`) }),
    });
  }

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = files.get(req.path);
    if (!file) {
      if (req.path.startsWith('/assets/')) {
        res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('Not found');
        return;
      }
      return next();
    }
    const encoding = negotiateEncoding(req, file);
    const body = encoding ? file[encoding]! : file.identity;
    res.set({
      'Content-Type': file.type,
      'Cache-Control': file.cacheControl,
      ETag: file.etag,
      Vary: 'Accept-Encoding',
      'Content-Length': String(body.length),
    });
    if (encoding) res.set('Content-Encoding', encoding);
    if (req.headers['if-none-match'] === file.etag) {
      res.status(304).end();
      return;
    }
    res.status(200);
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  };
}

/**
 * Public files from the build, held in memory with their .br/.gz twins.
 * Hashed files under /assets/ are immutable for a year; a missing asset is a
 * fast 404, never a page render.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { Request, RequestHandler } from 'express';
import type { PageAssets } from '../shared/boot.ts';
import type { Manifest } from './manifest.ts';

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

/**
 * Picks the encoding to send among those we hold: the client's highest q-value, and on a tie the
 * smaller one, brotli. (Express's acceptsEncodings breaks ties by the client's order, and browsers
 * list gzip first, so they were never sent the brotli files the build writes.)
 */
export function negotiateEncoding(req: Request, has: { br?: unknown; gzip?: unknown }): 'br' | 'gzip' | null {
  const header = req.headers['accept-encoding'];
  if (!header || (!has.br && !has.gzip)) return null;
  const q = acceptedEncodings(header);
  const qOf = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  const br = has.br ? qOf('br') : 0;
  const gzip = has.gzip ? qOf('gzip') : 0;
  // identity is acceptable unless refused explicitly (RFC 9110 §12.5.3).
  const identity = q.get('identity') ?? (q.get('*') === 0 ? 0 : 1);
  const best = Math.max(br, gzip);
  if (best === 0 || best < identity) return null;
  return br === best ? 'br' : 'gzip';
}

const acceptCache = new Map<string, Map<string, number>>();

/** Accept-Encoding as coding → q (lower-case names), memoised: clients send a handful of distinct values. */
function acceptedEncodings(header: string): Map<string, number> {
  let parsed = acceptCache.get(header);
  if (parsed) return parsed;
  parsed = new Map();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const qParam = params.find((p) => /^q=/i.test(p));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    const coding = name.toLowerCase();
    // The first mention of a coding wins; a malformed q counts as refusal.
    if (!parsed.has(coding)) parsed.set(coding, Number.isFinite(value) && value > 0 ? Math.min(value, 1) : 0);
  }
  if (acceptCache.size >= 256) acceptCache.clear();
  acceptCache.set(header, parsed);
  return parsed;
}

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
  return { css: manifest.entry.css, entry: manifest.entry.js, preload: [...manifest.entry.imports, ...chunks] };
}

export function staticFiles(clientDir: string): RequestHandler {
  const files = new Map<string, StaticFile>();
  for (const full of walk(clientDir)) {
    if (full.endsWith('.br') || full.endsWith('.gz') || full.endsWith('.map')) continue;
    const url = `/${relative(clientDir, full).split('\\').join('/')}`;
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

/**
 * GET/HEAD /api/rewind/<port>/<name>: the window's files, answered by the app when it runs alone
 * (deploy/nginx.conf serves the same files from disk without asking it). Exactly these names:
 * `playlist.m3u8`, `window.json` and segment names (window.ts's SEGMENT_NAME); a port that is not
 * an allowed one, or not a port, is a 400 (as for /api/stream), any other name a 404 (`..` and
 * escapes such as %2F never match). Segments never change: immutable for a year, with Range; the
 * playlist and window.json change with every segment: a second's freshness. Audio is never
 * compressed (this lane comes before Express's compression).
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathOf } from '../request-target.ts';
import { SEGMENT_NAME } from './window.ts';
import { PLAYLIST_FILE, WINDOW_FILE } from './window-store.ts';

export const REWIND_PREFIX = '/api/rewind/';
/** How long a shared cache or browser may keep the playlist and window.json (less than any segment). */
export const PLAYLIST_MAX_AGE_S = 1;

export const SEGMENT_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const PLAYLIST_CACHE_CONTROL = `public, max-age=${PLAYLIST_MAX_AGE_S}`;

const PORT_TEXT = /^[1-9]\d{0,4}$/;

/** window.json when there is none on disk (rewind off, or nothing recorded yet). */
const NOT_RECORDING = `${JSON.stringify({ recording: false, start: null, end: null, titles: [] })}\n`;

interface Kind {
  type: string;
  cacheControl: string;
}

function kindOf(name: string): Kind | null {
  if (name === PLAYLIST_FILE) return { type: 'application/vnd.apple.mpegurl', cacheControl: PLAYLIST_CACHE_CONTROL };
  if (name === WINDOW_FILE) return { type: 'application/json; charset=utf-8', cacheControl: PLAYLIST_CACHE_CONTROL };
  if (SEGMENT_NAME.test(name)) return { type: 'audio/mpeg', cacheControl: SEGMENT_CACHE_CONTROL };
  return null;
}

function answerText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(res.req.method === 'HEAD' ? undefined : text);
}

/** A single `bytes=` range within `size`: [first, last], 'unsatisfiable', or null (none, or several: the whole file). */
export function byteRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | null {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, from = '', to = ''] = match;
  if (from === '') {
    const suffix = Number(to);
    return suffix === 0 ? 'unsatisfiable' : [Math.max(0, size - suffix), size - 1];
  }
  const first = Number(from);
  const last = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  // "bytes=5-2" is no valid range: ignored, the whole file is sent (RFC 9110 14.1.1).
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(last) || (to !== '' && Number(to) < first)) return null;
  return first >= size ? 'unsatisfiable' : [first, last];
}

function sendFile(req: IncomingMessage, res: ServerResponse, body: Buffer, kind: Kind): void {
  const headers: Record<string, string | number> = { 'Content-Type': kind.type, 'Cache-Control': kind.cacheControl };
  const range = byteRange(req.headers.range, body.length);
  headers['Accept-Ranges'] = 'bytes';
  if (range === 'unsatisfiable') {
    res.writeHead(416, { ...headers, 'Content-Range': `bytes */${body.length}`, 'Content-Length': 0 });
    res.end();
    return;
  }
  const [first, last] = range ?? [0, body.length - 1];
  const part = range ? body.subarray(first, last + 1) : body;
  if (range) headers['Content-Range'] = `bytes ${first}-${last}/${body.length}`;
  res.writeHead(range ? 206 : 200, { ...headers, 'Content-Length': part.length });
  res.end(req.method === 'HEAD' ? undefined : part);
}

export type RewindFiles = (req: IncomingMessage, res: ServerResponse) => boolean;

/** A segment of `port` answered (200 or 206) to `req`: how the window's listeners are counted when the app serves it. */
export type OnSegment = (req: IncomingMessage, port: number) => void;

/**
 * The handler for `/api/rewind/...` (false for any other path or method: not ours). `dir` null:
 * rewind is off, nothing is read (window.json says it is not recording, the rest is 404).
 */
export function serveRewindFiles(
  dir: string | null,
  allowedPorts: readonly number[],
  onSegment?: OnSegment,
): RewindFiles {
  const send = (req: IncomingMessage, res: ServerResponse, port: string, name: string, kind: Kind) => {
    const read = dir === null ? Promise.reject(new Error('rewind is off')) : readFile(join(dir, port, name));
    read.then(
      (body) => {
        // A segment about to be sent whole or in part (not a 416): a listener's fetch.
        const segment = kind.type === 'audio/mpeg' && req.method === 'GET';
        if (onSegment && segment && byteRange(req.headers.range, body.length) !== 'unsatisfiable') {
          onSegment(req, Number(port));
        }
        sendFile(req, res, body, kind);
      },
      () => {
        if (name === WINDOW_FILE) sendFile(req, res, Buffer.from(NOT_RECORDING), kind);
        else answerText(res, 404, 'Not found');
      },
    );
  };
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = pathOf(req.url ?? '');
    if (!path.startsWith(REWIND_PREFIX)) return false;
    const [port = '', name = '', ...more] = path.slice(REWIND_PREFIX.length).split('/');
    const kind = more.length > 0 ? null : kindOf(name);
    if (!PORT_TEXT.test(port) || !allowedPorts.includes(Number(port))) answerText(res, 400, 'Invalid rewind request');
    else if (!kind) answerText(res, 404, 'Not found');
    else send(req, res, port, name, kind);
    return true;
  };
}

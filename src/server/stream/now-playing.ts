/**
 * GET /api/now-playing?port=N: the current title and listener count, read
 * from the upstream's Icecast status (/status-json.xsl) and cached for a few
 * seconds so any number of pages polling it cost one upstream request per
 * interval. Icecast's JSON is not always valid, and `source` may be missing,
 * one object or an array: anything unexpected yields nulls, and the page
 * shows its default text.
 */
import { get } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { StreamConfig } from './config.ts';
import { requestedPort } from './port-param.ts';

export interface NowPlaying {
  /** Whether the mount has a source right now (null: status unknown). */
  live: boolean | null;
  title: string | null;
  listeners: number | null;
}

export const UNKNOWN: NowPlaying = { live: null, title: null, listeners: null };

const MAX_STATUS_BYTES = 256 * 1024;
const MAX_TITLE_LENGTH = 160;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function cleanText(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value)
    .replace(/\p{Cc}/gu, ' ') // control characters (C0, DEL, C1)
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return null;
  return text.length > MAX_TITLE_LENGTH ? `${text.slice(0, MAX_TITLE_LENGTH - 1)}…` : text;
}

function mountOf(listenurl: unknown): string | null {
  if (typeof listenurl !== 'string') return null;
  try {
    return new URL(listenurl).pathname;
  } catch {
    return null;
  }
}

/** Reads Icecast's status JSON for one mount; never throws. */
export function parseIcecastStatus(body: string, mount: string): NowPlaying {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return UNKNOWN;
  }
  if (!isRecord(data) || !isRecord(data.icestats)) return UNKNOWN;
  const raw = data.icestats.source;
  const sources = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter(isRecord);
  const source =
    sources.find((s) => mountOf(s.listenurl) === mount) ??
    (sources.length === 1 && mountOf(sources[0]!.listenurl) === null ? sources[0] : undefined);
  if (!source) return { live: false, title: null, listeners: null };
  const title = cleanText(source.title);
  const artist = cleanText(source.artist);
  const listeners =
    typeof source.listeners === 'number' && Number.isSafeInteger(source.listeners) && source.listeners >= 0
      ? source.listeners
      : null;
  return { live: true, title: artist && title ? cleanText(`${artist} - ${title}`) : title, listeners };
}

function fetchStatus(url: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false, headers: { accept: 'application/json' }, timeout: timeoutMs }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        reject(new Error(`status ${res.statusCode}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_STATUS_BYTES) req.destroy(new Error('status too large'));
        else chunks.push(chunk);
      });
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('status timed out')));
    req.on('error', reject);
  });
}

export function createNowPlayingHandler(config: StreamConfig, logger: Logger): RequestHandler {
  const log = logger.child({ component: 'now-playing' });
  const cache = new Map<number, { value: NowPlaying; expires: number; pending?: Promise<NowPlaying> }>();
  const timeoutMs = Math.min(config.connectTimeoutMs, 3_000);

  async function load(port: number): Promise<NowPlaying> {
    const host = config.upstreamHost ?? '127.0.0.1';
    const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.upstreamPorts[port] ?? port}/status-json.xsl`;
    try {
      return parseIcecastStatus(await fetchStatus(url, timeoutMs), config.mount);
    } catch (err) {
      log.debug({ err: (err as Error).message, port }, 'icecast status unavailable');
      return UNKNOWN;
    }
  }

  function current(port: number): Promise<NowPlaying> {
    const entry = cache.get(port);
    if (entry?.pending) return entry.pending;
    if (entry && entry.expires > Date.now()) return Promise.resolve(entry.value);
    // One upstream request at a time per port; callers meanwhile share it.
    const pending = load(port).then((value) => {
      cache.set(port, { value, expires: Date.now() + config.statusCacheMs });
      return value;
    });
    cache.set(port, { value: entry?.value ?? UNKNOWN, expires: 0, pending });
    return pending;
  }

  return (req, res, next) => {
    const port = requestedPort(req.originalUrl, config.allowedPorts);
    if (port === null) {
      res.status(400).set('Cache-Control', 'no-store').type('text/plain').send('Invalid stream request');
      return;
    }
    current(port)
      .then((value) => {
        res.set('Cache-Control', `public, max-age=${Math.max(1, Math.floor(config.statusCacheMs / 1000))}`).json(value);
      })
      .catch(next);
  };
}

/**
 * Icecast's status page (/status-json.xsl), read for what is on air (now-playing.ts) and for
 * HEAD /api/stream (head.ts): one upstream request at a time per port, reused for a few seconds.
 * Icecast's JSON is not always valid and `source` may be missing, one object or an array:
 * anything unexpected yields nulls. A page that is too big, never finishes, or is not there (Icecast
 * answers 404 when it cannot read its status-json.xsl; anything but 200) says nothing about the
 * mount (status 200, unknown), since a listener's GET would still play; only a refused connection
 * (502) or no answer at all (504) says the upstream is down. An unknown reading is not recorded
 * as the upstream's health: a listener's GET says more.
 */
import { get } from 'node:http';
import type { StreamConfig } from './config.ts';
import { titleText } from './title-text.ts';
import { upstreamOrigin, type UpstreamHealth, type UpstreamStatus } from './upstream.ts';

export interface NowPlaying {
  /** Whether the mount has a source right now (null: status unknown). */
  live: boolean | null;
  title: string | null;
  listeners: number | null;
  /**
   * Pushed only (now-playing-reader.ts): this process's newest listener, so its player knows how
   * late it hears the live edge (docs/decisions/057): the seconds of past audio it started with,
   * and when (this process's performance.now()) its first byte was at the live edge, which an
   * event says as ms before it was written (now-playing-events.ts). Absent while the process does
   * not relay the mount. Not a change of its own: it rides on one.
   */
  newest?: { lagS: number; fromMs: number };
  /**
   * Pushed only (now-playing-reader.ts): when (performance.now()) the title started, halfway
   * between the status reading without it and the one with it; an event says it as ms before it
   * was written (`changed`). Absent when the title was there at the first reading.
   */
  titleSince?: number;
}

export const UNKNOWN: NowPlaying = { live: null, title: null, listeners: null };

const MAX_STATUS_BYTES = 256 * 1024;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

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
  const title = titleText(source.title);
  const artist = titleText(source.artist);
  const listeners =
    typeof source.listeners === 'number' && Number.isSafeInteger(source.listeners) && source.listeners >= 0
      ? source.listeners
      : null;
  return { live: true, title: artist && title ? titleText(`${artist} - ${title}`) : title, listeners };
}

class StatusError extends Error {
  // A plain field, not a parameter property: scripts run this module under Node's type stripping.
  readonly status: UpstreamStatus;
  constructor(status: UpstreamStatus) {
    super(`upstream status ${status}`);
    this.status = status;
  }
}

/** The status page's body, or null when it is not there, too big, or does not finish in time. */
function fetchStatus(url: string, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false, headers: { accept: 'application/json' }, timeout: timeoutMs }, (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        resolve(null);
        return;
      }
      // The head is in, so Icecast answers: from here a slow body only makes the page unreadable.
      req.setTimeout(0);
      const chunks: Buffer[] = [];
      let size = 0;
      const giveUp = () => {
        resolve(null);
        req.destroy();
      };
      const deadline = setTimeout(giveUp, timeoutMs);
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_STATUS_BYTES) giveUp();
        else chunks.push(chunk);
      });
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('close', () => {
        clearTimeout(deadline);
        resolve(null);
      });
    });
    req.on('timeout', () => req.destroy(new StatusError(504)));
    req.on('error', reject);
  });
}

export interface StatusReading {
  /** What GET /api/stream would answer now (200: the mount is on the air, or the status said nothing). */
  status: UpstreamStatus;
  nowPlaying: NowPlaying;
}

export interface IcecastStatus {
  /** The status, from a reading at most maxAgeMs old or a new one (shared with concurrent callers). */
  read(port: number, maxAgeMs: number): Promise<StatusReading>;
}

export function createIcecastStatus(config: StreamConfig, health: UpstreamHealth): IcecastStatus {
  const cache = new Map<number, { value: StatusReading; at: number; pending?: Promise<StatusReading> }>();
  // No status within this: answer 504, as a listener would get after connectTimeoutMs.
  const timeoutMs = Math.min(config.connectTimeoutMs, 3_000);

  async function load(port: number): Promise<StatusReading> {
    try {
      const body = await fetchStatus(`${upstreamOrigin(config, port)}/status-json.xsl`, timeoutMs);
      const nowPlaying = body === null ? UNKNOWN : parseIcecastStatus(body, config.mount);
      return { status: nowPlaying.live === false ? 503 : 200, nowPlaying };
    } catch (err) {
      return { status: err instanceof StatusError ? err.status : 502, nowPlaying: UNKNOWN };
    }
  }

  return {
    read(port, maxAgeMs) {
      const entry = cache.get(port);
      if (entry?.pending) return entry.pending;
      if (entry && Date.now() - entry.at <= maxAgeMs) return Promise.resolve(entry.value);
      const pending = load(port).then((value) => {
        cache.set(port, { value, at: Date.now() });
        if (value.status !== 200 || value.nowPlaying.live !== null) health.record(port, value.status);
        return value;
      });
      cache.set(port, { value: entry?.value ?? { status: 200, nowPlaying: UNKNOWN }, at: 0, pending });
      return pending;
    },
  };
}

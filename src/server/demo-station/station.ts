/**
 * The built-in demo station: a tiny Icecast-compatible server on loopback,
 * used when no STREAM_UPSTREAM_HOST is configured, so `npm start` plays
 * sound on /radio out of the box. Like Icecast it serves one mount as
 * `audio/mpeg` at real-time rate to every listener from one shared clock
 * (a radio, not a file download), gives a new listener a short burst that
 * starts on a frame boundary, drops listeners that stop reading, and answers
 * /status-json.xsl in Icecast's shape.
 */
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { splitFrames } from '../audio/mp3-frames.ts';
import { pathOf } from '../request-target.ts';

/**
 * The audio: 460 MPEG-1 Layer III frames (12.02 s, 96 kbps, 44.1 kHz joint
 * stereo) that loop seamlessly, made by scripts/make-demo-audio.ts. The file
 * sits beside this module: in src/ when run from source, in dist/server/ once
 * bundled (scripts/bundle.ts copies it there).
 */
export const DEMO_LOOP_FILE = new URL('./demo-loop.mp3', import.meta.url);

export interface DemoStationOptions {
  mount: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  logger?: Logger;
  /** How long each of DEMO_TITLES stays on air (DEMO_TITLE_MS by default). */
  titleEveryMs?: number;
}

export interface DemoStation {
  port: number;
  url: string;
  readonly listeners: number;
  close(): Promise<void>;
}

export const DEMO_STATION_NAME = 'Chicago City Radio (demo)';
/** What the demo station says is on air, in turn, so a newcomer sees the title follow the station live. */
export const DEMO_TITLES = [
  'Lakefront Drift (demo loop)',
  'Morning on the L (demo loop)',
  'Wacker Drive at Dusk (demo loop)',
  'Prairie Wind (demo loop)',
] as const;
export const DEMO_TITLE = DEMO_TITLES[0];
/** How long each demo title stays on air. */
export const DEMO_TITLE_MS = 30_000;

const TICK_MS = 100;
const BURST_SECONDS = 2;
/** A listener this far behind (about 40 s of audio) has stopped reading: drop it, as Icecast's queue-size does. */
const MAX_QUEUED_BYTES = 512 * 1024;

interface Loop {
  /** The frames twice over, so any run of frames (wrapping round the end) is one zero-copy slice. */
  bytes: Buffer;
  /** Start offset of frame i in `bytes`, for i in 0..2n. */
  offsets: number[];
  count: number;
  frameMs: number;
  bitrateKbps: number;
}

function loadLoop(): Loop {
  const once = readFileSync(DEMO_LOOP_FILE);
  const frames = splitFrames(once);
  if (frames.length === 0) throw new Error('demo station: the audio loop has no MP3 frames');
  const bytes = Buffer.concat([once, once]);
  const offsets = [0];
  for (const frame of [...frames, ...frames]) offsets.push(offsets.at(-1)! + frame.length);
  const frameMs = (1152 / 44_100) * 1000;
  return {
    bytes,
    offsets,
    count: frames.length,
    frameMs,
    bitrateKbps: Math.round((once.length * 8) / (frames.length * frameMs)),
  };
}

/** Icecast's status page (status-json.xsl), with the one source. */
function statusJson(listenUrl: string, listeners: number, title: string, bitrateKbps: number): string {
  return JSON.stringify({
    icestats: {
      server_id: 'demo-station',
      source: {
        listenurl: listenUrl,
        listeners,
        server_name: DEMO_STATION_NAME,
        server_type: 'audio/mpeg',
        title,
        bitrate: bitrateKbps,
      },
    },
  });
}

/** The stream's response head, as Icecast sends it. */
const streamHeaders = (bitrateKbps: number) => ({
  Connection: 'close',
  'Content-Type': 'audio/mpeg',
  'Cache-Control': 'no-cache, no-store',
  'icy-name': DEMO_STATION_NAME,
  'icy-description': 'A synthesised loop, played when no Icecast upstream is configured',
  'icy-genre': 'Ambient',
  'icy-br': String(bitrateKbps),
  'icy-pub': '0',
});

export async function startDemoStation(options: DemoStationOptions): Promise<DemoStation> {
  const loop = loadLoop();
  const listeners = new Set<ServerResponse>();
  const burstFrames = Math.round((BURST_SECONDS * 1000) / loop.frameMs);
  // The clock starts one burst in, so even the first listener gets its burst at once.
  const started = performance.now() - burstFrames * loop.frameMs;
  const titleEveryMs = options.titleEveryMs ?? DEMO_TITLE_MS;
  const onAir = () => DEMO_TITLES[Math.floor((performance.now() - started) / titleEveryMs) % DEMO_TITLES.length]!;
  /** Frames sent so far by the shared clock (grows forever; position in the loop is this modulo count). */
  let sent = burstFrames;

  /** Frames [from, to) of the endless stream as one slice; runs longer than the loop are capped. */
  const slice = (from: number, to: number): Buffer => {
    const start = from % loop.count;
    const n = Math.min(to - from, loop.count);
    return loop.bytes.subarray(loop.offsets[start]!, loop.offsets[start + n]!);
  };

  const tick = setInterval(() => {
    const due = Math.floor((performance.now() - started) / loop.frameMs);
    if (due <= sent) return;
    const chunk = slice(sent, due);
    sent = due;
    for (const res of listeners) {
      if (res.writableLength > MAX_QUEUED_BYTES) res.destroy();
      else res.write(chunk);
    }
  }, TICK_MS);
  tick.unref();

  const server = createServer((req, res) => {
    const path = pathOf(req.url ?? '/');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    if (path === '/status-json.xsl') {
      const host = req.headers.host ?? `${options.host ?? '127.0.0.1'}`;
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-cache, no-store' });
      res.end(statusJson(`http://${host}${options.mount}`, listeners.size, onAir(), loop.bitrateKbps));
      return;
    }
    if (path !== options.mount) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    // Like Icecast: no chunked encoding, the body ends when the connection does.
    res.removeHeader('Transfer-Encoding');
    res.writeHead(200, streamHeaders(loop.bitrateKbps));
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    // A short burst from a frame boundary, so players start at once.
    res.write(slice(sent - burstFrames, sent));
    listeners.add(res);
    res.on('close', () => listeners.delete(res));
  });
  server.keepAliveTimeout = 1_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}${options.mount}`;
  options.logger?.info({ url, bitrateKbps: loop.bitrateKbps }, 'demo station on the air');

  return {
    port,
    url,
    get listeners() {
      return listeners.size;
    },
    close() {
      clearInterval(tick);
      for (const res of listeners) res.end();
      listeners.clear();
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

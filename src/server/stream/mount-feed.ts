/**
 * One upstream connection per mount per process, shared by all of the process's listeners, as
 * an Icecast relay does (docs/decisions/022-one-upstream-per-mount.md has the memory figures):
 * - The first listener opens the exchange (upstream-exchange.ts); those who come while it
 *   connects wait for its answer, and all get the same one: the stream, or the error status.
 * - Every chunk read from the upstream is written to every listener (the same Buffer, no copy),
 *   and kept in a short burst (burst.ts), which a new listener gets first so it starts at once.
 * - A listener far behind the live point (more than MAX_BEHIND_BYTES waiting for it in Node) is
 *   ended, as Icecast's queue limit does: it would hold old chunks for as long as it lags.
 * - The upstream's silence beyond idleTimeoutMs (longer than Icecast's source timeout) or its end
 *   ends every listener; the players reconnect. The last listener leaving closes the upstream.
 * An MP3 stream starts on a frame boundary (the upstream's first bytes may be a partial frame).
 */
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { createFrameAligner, type FrameAligner } from '../audio/mp3-frames.ts';
import { createBurst } from './burst.ts';
import type { StreamConfig } from './config.ts';
import type { StreamListener } from './listeners.ts';
import { type HeaderList, isAudioType, isMpegType, setStreamHeaders, streamHeaders } from './stream-headers.ts';
import type { Exchange, OpenExchange } from './upstream-exchange.ts';
import type { UpstreamHealth, UpstreamStatus } from './upstream.ts';

/** Icecast's default burst-size: about 4 s at 128 kbit/s. */
const BURST_BYTES = 64 * 1024;
/** Bytes waiting in Node for one listener before it counts as far behind (~16 s at 128 kbit/s). */
export const MAX_BEHIND_BYTES = 256 * 1024;

export interface MountFeed {
  /** Serves the listener from this mount: the stream, or (through `refuse`) the upstream's failure. */
  join(listener: StreamListener): void;
  /** The listener's response closed. */
  leave(listener: StreamListener): void;
  /** The live stream's headers, or null when the feed is not on the air. */
  readonly liveHeaders: HeaderList | null;
  /** The headers of the last stream this feed relayed (null: none yet). */
  readonly lastHeaders: HeaderList | null;
}

export interface MountFeedDeps {
  config: Pick<StreamConfig, 'connectTimeoutMs' | 'idleTimeoutMs'>;
  openExchange: OpenExchange;
  health: UpstreamHealth;
  log: Logger;
  /** Answers a listener that has no stream yet with the upstream's failure. */
  refuse(listener: StreamListener, status: Exclude<UpstreamStatus, 200>): void;
}

/** Writes a chunk to a listener; ends one that is too far behind. */
function send(listener: StreamListener, chunk: Buffer, log: Logger): void {
  const { res } = listener;
  if (!res.writable) return;
  res.write(chunk);
  if (res.writableLength > MAX_BEHIND_BYTES) {
    log.info({ port: listener.port, behindBytes: res.writableLength }, 'listener far behind the live point; ended');
    res.destroy();
  }
}

/** The status a listener gets for an upstream answer other than 200 audio. */
function refusalOf(upstream: IncomingMessage): Exclude<UpstreamStatus, 200> | null {
  const code = upstream.statusCode ?? 502;
  // 404: mount missing or its source gone; 403: Icecast's listener limits. Both pass with time.
  if (code === 404 || code === 403) return 503;
  if (code !== 200 || !isAudioType(upstream.headers['content-type'])) return 502;
  return null;
}

export function createMountFeed(port: number, deps: MountFeedDeps): MountFeed {
  const { config, health, log } = deps;
  const waiting = new Set<StreamListener>();
  const live = new Set<StreamListener>();
  const burst = createBurst(BURST_BYTES);
  let exchange: Exchange | null = null;
  let deadline: NodeJS.Timeout | undefined;
  let headers: HeaderList | null = null;
  let lastHeaders: HeaderList | null = null;
  let mpeg = false;

  function teardown(): void {
    clearTimeout(deadline);
    exchange?.abort();
    exchange = null;
    headers = null;
    burst.clear();
  }

  function fail(status: Exclude<UpstreamStatus, 200>, detail?: Record<string, unknown>): void {
    health.record(port, status, detail);
    const refused = [...waiting];
    waiting.clear();
    teardown();
    for (const listener of refused) deps.refuse(listener, status);
  }

  /** The upstream ended, reset or stalled: every listener's stream ends (their players reconnect). */
  function endAll(): void {
    const ended = [...live];
    live.clear();
    teardown();
    for (const listener of ended) listener.res.end();
    if (waiting.size > 0) fail(502);
  }

  function start(listener: StreamListener): void {
    waiting.delete(listener);
    live.add(listener);
    listener.streaming = true;
    setStreamHeaders(listener.res, headers!);
    listener.res.flushHeaders();
    const first = burst.snapshot(mpeg);
    if (first) send(listener, first, log);
  }

  function relay(upstream: IncomingMessage): void {
    let aligner: FrameAligner | null = mpeg ? createFrameAligner() : null;
    upstream.on('data', (data: Buffer) => {
      let chunk: Buffer | null = data;
      if (aligner) {
        chunk = aligner.push(data);
        if (chunk === null) return;
        aligner = null;
      }
      burst.push(chunk);
      for (const listener of live) send(listener, chunk, log);
    });
    // Icecast itself drops a source silent for 10 s, so only a longer silence ends the stream here.
    upstream.socket.setTimeout(config.idleTimeoutMs, () => {
      health.record(port, 504);
      endAll();
    });
    upstream.on('close', () => {
      if (exchange) endAll();
    });
  }

  function onResponse(upstream: IncomingMessage): void {
    clearTimeout(deadline);
    const refusal = refusalOf(upstream);
    if (refusal !== null) {
      fail(refusal, { upstreamStatus: upstream.statusCode, type: upstream.headers['content-type'] });
      return;
    }
    health.record(port, 200);
    headers = streamHeaders(upstream.rawHeaders);
    lastHeaders = headers;
    mpeg = isMpegType(upstream.headers['content-type']);
    relay(upstream);
    for (const listener of [...waiting]) start(listener);
  }

  function open(): void {
    deadline = setTimeout(() => fail(504), config.connectTimeoutMs);
    // An error after the response head is the upstream breaking mid-stream (reset, aborted).
    exchange = deps.openExchange(port, { response: onResponse, error: () => (headers ? endAll() : fail(502)) });
  }

  return {
    join(listener) {
      if (headers) return start(listener);
      waiting.add(listener);
      if (!exchange) open();
    },
    leave(listener) {
      waiting.delete(listener);
      live.delete(listener);
      if (waiting.size === 0 && live.size === 0 && exchange) teardown();
    },
    get liveHeaders() {
      return headers;
    },
    get lastHeaders() {
      return lastHeaders;
    },
  };
}

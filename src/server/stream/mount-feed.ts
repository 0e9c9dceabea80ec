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
import { createFrameAligner, type FrameAligner, frameHeaderAt } from '../audio/mp3-frames.ts';
import { createBurst } from './burst.ts';
import type { StreamConfig } from './config.ts';
import type { StreamListener } from './listeners.ts';
import { isAudioType, isMpegType } from '../audio/media-types.ts';
import { type HeaderList, setStreamHeaders, streamHeaders } from './stream-headers.ts';
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
  /**
   * The newest listener (null: not on the air, or not MPEG): how many seconds of past audio it
   * started with (the burst it was sent on joining or, for those who waited for the upstream, the
   * station's own burst that came first), and when (performance.now()) its first byte was at the
   * live edge. Its player hears the live edge that much late (docs/decisions/057).
   */
  readonly newest: { lagS: number; fromMs: number } | null;
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

class Feed implements MountFeed {
  private readonly waiting = new Set<StreamListener>();
  private readonly live = new Set<StreamListener>();
  private readonly burst = createBurst(BURST_BYTES);
  private exchange: Exchange | null = null;
  private deadline: NodeJS.Timeout | undefined;
  private headers: HeaderList | null = null;
  private last: HeaderList | null = null;
  private mpeg = false;
  /** The stream's bits per second, from its first frame (CBR, as stations send); 0: not known yet. */
  private bitsPerS = 0;
  /** Bytes of audio received since the upstream answered, and when it did. */
  private received = 0;
  private answeredAt = 0;
  /** The station's burst: the most audio received beyond the time elapsed since the upstream answered. */
  private upstreamBurstS = 0;
  /** The newest listener's burst, in bytes, and when it was sent; null: it waited for the upstream (its burst is the station's). */
  private joined: { bytes: number; at: number } | null = null;

  constructor(
    private readonly port: number,
    private readonly deps: MountFeedDeps,
  ) {}

  get liveHeaders(): HeaderList | null {
    return this.headers;
  }

  get lastHeaders(): HeaderList | null {
    return this.last;
  }

  get newest(): { lagS: number; fromMs: number } | null {
    if (!this.headers || this.bitsPerS === 0) return null;
    const lagS = this.joined ? (this.joined.bytes * 8) / this.bitsPerS : this.upstreamBurstS;
    return { lagS, fromMs: (this.joined?.at ?? this.answeredAt) - lagS * 1000 };
  }

  join(listener: StreamListener): void {
    if (this.headers) {
      this.start(listener);
      return;
    }
    this.waiting.add(listener);
    if (!this.exchange) this.open();
  }

  leave(listener: StreamListener): void {
    this.waiting.delete(listener);
    this.live.delete(listener);
    if (this.waiting.size === 0 && this.live.size === 0 && this.exchange) this.teardown();
  }

  private open(): void {
    this.deadline = setTimeout(() => this.fail(504), this.deps.config.connectTimeoutMs);
    this.exchange = this.deps.openExchange(this.port, {
      response: (upstream) => this.onResponse(upstream),
      // An error after the response head is the upstream breaking mid-stream (reset, aborted).
      error: () => (this.headers ? this.endAll() : this.fail(502)),
    });
  }

  private teardown(): void {
    clearTimeout(this.deadline);
    this.exchange?.abort();
    this.exchange = null;
    this.headers = null;
    this.burst.clear();
    this.bitsPerS = 0;
    this.received = 0;
    this.upstreamBurstS = 0;
  }

  private fail(status: Exclude<UpstreamStatus, 200>, detail?: Record<string, unknown>): void {
    this.deps.health.record(this.port, status, detail);
    const refused = [...this.waiting];
    this.waiting.clear();
    this.teardown();
    for (const listener of refused) this.deps.refuse(listener, status);
  }

  /** The upstream ended, reset or stalled: every listener's stream ends (their players reconnect). */
  private endAll(): void {
    const ended = [...this.live];
    this.live.clear();
    this.teardown();
    for (const listener of ended) listener.res.end();
    if (this.waiting.size > 0) this.fail(502);
  }

  private start(listener: StreamListener): void {
    this.waiting.delete(listener);
    this.live.add(listener);
    listener.streaming = true;
    setStreamHeaders(listener.res, this.headers!);
    listener.res.flushHeaders();
    const first = this.burst.snapshot(this.mpeg);
    this.joined = first ? { bytes: first.length, at: performance.now() } : null;
    if (first) send(listener, first, this.deps.log);
  }

  private onResponse(upstream: IncomingMessage): void {
    clearTimeout(this.deadline);
    const refusal = refusalOf(upstream);
    if (refusal !== null) {
      this.fail(refusal, { upstreamStatus: upstream.statusCode, type: upstream.headers['content-type'] });
      return;
    }
    this.deps.health.record(this.port, 200);
    this.headers = streamHeaders(upstream.rawHeaders);
    this.last = this.headers;
    this.mpeg = isMpegType(upstream.headers['content-type']);
    this.answeredAt = performance.now();
    this.relay(upstream);
    for (const listener of [...this.waiting]) this.start(listener);
  }

  /** Follows the station's burst: audio arrives at once, then in real time (as the rewind recorder's clock). */
  private time(chunk: Buffer): void {
    if (!this.mpeg) return;
    if (this.bitsPerS === 0) this.bitsPerS = (frameHeaderAt(chunk, 0)?.bitrateKbps ?? 0) * 1000;
    if (this.bitsPerS === 0) return;
    this.received += chunk.length;
    const ahead = (this.received * 8) / this.bitsPerS - (performance.now() - this.answeredAt) / 1000;
    this.upstreamBurstS = Math.max(this.upstreamBurstS, ahead);
  }

  private relay(upstream: IncomingMessage): void {
    let aligner: FrameAligner | null = this.mpeg ? createFrameAligner() : null;
    upstream.on('data', (data: Buffer) => {
      let chunk: Buffer | null = data;
      if (aligner) {
        chunk = aligner.push(data);
        if (chunk === null) return;
        aligner = null;
      }
      this.burst.push(chunk);
      this.time(chunk);
      for (const listener of this.live) send(listener, chunk, this.deps.log);
    });
    // Icecast itself drops a source silent for 10 s, so only a longer silence ends the stream here.
    upstream.socket.setTimeout(this.deps.config.idleTimeoutMs, () => {
      this.deps.health.record(this.port, 504);
      this.endAll();
    });
    upstream.on('close', () => {
      if (this.exchange) this.endAll();
    });
  }
}

export function createMountFeed(port: number, deps: MountFeedDeps): MountFeed {
  return new Feed(port, deps);
}

/**
 * GET /api/now-playing/events?port=N: what is on air, pushed (Server-Sent Events). A client gets
 * the current state as soon as it connects, then every change, and a comment every HEARTBEAT_MS
 * (well under nginx's 60 s proxy_read_timeout and any idle timeout between), so quiet hours do
 * not look like a dead connection. The same port allowlist and caps as the stream, with the same
 * answers (400; 503 with Retry-After). Never compressed (no-transform; answered before Express),
 * each event written at once; every client is ended on shutdown.
 *
 * The fan-out is the cost that grows with the audience (10,000 clients per process, issue 20):
 * each state is serialised once into one Buffer, written as is to every client's socket a slice
 * at a time (fan-out.ts), and one shared timer sends every heartbeat.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerText, TEXT } from './answers.ts';
import type { StreamConfig } from './config.ts';
import type { NowPlaying } from './icecast-status.ts';
import { CLIENTS_PER_TURN, type FanOutTiming, fanOut } from './fan-out.ts';
import { createListenerSlots } from './listener-slots.ts';
import type { NowPlayingReader } from './now-playing-reader.ts';
import { requestedPort } from './port-param.ts';

export const HEARTBEAT_MS = 15_000;
/** How long an EventSource waits before reconnecting after the connection drops. */
export const RETRY_MS = 3_000;

const HEARTBEAT = Buffer.from(':\n\n');

interface PortClients {
  clients: Set<ServerResponse>;
  /** Cancels the change being written, if any (fan-out.ts). */
  cancelFanOut: () => void;
  unfollow: () => void;
  /** The latest state pushed and its event. */
  last: { state: NowPlaying; event: Buffer } | null;
}

/** One change written to a port's clients (fan-out.ts): when it started, how long it took, its CPU. */
export interface FanOut extends FanOutTiming {
  port: number;
}

export interface NowPlayingEvents {
  handle(req: IncomingMessage, res: ServerResponse, client: string): void;
  /** Ends every push connection and refuses new ones (graceful shutdown). */
  closeAll(): void;
  readonly clients: number;
  /** Connections refused since start, by reason: a bad port or method (400), stopping or full (503). */
  readonly refusals: Readonly<Record<PushRefusal, number>>;
}

export type PushRefusal = 'bad_request' | 'closing' | 'busy';

/**
 * One SSE event: the state as JSON on one data line (JSON escapes every line break). The newest
 * listener, when there is one, as durations only (no clock of ours is compared with a browser's):
 * `lag`, seconds of past audio it started with; `behind`, ms from its first byte being at the live
 * edge to this event being written; and `changed`, ms since the title started (docs/decisions/057).
 */
export function eventOf(nowPlaying: NowPlaying): Buffer {
  const { newest, titleSince, ...state } = nowPlaying;
  const now = performance.now();
  const sent: Record<string, unknown> = { ...state };
  if (newest)
    Object.assign(sent, { lag: Math.round(newest.lagS * 1000) / 1000, behind: Math.round(now - newest.fromMs) });
  if (titleSince !== undefined) sent.changed = Math.round(now - titleSince);
  return Buffer.from(`data: ${JSON.stringify(sent)}\n\n`);
}

/**
 * The head, given to writeHead as a list: no header object is kept on each of 10,000 responses
 * for the life of the connection, as setHeader would (a third of a KiB each).
 */
const EVENT_STREAM_HEADERS = [
  ['Content-Type', 'text/event-stream; charset=utf-8'],
  // no-transform: nothing between us and the browser (our compression included) may buffer or compress it.
  ['Cache-Control', 'no-store, no-transform'],
  ['X-Accel-Buffering', 'no'],
  // Close-delimited, like the stream: no chunk framing around each event.
  ['Connection', 'close'],
].flat();

function startEvents(res: ServerResponse): void {
  res.removeHeader('Transfer-Encoding');
  res.writeHead(200, EVENT_STREAM_HEADERS);
  res.flushHeaders();
  res.write(`retry: ${RETRY_MS}\n\n`);
}

export function createNowPlayingEvents(
  config: Pick<StreamConfig, 'allowedPorts' | 'maxEventClients' | 'maxListenersPerClient' | 'retryAfterSeconds'>,
  reader: NowPlayingReader,
  options: {
    /** Told of every change written (the log's debug line; bench:stream reads it). */
    onFanOut?: (fanOut: FanOut) => void;
    /** HEARTBEAT_MS unless a test wants to see heartbeats sooner. */
    heartbeatMs?: number;
    /** fan-out.ts's CLIENTS_PER_TURN unless a test wants several turns with a few clients. */
    clientsPerTurn?: number;
  } = {},
): NowPlayingEvents {
  const { onFanOut = () => {}, heartbeatMs = HEARTBEAT_MS, clientsPerTurn = CLIENTS_PER_TURN } = options;
  const slots = createListenerSlots(config.maxEventClients, config.maxListenersPerClient);
  /** The clients of each port; a port with clients follows the reader once, and each event is built once. */
  const ports = new Map<number, PortClients>();
  let closing = false;
  let cancelHeartbeats: Array<() => void> = [];
  const heartbeat = setInterval(() => {
    for (const cancel of cancelHeartbeats) cancel();
    cancelHeartbeats = [...ports.values()].map(({ clients }) => fanOut(clients, HEARTBEAT, undefined, clientsPerTurn));
  }, heartbeatMs);
  heartbeat.unref();

  const follow = (port: number) => {
    const entry: PortClients = { clients: new Set(), cancelFanOut: () => {}, unfollow: () => {}, last: null };
    entry.unfollow = reader.follow(port, (nowPlaying) => {
      entry.last = { state: nowPlaying, event: eventOf(nowPlaying) };
      // A client the older state has not reached yet gets this one only.
      entry.cancelFanOut();
      entry.cancelFanOut = fanOut(
        entry.clients,
        entry.last.event,
        (timing) => onFanOut({ port, ...timing }),
        clientsPerTurn,
      );
    });
    ports.set(port, entry);
    return entry;
  };

  /** The current state's event, built once per state for every client that joins (its `behind` anew). */
  const currentEvent = (port: number): Buffer | null => {
    const state = reader.current(port);
    if (!state) return null;
    const last = ports.get(port)?.last;
    return last?.state === state && !state.newest && state.titleSince === undefined ? last.event : eventOf(state);
  };

  /** One 'close' listener per client frees its slot and its place (one closure each, times 10,000). */
  const join = (port: number, res: ServerResponse, release: () => void) => {
    const entry = ports.get(port) ?? follow(port);
    entry.clients.add(res);
    res.on('close', () => {
      release();
      entry.clients.delete(res);
      if (entry.clients.size > 0 || ports.get(port) !== entry) return;
      ports.delete(port);
      entry.cancelFanOut();
      entry.unfollow();
    });
  };

  // Refusals by reason, read by the metrics at scrape time (every reason there from the start).
  const refusals: Record<PushRefusal, number> = { bad_request: 0, closing: 0, busy: 0 };

  return {
    handle(req, res, client) {
      const port = requestedPort(req.url ?? '', config.allowedPorts);
      if (port === null || req.method !== 'GET') {
        refusals.bad_request++;
        return answerText(res, 400, TEXT.badPort);
      }
      if (closing) {
        refusals.closing++;
        return answerText(res, 503, TEXT.closing, config.retryAfterSeconds);
      }
      const release = slots.take(client);
      if (!release) {
        refusals.busy++;
        return answerText(res, 503, TEXT.busy, config.retryAfterSeconds);
      }
      startEvents(res);
      const current = currentEvent(port);
      if (current) res.write(current);
      join(port, res, release);
    },
    closeAll() {
      closing = true;
      clearInterval(heartbeat);
      for (const cancel of cancelHeartbeats) cancel();
      for (const entry of ports.values()) {
        entry.cancelFanOut();
        for (const res of entry.clients) res.end();
      }
    },
    get clients() {
      return slots.active;
    },
    refusals,
  };
}

/**
 * GET /api/now-playing/events?port=N: what is on air, pushed (Server-Sent Events). A client gets
 * the current state as soon as it connects, then every change, and a comment every HEARTBEAT_MS
 * (well under nginx's 60 s proxy_read_timeout and any idle timeout between), so quiet hours do
 * not look like a dead connection. The same port allowlist and caps as the stream, with the same
 * answers (400; 503 with Retry-After). Never compressed (no-transform; answered before Express),
 * each event written at once; every client is ended on shutdown.
 *
 * The fan-out is the cost that grows with the audience (10,000 clients per process, issue 20):
 * each state is serialised once into one Buffer, written as is to every client's socket, and one
 * shared timer sends every heartbeat.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerText, TEXT } from './answers.ts';
import type { StreamConfig } from './config.ts';
import type { NowPlaying } from './icecast-status.ts';
import { createListenerSlots } from './listener-slots.ts';
import type { NowPlayingReader } from './now-playing-reader.ts';
import { requestedPort } from './port-param.ts';

export const HEARTBEAT_MS = 15_000;
/** How long an EventSource waits before reconnecting after the connection drops. */
export const RETRY_MS = 3_000;

const HEARTBEAT = Buffer.from(':\n\n');

interface PortClients {
  clients: Set<ServerResponse>;
  unfollow: () => void;
  /** The latest state pushed and its event. */
  last: { state: NowPlaying; event: Buffer } | null;
}

/** One change written to a port's clients: when it started, how long the writes took (wall clock and CPU). */
export interface FanOut {
  port: number;
  clients: number;
  /** performance.timeOrigin + performance.now() when the first write began (comparable across processes). */
  startedAt: number;
  writeMs: number;
  writeCpuMs: number;
}

export interface NowPlayingEvents {
  handle(req: IncomingMessage, res: ServerResponse, client: string): void;
  /** Ends every push connection and refuses new ones (graceful shutdown). */
  closeAll(): void;
  readonly clients: number;
}

/** One SSE event: the state as JSON on one data line (JSON escapes every line break). */
export const eventOf = (nowPlaying: NowPlaying): Buffer => Buffer.from(`data: ${JSON.stringify(nowPlaying)}\n\n`);

/**
 * Writes the same bytes to every client, straight to its socket: the response is close-delimited
 * with its head already sent, so the body is the socket's bytes. Through `res.write` each response
 * corks its socket and uncorks it on a later tick, which cost 2.5× the CPU at 10,000 clients
 * (docs/decisions/022); corking the sockets ourselves gains nothing for a single write.
 */
function writeToAll(clients: Iterable<ServerResponse>, bytes: Buffer): void {
  for (const res of clients) res.socket?.write(bytes);
}

function timedWrite(port: number, clients: Set<ServerResponse>, bytes: Buffer): FanOut {
  const startedAt = performance.timeOrigin + performance.now();
  const cpu = process.cpuUsage();
  writeToAll(clients, bytes);
  const used = process.cpuUsage(cpu);
  const writeMs = performance.timeOrigin + performance.now() - startedAt;
  return { port, clients: clients.size, startedAt, writeMs, writeCpuMs: (used.user + used.system) / 1000 };
}

function startEvents(res: ServerResponse): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  // no-transform: nothing between us and the browser (our compression included) may buffer or compress it.
  res.setHeader('Cache-Control', 'no-store, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  // Close-delimited, like the stream: no chunk framing around each event.
  res.setHeader('Connection', 'close');
  res.removeHeader('Transfer-Encoding');
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
  } = {},
): NowPlayingEvents {
  const { onFanOut = () => {}, heartbeatMs = HEARTBEAT_MS } = options;
  const slots = createListenerSlots(config.maxEventClients, config.maxListenersPerClient);
  /** The clients of each port; a port with clients follows the reader once, and each event is built once. */
  const ports = new Map<number, PortClients>();
  let closing = false;
  const heartbeat = setInterval(() => {
    for (const { clients } of ports.values()) writeToAll(clients, HEARTBEAT);
  }, heartbeatMs);
  heartbeat.unref();

  const follow = (port: number) => {
    const entry: PortClients = { clients: new Set(), unfollow: () => {}, last: null };
    entry.unfollow = reader.follow(port, (nowPlaying) => {
      entry.last = { state: nowPlaying, event: eventOf(nowPlaying) };
      onFanOut(timedWrite(port, entry.clients, entry.last.event));
    });
    ports.set(port, entry);
    return entry;
  };

  /** The current state's event, built once per state for every client that joins. */
  const currentEvent = (port: number): Buffer | null => {
    const state = reader.current(port);
    if (!state) return null;
    const last = ports.get(port)?.last;
    return last?.state === state ? last.event : eventOf(state);
  };

  const join = (port: number, res: ServerResponse) => {
    const entry = ports.get(port) ?? follow(port);
    entry.clients.add(res);
    res.on('close', () => {
      entry.clients.delete(res);
      if (entry.clients.size > 0 || ports.get(port) !== entry) return;
      ports.delete(port);
      entry.unfollow();
    });
  };

  return {
    handle(req, res, client) {
      const port = requestedPort(req.url ?? '', config.allowedPorts);
      if (port === null || req.method !== 'GET') return answerText(res, 400, TEXT.badPort);
      if (closing) return answerText(res, 503, TEXT.closing, config.retryAfterSeconds);
      const release = slots.take(client);
      if (!release) return answerText(res, 503, TEXT.busy, config.retryAfterSeconds);
      res.on('close', release);
      startEvents(res);
      const current = currentEvent(port);
      if (current) res.write(current);
      join(port, res);
    },
    closeAll() {
      closing = true;
      clearInterval(heartbeat);
      for (const { clients } of ports.values()) for (const res of clients) res.end();
    },
    get clients() {
      return slots.active;
    },
  };
}

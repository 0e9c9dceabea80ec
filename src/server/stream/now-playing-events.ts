/**
 * GET /api/now-playing/events?port=N: what is on air, pushed (Server-Sent Events). A client gets
 * the current state as soon as it connects, then every change, and a comment every HEARTBEAT_MS
 * (well under nginx's 60 s proxy_read_timeout and any idle timeout between), so quiet hours do
 * not look like a dead connection. The same port allowlist and caps as the stream, with the same
 * answers (400; 503 with Retry-After). Never compressed (no-transform; answered before Express),
 * each event written at once; every client is ended on shutdown.
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

export interface NowPlayingEvents {
  handle(req: IncomingMessage, res: ServerResponse, client: string): void;
  /** Ends every push connection and refuses new ones (graceful shutdown). */
  closeAll(): void;
  readonly clients: number;
}

/** One SSE event: the state as JSON on one data line (JSON escapes every line break). */
export const eventOf = (nowPlaying: NowPlaying): Buffer => Buffer.from(`data: ${JSON.stringify(nowPlaying)}\n\n`);

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
): NowPlayingEvents {
  const slots = createListenerSlots(config.maxEventClients, config.maxListenersPerClient);
  /** The clients of each port; a port with clients follows the reader once, and each event is built once. */
  const ports = new Map<number, { clients: Set<ServerResponse>; unfollow: () => void }>();
  let closing = false;
  const heartbeat = setInterval(() => {
    for (const { clients } of ports.values()) for (const res of clients) res.write(HEARTBEAT);
  }, HEARTBEAT_MS);
  heartbeat.unref();

  const follow = (port: number) => {
    const clients = new Set<ServerResponse>();
    const unfollow = reader.follow(port, (nowPlaying) => {
      const event = eventOf(nowPlaying);
      for (const client of clients) client.write(event);
    });
    const entry = { clients, unfollow };
    ports.set(port, entry);
    return entry;
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
      const current = reader.current(port);
      if (current) res.write(eventOf(current));
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

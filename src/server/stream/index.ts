/**
 * The radio's server side, answered by the app's radio lanes before Express (app.ts), through one
 * dispatch (`route`), for exactly these paths (lower case, as received, with the query):
 * - GET|HEAD /api/stream?port=N   the live stream through our proxy (stream-handler.ts)
 * - GET|HEAD /api/now-playing?port=N   title and listener count from Icecast's status (now-playing.ts)
 * - GET /api/now-playing/events?port=N   the same, pushed as it changes (now-playing-events.ts)
 * Anything else, other spellings and methods included, is not the radio's: the Express chain
 * answers it as any other path (a 404 page, or 405). Before Express, because a listener holds its
 * request for hours and Express's per-request objects would be held with it. The composition root
 * (runtime.ts) resolves the upstream (the built-in demo station when no STREAM_UPSTREAM_HOST is
 * set) before this service is made, and gives it that one configuration.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pathOf } from '../request-target.ts';
import type { SendTimeouts } from '../send-timeout.ts';
import type { StreamConfig } from './config.ts';
import { createIcecastStatus } from './icecast-status.ts';
import type { ListeningFigures } from './listening.ts';
import { createNowPlayingHandler } from './now-playing.ts';
import { createNowPlayingEvents } from './now-playing-events.ts';
import { createNowPlayingReader } from './now-playing-reader.ts';
import { createStreamProxy } from './stream-handler.ts';
import { createUpstreamHealth } from './upstream.ts';

/** Answers one of the radio's requests for the client at `client`; `onError` gets a handler's own failure. */
export type RadioHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  client: string,
  onError: (err: unknown) => void,
) => void;

export interface RadioRoute {
  /** Held open for as long as the client stays (the stream, the push), or answered at once (now-playing). */
  longLived: boolean;
  handle: RadioHandler;
}

export interface StreamService {
  /** The handler for a request of the radio's, or undefined when it is none of the paths above. */
  route(req: IncomingMessage): RadioRoute | undefined;
  /** Ends every open listener response and push connection (graceful shutdown). */
  closeAll(): void;
  /** Listeners being served right now. */
  readonly activeListeners: number;
  /** Listeners being served right now on one allowed port (metrics). */
  listenersAt(port: number): number;
  /** Listener-seconds, sessions of a minute and peaks per allowed port (metrics). */
  readonly listening: ListeningFigures;
  /** Now-playing push connections open right now (metrics). */
  readonly pushClients: number;
  /** Now-playing push connections refused since start, by reason (now-playing-events.ts). */
  readonly pushRefusals: Readonly<Record<string, number>>;
  /**
   * Calls `onTitle` with the station's title on a port at each change (the push's one reader of
   * Icecast's status, polled while anyone follows); returns the way to stop following (the rewind
   * recorder keeps each title with the time it started).
   */
  followTitle(port: number, onTitle: (title: string | null) => void): () => void;
}

export interface StreamParts {
  /** The server's send-timeout sweep, which gives a listener's connection STREAM_SEND_TIMEOUT_MS. */
  sendTimeouts: SendTimeouts;
  /** A request to the upstream found it failing: 502, 503 or 504 (upstream.ts). */
  upstreamFailure?(status: number): void;
  /** Whether this process's rewind recorder holds a connection to the port's mount (Icecast counts it). */
  recorderConnected?(port: number): boolean;
}

export function createStreamService(config: StreamConfig, logger: Logger, parts: StreamParts): StreamService {
  const recorded = createUpstreamHealth(logger.child({ component: 'stream-upstream' }));
  const health: typeof recorded = {
    ...recorded,
    record(port, status, detail) {
      if (status !== 200) parts.upstreamFailure?.(status);
      recorded.record(port, status, detail);
    },
  };
  const status = createIcecastStatus(config, health);
  const proxy = createStreamProxy(config, { logger, health, status, sendTimeouts: parts.sendTimeouts });
  const local = (port: number) => ({
    relaying: proxy.relaying(port),
    count: proxy.listeners(port),
    recording: parts.recorderConnected?.(port) ?? false,
    newest: proxy.newest(port),
  });
  const nowPlaying = createNowPlayingHandler(config, status, local);
  const eventsLog = logger.child({ component: 'now-playing-events' });
  const reader = createNowPlayingReader(status, local);
  const events = createNowPlayingEvents(config, reader, {
    onFanOut: (fanOut) => eventsLog.debug(fanOut, 'now-playing change pushed'),
  });
  const stream: RadioRoute = { longLived: true, handle: proxy.handler };
  const now: RadioRoute = { longLived: false, handle: (req, res, _client, onError) => nowPlaying(req, res, onError) };
  const push: RadioRoute = { longLived: true, handle: (req, res, client) => events.handle(req, res, client) };
  const routes = new Map<string, { GET: RadioRoute; HEAD?: RadioRoute }>([
    ['/api/stream', { GET: stream, HEAD: stream }],
    ['/api/now-playing', { GET: now, HEAD: now }],
    ['/api/now-playing/events', { GET: push }],
  ]);

  return {
    route(req) {
      const methods = routes.get(pathOf(req.url ?? ''));
      if (req.method === 'GET') return methods?.GET;
      return req.method === 'HEAD' ? methods?.HEAD : undefined;
    },
    closeAll() {
      proxy.closeAll();
      events.closeAll();
    },
    get activeListeners() {
      return proxy.listeners();
    },
    listenersAt: (port) => proxy.listeners(port),
    listening: proxy.listening,
    pushRefusals: events.refusals,
    followTitle(port, onTitle) {
      let last: string | null | undefined;
      return reader.follow(port, ({ title }) => {
        if (title === last) return;
        last = title;
        onTitle(title);
      });
    },
    get pushClients() {
      return events.clients;
    },
  };
}

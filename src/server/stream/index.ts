/**
 * The radio's server side, mounted at /api before compression:
 * - GET|HEAD /stream?port=N   the live stream through our proxy (stream-handler.ts)
 * - GET|HEAD /now-playing?port=N   title and listener count from Icecast's status (now-playing.ts)
 * - GET /now-playing/events?port=N   the same, pushed as it changes (now-playing-events.ts)
 * Other methods pass on to the app's 405, like every other path. The two long-lived paths,
 * `/api/stream` and `/api/now-playing/events` exactly, are also answered before Express
 * (the stream lane, see app.ts). With no upstream configured, the composition root (runtime.ts)
 * starts the built-in demo station on loopback and gives this service its address.
 */
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { StreamConfig } from './config.ts';
import { createIcecastStatus } from './icecast-status.ts';
import type { ListeningFigures } from './listening.ts';
import { createNowPlayingHandler } from './now-playing.ts';
import { createNowPlayingEvents } from './now-playing-events.ts';
import { createNowPlayingReader } from './now-playing-reader.ts';
import { createStreamProxy, type StreamHandler } from './stream-handler.ts';
import { createUpstreamHealth } from './upstream.ts';

export interface StreamService {
  /** Mounted at /api. */
  router: RequestHandler;
  /**
   * GET or HEAD of `/api/stream`, or GET of `/api/now-playing/events`, exactly (with the query),
   * which the app answers at the Node server's handler, before Express (with `stream`): a listener
   * holds its request for hours, and Express's per-request objects (its router's closures and
   * saved state) would be held with it. Anything else goes on to Express, whose router answers
   * the paths' variants the same way.
   */
  isStreamRequest(req: IncomingMessage): boolean;
  stream: StreamHandler;
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
}

export interface StreamObservers {
  /** A request to the upstream found it failing: 502, 503 or 504 (upstream.ts). */
  upstreamFailure?(status: number): void;
}

const STREAM_PATH = '/api/stream';
const EVENTS_PATH = '/api/now-playing/events';

/** Whether the URL is `path` exactly, with or without a query. */
const isPath = (url: string, path: string) =>
  url.startsWith(path) && (url.length === path.length || url[path.length] === '?');

export function createStreamService(
  config: StreamConfig,
  logger: Logger,
  observers: StreamObservers = {},
): StreamService {
  const recorded = createUpstreamHealth(logger.child({ component: 'stream-upstream' }));
  const health: typeof recorded = {
    ...recorded,
    record(port, status, detail) {
      if (status !== 200) observers.upstreamFailure?.(status);
      recorded.record(port, status, detail);
    },
  };
  const status = createIcecastStatus(config, health);
  const proxy = createStreamProxy(config, { logger, health, status });
  const local = (port: number) => ({ relaying: proxy.relaying(port), count: proxy.listeners(port) });
  const nowPlaying = createNowPlayingHandler(config, status, local);
  const eventsLog = logger.child({ component: 'now-playing-events' });
  const events = createNowPlayingEvents(config, createNowPlayingReader(status, local), {
    onFanOut: (fanOut) => eventsLog.debug(fanOut, 'now-playing change pushed'),
  });
  const stream: StreamHandler = (req, res, client, onError) => {
    if (isPath(req.url ?? '', EVENTS_PATH)) events.handle(req, res, client);
    else proxy.handler(req, res, client, onError);
  };
  // A plain dispatch rather than an express Router, whose automatic OPTIONS answer (200) would
  // make these two paths the only ones not answering 405 to other methods.
  const router: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') next();
    else if (req.path === '/stream') proxy.handler(req, res, req.ip ?? req.socket.remoteAddress ?? 'unknown', next);
    else if (req.path === '/now-playing') nowPlaying(req, res, next);
    else if (req.path === '/now-playing/events' && req.method === 'GET') {
      events.handle(req, res, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    } else next();
  };
  return {
    router,
    isStreamRequest(req) {
      const url = req.url ?? '';
      if (req.method === 'GET' && isPath(url, EVENTS_PATH)) return true;
      return (req.method === 'GET' || req.method === 'HEAD') && isPath(url, STREAM_PATH);
    },
    stream,
    closeAll() {
      proxy.closeAll();
      events.closeAll();
    },
    get activeListeners() {
      return proxy.listeners();
    },
    listenersAt: (port) => proxy.listeners(port),
    listening: proxy.listening,
    get pushClients() {
      return events.clients;
    },
  };
}

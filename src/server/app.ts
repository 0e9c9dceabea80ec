/**
 * The app, without listening: the request handler the HTTP server calls. It refuses bad framing,
 * answers cached pages from the fast lane, and passes everything else to the Express chain,
 * whose middleware reads top to bottom in the order a request meets it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import compression from 'compression';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import proxyaddr from 'proxy-addr';
import type { ReactNode } from 'react';
import { staticFiles } from './assets.ts';
import { loadManifest } from './manifest.ts';
import type { Config } from './config.ts';
import { framingRefusal, refuseFraming } from './framing.ts';
import { createLogger, type Logger } from './logger.ts';
import { createFastLane, type FastLane } from './pages/fast-lane.ts';
import { chicagoDay, PageCache } from './pages/page-cache.ts';
import { createPageRoute } from './pages/page-route.ts';
import { pageCacheControlClock } from './pages/shared-cache.ts';
import { seoRoutes } from './pages/seo.ts';
import { sendServerError } from './pages/server-error.ts';
import { createRequestLog, cut } from './request-log.ts';
import { securityHeaders, setHeaders } from './security.ts';
import { createStreamService, type StreamService } from './stream/index.ts';

export interface AppOptions {
  logger?: Logger;
  /** Tests swap in an app tree that throws or hangs. */
  appTree?: (location: string) => ReactNode;
  now?: () => Date;
  /** The radio's routes; main.ts makes them, to hand the same service to the server's graceful stop. */
  streams?: StreamService;
}

export interface App {
  /** The HTTP server's request handler: framing checks, then the page fast lane, then Express. */
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** The Express chain alone (tests compare its answers with the fast lane's). */
  express: Express;
  /** The fast lane alone: true when it answered. */
  fastLane: FastLane;
  streams: StreamService;
}

/**
 * Never compress audio (already compressed; gzip would buffer a live stream), nor a response
 * that carries an ETag: those come from memory with their own br/gzip bytes (http-cache.ts).
 */
function shouldCompress(req: Request, res: Response): boolean {
  if (req.path.startsWith('/api/stream') || res.getHeader('ETag') !== undefined) return false;
  return compression.filter(req, res);
}

export function createApp(config: Config, options: AppOptions = {}): App {
  const logger = options.logger ?? createLogger(config.logLevel);
  const manifest = loadManifest(config.distDir);
  const streams = options.streams ?? createStreamService(config.stream, logger);
  const app = express();

  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  // Express's req.ip, for the fast lane too (no X-Forwarded-For to parse unless a proxy is trusted).
  const trust = app.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const clientIp = config.trustProxy
    ? (req: IncomingMessage) => proxyaddr(req, trust)
    : (req: IncomingMessage) => req.socket.remoteAddress;
  const requestLog = createRequestLog(logger, clientIp);
  const security = securityHeaders(config.site);
  const now = options.now ?? (() => new Date());
  const today = chicagoDay(now);
  const cacheControl = pageCacheControlClock(config.sharedCache, now);
  const cache = config.pageCache ? new PageCache(today) : undefined;

  // Health checks stay out of the request log and need no headers beyond the basics.
  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  app.use(requestLog.middleware);
  app.use((_req, res, next) => {
    setHeaders(res, security);
    next();
  });

  // The live stream: before compression, which must never touch it.
  app.use('/api', streams.router);

  app.use(compression({ filter: shouldCompress }));
  app.use(staticFiles(join(config.distDir, 'client')));
  app.use(seoRoutes(config.site));

  // GET/HEAD of any path (no route pattern: a malformed escape is a 404 page, not a 400).
  app.use(
    createPageRoute({
      manifest,
      site: config.site,
      streamPort: config.stream.allowedPorts[0]!,
      logger,
      security,
      renderTimeoutMs: config.timeouts.renderMs,
      cache,
      today,
      cacheControl,
      ...(options.appTree && { appTree: options.appTree }),
    }),
  );

  // Pages are read-only: any other method is told what is allowed.
  app.use((_req, res) => {
    res.status(405).set('Allow', 'GET, HEAD').type('text/plain').send('Method Not Allowed');
  });

  const onError: ErrorRequestHandler = (err: unknown, req, res, _next) => {
    const status =
      (err as { status?: number; statusCode?: number }).status ?? (err as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) {
      res
        .status(status)
        .type('text/plain')
        .send(status === 400 ? 'Bad Request' : 'Request error');
      return;
    }
    logger.error({ err, path: cut(req.path) }, 'request failed');
    sendServerError(res);
  };
  app.use(onError);

  const fastLane: FastLane = cache ? createFastLane(cache, requestLog, cacheControl) : () => false;
  /** The stream, before Express (stream/index.ts says why), with the log line and headers the chain gives. */
  const streamLane = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (!streams.isStreamRequest(req)) return false;
    requestLog.follow(req, res);
    setHeaders(res, security);
    streams.stream(req, res, clientIp(req) ?? 'unknown', (err) => {
      logger.error({ err, path: cut(req.url) }, 'request failed');
      sendServerError(res);
    });
    return true;
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const refusal = framingRefusal(req);
    if (refusal) {
      const startedAt = Date.now();
      refuseFraming(res, refusal);
      requestLog.written(req, res, startedAt);
      return;
    }
    if (!fastLane(req, res) && !streamLane(req, res)) app(req, res);
  };
  return { handle, express: app, fastLane, streams };
}

/**
 * The app, without listening: its lanes (the page fast lane, health checks, the radio, and the
 * Express chain for everything else) behind one front door (front-door.ts), which refuses bad
 * framing, writes the request log and sets the security headers. The Express chain's middleware
 * reads top to bottom in the order a request meets it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import compression from 'compression';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import type { ReactNode } from 'react';
import { KILL_SWITCH_FILE } from '../shared/service-worker.ts';
import { type StaticFiles, staticFiles } from './assets.ts';
import { clientErrorAnswer } from './client-error.ts';
import { clientIpOf } from './client-ip.ts';
import type { Config } from './config.ts';
import { fixedFileRedirects } from './fixed-files.ts';
import { type AnswerObserver, createFrontDoor, type FrontDoor, type Lane, type LaneName } from './front-door.ts';
import type { Logger } from 'pino';
import type { Manifest } from './manifest.ts';
import { createFastLane } from './pages/fast-lane.ts';
import { chicagoDay, PageCache } from './pages/page-cache.ts';
import { createPageRoute, type PageEvents } from './pages/page-route.ts';
import { pageCacheControlClock } from './pages/shared-cache.ts';
import { SEO_PATHS, seoRoutes } from './pages/seo.ts';
import { sendServerError } from './pages/server-error.ts';
import { pathOf } from './request-target.ts';
import { createRequestLog, cut } from './request-log.ts';
import { type HeaderList, securityHeaders } from './security.ts';
import type { StreamService } from './stream/index.ts';
import { createVitalsEndpoint, type VitalsRecorder } from './vitals.ts';

export interface AppOptions {
  /** Tests swap in an app tree that throws or hangs. */
  appTree?: (location: string) => ReactNode;
  now?: () => Date;
  /** Told of every logged answer and the lane that gave it. */
  observe?: AnswerObserver;
  /** Told of the page cache's hits, misses and renders in the Express chain (metrics.ts). */
  pageEvents?: PageEvents;
  /** Where POST /api/vitals puts valid reports (metrics.ts); without it they are checked and dropped. */
  vitals?: VitalsRecorder;
}

/** What the composition root (runtime.ts) gives the app. */
export interface AppParts extends AppOptions {
  logger: Logger;
  /** The build's manifest (the composition root's first step reads it). */
  manifest: Manifest;
  /** The radio's routes and stream (the root stops them). */
  streams: StreamService;
  /**
   * GET/HEAD /api/rewind/<port>/<file>: the rewind window's files (src/server/rewind/serve.ts), or
   * false for any other request. Without it (tests of other parts), those paths are pages (404).
   */
  rewindFiles?: (req: IncomingMessage, res: ServerResponse) => boolean;
}

export interface App {
  /** The HTTP server's request handler: the front door over every lane. */
  handle: FrontDoor;
  /** The lanes in the order the front door tries them. */
  lanes: readonly Lane[];
  /** A front door over some of the lanes (tests compare the fast lane's answers with the chain's). */
  doorOver(lanes: readonly Lane[]): FrontDoor;
  /** The HTTP server's 'clientError' listener: Node's own refusals with our security headers (client-error.ts). */
  clientError: ReturnType<typeof clientErrorAnswer>;
}

/**
 * Never compress a response that carries an ETag: those come from memory with their own br/gzip
 * bytes (http-cache.ts). (The radio's answers never reach Express.)
 */
function shouldCompress(req: Request, res: Response): boolean {
  if (res.getHeader('ETag') !== undefined) return false;
  return compression.filter(req, res);
}

interface ChainParts {
  config: Config;
  logger: Logger;
  files: StaticFiles;
  pageRoute: ReturnType<typeof createPageRoute>;
}

/** Everything the lanes before it do not answer; the front door has set the security headers. */
function expressChain({ config, logger, files, pageRoute }: ChainParts): Express {
  const app = express();
  app.disable('x-powered-by');
  // The configuration's compiled trust function, so req.ip is the address every other lane logs.
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  app.use(compression({ filter: shouldCompress }));
  app.use(files.middleware);
  app.use(seoRoutes(config.site));
  // Other spellings of those files and robots.txt/sitemap.xml: redirected, never answered as a page.
  app.use(fixedFileRedirects([...files.fixed, ...SEO_PATHS]));
  // GET/HEAD of any path (no route pattern: a malformed escape is a 404 page, not a 400).
  app.use(pageRoute);

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
  return app;
}

const HEALTHY = JSON.stringify({ status: 'ok' });

/** GET/HEAD /healthz: the front door writes no log line for it (a prober asks every few seconds). */
function health(req: IncomingMessage, res: ServerResponse): boolean {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || pathOf(req.url ?? '') !== '/healthz') return false;
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(HEALTHY),
  });
  res.end(req.method === 'HEAD' ? undefined : HEALTHY);
  return true;
}

/**
 * Express answers all that is left. It is one handler, but named by what the target's path asks
 * for (a file we hold, anything else: a page), so answers are counted per lane.
 */
function expressLanes(app: Express, files: StaticFiles): Lane[] {
  const lane = (name: LaneName, takes: (path: string) => boolean): Lane => ({
    name,
    handle(req, res) {
      if (!takes(pathOf(req.url ?? ''))) return false;
      app(req, res);
      return true;
    },
  });
  return [lane('static', (path) => files.has(path)), lane('rendered page', () => true)];
}

export function createApp(config: Config, parts: AppParts): App {
  const { logger, streams, manifest, rewindFiles, ...options } = parts;
  const security: HeaderList = securityHeaders(config.site);
  const { now } = options;
  const nowMs = now ? () => now().getTime() : Date.now;
  const today = chicagoDay(nowMs);
  const cacheControl = pageCacheControlClock(config.sharedCache, nowMs);
  const cache = config.pageCache ? new PageCache(today) : undefined;
  const todaysCacheControl = () => cacheControl(today());
  const killSwitch = config.serviceWorker ? undefined : join(config.distDir, KILL_SWITCH_FILE);
  const files = staticFiles(join(config.distDir, 'client'), security, killSwitch);
  const pageRoute = createPageRoute({
    manifest,
    site: config.site,
    streamPort: config.stream.allowedPorts[0]!,
    vitalsSampleRate: config.vitalsSampleRate,
    logger,
    security,
    renderTimeoutMs: config.timeouts.renderMs,
    cache,
    today,
    cacheControl,
    ...(options.pageEvents && { events: options.pageEvents }),
    ...(options.appTree && { appTree: options.appTree }),
  });
  const app = expressChain({ config, logger, files, pageRoute });

  // The client's address for every lane, as Express's req.ip (X-Forwarded-For only from a trusted proxy).
  const clientIp = clientIpOf(config.trustProxy);
  const requestLog = createRequestLog(logger, clientIp);

  /**
   * The radio's paths, before Express (stream/index.ts says why), named by what they hold: the
   * stream and the push (`stream`), the now-playing answer (`api`).
   */
  const radio = (name: 'stream' | 'api', longLived: boolean): Lane => ({
    name,
    handle(req, res) {
      const route = streams.route(req);
      if (route?.longLived !== longLived) return false;
      route.handle(req, res, clientIp(req) ?? 'unknown', (err) => {
        logger.error({ err, path: cut(req.url) }, 'request failed');
        sendServerError(res);
      });
      return true;
    },
  });

  /** POST /api/vitals, the page's field Web Vitals beacon (vitals.ts), counted as the api lane. */
  const vitals = createVitalsEndpoint(options.vitals ?? (() => {}));

  const lanes: Lane[] = [
    ...(cache
      ? [{ name: 'cached page', kind: 'prepared', handle: createFastLane(cache, todaysCacheControl) } as const]
      : []),
    { name: 'health', kind: 'quiet', handle: health },
    { name: 'api', handle: (req, res) => vitals.handle(req, res, clientIp(req) ?? 'unknown') },
    radio('stream', true),
    radio('api', false),
    ...(rewindFiles ? [{ name: 'rewind', handle: rewindFiles } as const] : []),
    ...expressLanes(app, files),
  ];
  const doorOver = (some: readonly Lane[]) =>
    createFrontDoor({ lanes: some, security, requestLog, ...(options.observe && { observe: options.observe }) });
  return { handle: doorOver(lanes), lanes, doorOver, clientError: clientErrorAnswer(security) };
}

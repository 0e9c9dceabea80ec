/**
 * The Express app, without listening. Middleware reads top to bottom in the
 * order a request meets it.
 */
import compression from 'compression';
import express, { type ErrorRequestHandler, type Express, type Request, type Response } from 'express';
import { join } from 'node:path';
import type { ReactNode } from 'react';
import { loadManifest, staticFiles } from './assets.ts';
import type { Config } from './config.ts';
import { createLogger, requestLogger, type Logger } from './logger.ts';
import { createPageRenderer, sendServerError } from './render.tsx';
import { securityHeaders } from './security.ts';
import { seoRoutes } from './seo.ts';
import { createStreamService, type StreamService } from './stream/index.ts';

export interface AppOptions {
  logger?: Logger;
  /** Tests swap in an app tree that throws or hangs. */
  appTree?: (location: string) => ReactNode;
  now?: () => Date;
  /** The radio's routes; main.ts makes them, to hand the same service to the server's graceful stop. */
  streams?: StreamService;
}

/** Never compress audio (it is already compressed, and gzip would buffer a live stream). */
function shouldCompress(req: Request, res: Response): boolean {
  if (req.path.startsWith('/api/stream')) return false;
  return compression.filter(req, res);
}

export function createApp(config: Config, options: AppOptions = {}): Express {
  const logger = options.logger ?? createLogger(config.logLevel);
  const manifest = loadManifest(config.distDir);
  const streams = options.streams ?? createStreamService(config.stream, logger);
  const app = express();

  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  const security = securityHeaders(config.site);
  const pages = createPageRenderer({
    manifest,
    site: config.site,
    streamPort: config.stream.allowedPorts[0]!,
    logger,
    renderTimeoutMs: config.timeouts.renderMs,
    cache: config.pageCache,
    securityHeaders: security,
    ...(options.appTree && { appTree: options.appTree }),
    ...(options.now && { now: options.now }),
  });

  // Health checks stay out of the request log and need no headers beyond the basics.
  app.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });

  // Known pages already rendered today, straight from memory (same headers and log line as below).
  app.use(pages.fromCache);

  app.use(requestLogger(logger));
  app.use(security);

  // The live stream: before compression, which must never touch it.
  app.use('/api', streams.router);

  app.use(compression({ filter: shouldCompress }));
  app.use(staticFiles(join(config.distDir, 'client')));
  app.use(seoRoutes(config.site));

  // GET/HEAD of any path (no route pattern: a malformed escape is a 404 page, not a 400).
  app.use(pages.render);

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
    logger.error({ err, path: req.path }, 'request failed');
    sendServerError(res);
  };
  app.use(onError);
  return app;
}

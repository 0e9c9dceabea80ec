/**
 * Page rendering: match the route (and so the status) first, then stream the
 * React document with renderToPipeableStream. Browsers get bytes at shell-ready,
 * crawlers and HEAD requests the complete document. Finished renders are cached
 * per page and Chicago date, compressed, with an ETag; later requests are served
 * from memory, like a static file.
 */
import { Writable } from 'node:stream';
import type { ReactNode } from 'react';
import type { Request, RequestHandler, Response } from 'express';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { BootData } from '../shared/boot.ts';
import { formatChicagoDate } from '../shared/date.ts';
import { AppRoutes, matchPage, preloadPage } from '../shared/routes.tsx';
import type { SiteConfig } from '../shared/site.ts';
import { Document } from '../shared/ui/Document.tsx';
import { negotiateEncoding, pageAssets, type Manifest } from './assets.ts';
import type { Logger } from './logger.ts';
import { compressPage, PageCache, type CachedPage } from './page-cache.ts';

export const HTML_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

export interface RendererOptions {
  manifest: Manifest;
  site: SiteConfig;
  logger: Logger;
  renderTimeoutMs: number;
  cache: boolean;
  /** Tests swap in an app tree that throws or hangs. */
  appTree?: (location: string) => ReactNode;
  /** Tests pin the clock. */
  now?: () => Date;
}

export const SERVER_ERROR_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Server error</title>' +
  '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
  '<body><h1>Something went wrong</h1><p>We could not show this page. Please try again in a moment.</p>' +
  '<p><a href="/">Return to Home</a></p></body></html>';

export function sendServerError(res: Response): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.status(500).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' }).send(SERVER_ERROR_HTML);
}

export function createPageRenderer(options: RendererOptions): RequestHandler {
  const { manifest, site, logger, renderTimeoutMs } = options;
  const cache = new PageCache();
  const now = options.now ?? (() => new Date());

  return async (req, res, next) => {
    // Decide the page, and so the status, before a single byte is sent.
    const page = matchPage(req.path);
    const pageId = page.id;
    const status = pageId === 'notFound' ? 404 : 200;
    if (status === 404) logger.warn({ path: req.path }, 'page not found');

    const today = formatChicagoDate(now());
    const cached = options.cache ? cache.get(pageId, today) : undefined;
    if (cached) return sendCached(req, res, cached);

    const abortController = new AbortController();
    res.once('close', () => abortController.abort());
    try {
      await preloadPage(pageId);
    } catch (error) {
      return next(error);
    }
    const boot: BootData = { site, today, assets: pageAssets(manifest, page.module) };
    const wholeDocument = req.method === 'HEAD' || isbot(req.get('user-agent') ?? '');

    const chunks: Buffer[] = [];
    let failed = false;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        if (wholeDocument) return done();
        if (res.write(chunk)) done();
        else res.once('drain', () => done());
      },
      final(done) {
        if (!wholeDocument) res.end();
        done();
      },
    });
    // React calls flush() after each batch: pass it on so compression sends what it has.
    (sink as Writable & { flush(): void }).flush = () => (res as Response & { flush?: () => void }).flush?.();

    const { pipe, abort } = renderToPipeableStream(
      <Document boot={boot}>
        <StaticRouter location={req.originalUrl}>{options.appTree ? options.appTree(req.originalUrl) : <AppRoutes />}</StaticRouter>
      </Document>,
      {
        onShellReady() {
          if (wholeDocument) return;
          res.status(status).set({
            'Content-Type': 'text/html; charset=utf-8',
            'Cache-Control': HTML_CACHE_CONTROL,
            Vary: 'Accept-Encoding',
          });
          pipe(sink);
        },
        onAllReady() {
          if (wholeDocument) pipe(sink);
        },
        onShellError(error) {
          failed = true;
          clearTimeout(timer);
          logger.error({ err: error, path: req.path }, 'page shell failed to render');
          sendServerError(res);
        },
        onError(error) {
          failed = true;
          if (!abortController.signal.aborted) logger.error({ err: error, path: req.path }, 'page render error');
        },
      },
    );
    const timer = setTimeout(() => abort(new Error(`render exceeded ${renderTimeoutMs} ms`)), renderTimeoutMs);
    abortController.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      abort();
    });

    sink.once('finish', () => {
      clearTimeout(timer);
      if (failed) {
        if (wholeDocument) sendServerError(res);
        return;
      }
      const html = Buffer.concat(chunks);
      const store = compressPage(status, html).then((page) => {
        if (options.cache) cache.set(pageId, today, page);
        return page;
      });
      if (wholeDocument) {
        store.then((page) => sendCached(req, res, page), (error: unknown) => next(error));
      } else {
        store.catch((error: unknown) => logger.error({ err: error }, 'page compression failed'));
      }
    });
  };
}

/** Serves a rendered page from memory: pre-compressed bytes, ETag, 304 on a matching If-None-Match. */
function sendCached(req: Request, res: Response, page: CachedPage): void {
  const encoding = negotiateEncoding(req, page);
  const body = encoding ? page[encoding] : page.identity;
  res.status(page.status).set({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': HTML_CACHE_CONTROL,
    Vary: 'Accept-Encoding',
    ETag: page.etag,
    'Content-Length': String(body.length),
  });
  if (encoding) res.set('Content-Encoding', encoding);
  if (page.status === 200 && ifNoneMatch(req, page.etag)) {
    res.status(304).removeHeader('Content-Length');
    res.end();
    return;
  }
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

function ifNoneMatch(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * Page rendering: match the route (and so the status) first, then stream the
 * React document with renderToPipeableStream. Browsers get bytes at shell-ready,
 * crawlers and HEAD requests the complete document. Finished renders are cached
 * per page and Chicago date, compressed, with an ETag; later requests are served
 * from memory, like a static file, by a fast lane at the head of the middleware chain.
 */
import { Writable } from 'node:stream';
import type { ReactNode } from 'react';
import type { Request, RequestHandler, Response } from 'express';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { StaticRouter } from 'react-router-dom';
import type { BootData } from '../shared/boot.ts';
import { formatChicagoDate } from '../shared/date.ts';
import { pageById, type PageEntry } from '../shared/pages.ts';
import { AppRoutes, matchPage, preloadPage } from '../shared/routes.tsx';
import type { SiteConfig } from '../shared/site.ts';
import { Document } from '../shared/ui/Document.tsx';
import { negotiateEncoding, pageAssets } from './assets.ts';
import type { Manifest } from './manifest.ts';
import type { Logger } from './logger.ts';
import { compressPage, PageCache, type CachedPage } from './page-cache.ts';

export const HTML_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

export interface RendererOptions {
  manifest: Manifest;
  site: SiteConfig;
  logger: Logger;
  renderTimeoutMs: number;
  cache: boolean;
  /**
   * The security-header middleware the full chain runs. The fast lane replays the headers it
   * sets (recorded once: they are the same for every response, there is no per-request nonce).
   */
  securityHeaders: RequestHandler;
  /** Tests swap in an app tree that throws or hangs. */
  appTree?: (location: string) => ReactNode;
  /** Tests pin the clock. */
  now?: () => Date;
}

export interface PageRenderer {
  /** GET and HEAD of any path: the page, from the cache or rendered; other methods pass on. */
  render: RequestHandler;
  /**
   * First in the chain: a known page already cached for today, answered straight from memory
   * with the same headers and request-log line as the full chain. Everything else passes on.
   */
  fromCache: RequestHandler;
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
  res
    .status(500)
    .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
    .send(SERVER_ERROR_HTML);
}

export function createPageRenderer(options: RendererOptions): PageRenderer {
  const { manifest, site, logger, renderTimeoutMs } = options;
  const cache = new PageCache();
  const today = chicagoDay(options.now ?? (() => new Date()));
  const pageFor = pageMatcher();
  const securityHeaders = recordHeaders(options.securityHeaders);
  // Renders in progress per page and date: concurrent misses wait for the one render instead of
  // each rendering and compressing the same page (a cold start or midnight under load).
  const rendering = new Map<string, Promise<CachedPage | undefined>>();

  const fromCache: RequestHandler = (req, res, next) => {
    if (!options.cache || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const page = pageFor(req.path);
    // 404s take the full chain: /api, static files and robots.txt come before the not-found page.
    if (page.id === 'notFound') return next();
    const cached = cache.get(page.id, today());
    if (!cached) return next();
    const started = Date.now();
    for (const [name, value] of securityHeaders) res.setHeader(name, value);
    sendCached(req, res, cached);
    // The line the request logger (pino-http) writes for the full chain.
    logger.info(
      {
        req: { method: req.method, url: req.originalUrl, userAgent: req.headers['user-agent'] },
        clientIp: req.ip,
        res: { statusCode: res.statusCode },
        responseTime: Date.now() - started,
      },
      'request completed',
    );
  };

  const render: RequestHandler = async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // Decide the page, and so the status, before a single byte is sent.
    const page = pageFor(req.path);
    const pageId = page.id;
    const status = pageId === 'notFound' ? 404 : 200;
    if (status === 404) logger.warn({ path: req.path }, 'page not found');

    const day = today();
    const key = `${pageId}|${day}`;
    if (options.cache) {
      let cached = cache.get(pageId, day);
      if (!cached) {
        const pending = rendering.get(key);
        if (pending) cached = await pending;
      }
      if (cached) {
        if (!req.socket.destroyed) sendCached(req, res, cached);
        return;
      }
    }

    // Settles this render for requests waiting on it: with the page, or with nothing (they render themselves).
    let settled = false;
    let release: (page: CachedPage | undefined) => void = () => {};
    const pending = new Promise<CachedPage | undefined>((resolve) => (release = resolve));
    if (options.cache) rendering.set(key, pending);
    const settle = (done?: CachedPage) => {
      if (settled) return;
      settled = true;
      if (options.cache) {
        if (rendering.get(key) === pending) rendering.delete(key);
        // A render that began before midnight must not replace the new day's pages.
        if (done && today() === day) cache.set(pageId, day, done);
      }
      release(done);
    };

    try {
      await preloadPage(pageId);
      renderPage(req, res, next, page, status, day, settle);
    } catch (error) {
      settle();
      next(error);
    }
  };

  function renderPage(
    req: Request,
    res: Response,
    next: (error: unknown) => void,
    page: PageEntry,
    status: number,
    day: string,
    settle: (page?: CachedPage) => void,
  ): void {
    const boot: BootData = { site, today: day, assets: pageAssets(manifest, page.module) };
    const wholeDocument = req.method === 'HEAD' || isbot(req.get('user-agent') ?? '');

    const chunks: Buffer[] = [];
    let failed = false;
    let finished = false;
    // No backpressure from the first visitor's connection: the whole page is kept in memory
    // anyway, and a slow client must not hold up the render others are waiting for.
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        if (!wholeDocument) res.write(chunk);
        done();
      },
      final(done) {
        if (!wholeDocument) res.end();
        done();
      },
    });
    // React calls flush() after each batch: pass it on so compression sends what it has.
    (sink as Writable & { flush(): void }).flush = () => (res as Response & { flush?: () => void }).flush?.();

    let timer: NodeJS.Timeout | undefined;
    const { pipe, abort } = renderToPipeableStream(
      <Document boot={boot}>
        <StaticRouter location={req.originalUrl}>
          {options.appTree ? options.appTree(req.originalUrl) : <AppRoutes />}
        </StaticRouter>
      </Document>,
      {
        // React outlines a completed Suspense boundary larger than this (default ~12.8 KB) and
        // reveals it with an inline script, which our CSP blocks: the page would then render twice.
        // Pages never suspend (modules are preloaded), so inline every boundary.
        progressiveChunkSize: Number.MAX_SAFE_INTEGER,
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
          settle();
          logger.error({ err: error, path: req.path }, 'page shell failed to render');
          sendServerError(res);
        },
        onError(error) {
          failed = true;
          if (!res.destroyed) logger.error({ err: error, path: req.path }, 'page render error');
        },
      },
    );
    timer = setTimeout(() => abort(new Error(`render exceeded ${renderTimeoutMs} ms`)), renderTimeoutMs);
    res.once('close', () => {
      clearTimeout(timer);
      // The visitor left before the page was complete: stop rendering; waiters render themselves.
      if (!finished) {
        settle();
        abort();
      }
    });

    sink.once('finish', () => {
      finished = true;
      clearTimeout(timer);
      if (failed) {
        settle();
        if (wholeDocument) sendServerError(res);
        return;
      }
      const html = Buffer.concat(chunks);
      // With the cache off, a streamed page is compressed on the fly by the compression
      // middleware; pre-compressing it too (brotli at 11) would only waste the CPU.
      if (!options.cache && !wholeDocument) return;
      compressPage(status, html).then(
        (done) => {
          settle(done);
          if (wholeDocument) sendCached(req, res, done);
        },
        (error: unknown) => {
          settle();
          if (wholeDocument) next(error);
          else logger.error({ err: error }, 'page compression failed');
        },
      );
    });
  }

  return { render, fromCache };
}

/** Serves a rendered page from memory: pre-compressed bytes, ETag, 304 on a matching If-None-Match. */
function sendCached(req: Request, res: Response, page: CachedPage): void {
  const encoding = negotiateEncoding(req, page);
  const body = encoding ? page[encoding] : page.identity;
  res.statusCode = page.status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', HTML_CACHE_CONTROL);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('ETag', page.etag);
  if (page.status === 200 && ifNoneMatch(req, page.etag)) {
    res.statusCode = 304;
    res.end();
    return;
  }
  res.setHeader('Content-Length', body.length);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

function ifNoneMatch(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  return header === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === bare);
}

/**
 * matchPage() with a small memo (react-router compiles every route pattern on each call).
 * A path with a malformed percent-escape names no page: it is the not-found page, not a 400.
 */
function pageMatcher(): (path: string) => PageEntry {
  const memo = new Map<string, PageEntry>();
  const notFound = pageById('notFound');
  return (path) => {
    let page = memo.get(path);
    if (page) return page;
    page = decodable(path) ? matchPage(path) : notFound;
    if (memo.size >= 512) memo.clear();
    memo.set(path, page);
    return page;
  };
}

function decodable(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** Chicago's date, worked out at most once a second (Intl formatting is slow for every request). */
function chicagoDay(now: () => Date): () => string {
  let second = Number.NaN;
  let day = '';
  return () => {
    const date = now();
    const s = Math.floor(date.getTime() / 1000);
    if (s !== second) {
      second = s;
      day = formatChicagoDate(date);
    }
    return day;
  };
}

/**
 * The headers a header-only middleware (helmet) sets, recorded once so the fast lane can replay
 * them. It must answer synchronously and the same for every request, or the fast lane would lie.
 */
export function recordHeaders(middleware: RequestHandler): Array<[string, string | number | readonly string[]]> {
  const headers = new Map<string, string | number | readonly string[]>();
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.set(name, value);
      return res;
    },
    removeHeader(name: string) {
      headers.delete(name);
    },
    getHeader(name: string) {
      return headers.get(name);
    },
  };
  const record = () => {
    headers.clear();
    let passed = false;
    middleware({ method: 'GET', url: '/', headers: {} } as Request, res as unknown as Response, () => {
      passed = true;
    });
    if (!passed) throw new Error('security headers: the middleware must call next() synchronously');
    return JSON.stringify([...headers]);
  };
  // Twice: a per-request value (a CSP nonce, say) would differ, and must not be replayed.
  const first = record();
  if (first !== record()) throw new Error('security headers differ per request: the fast lane cannot replay them');
  return [...headers];
}

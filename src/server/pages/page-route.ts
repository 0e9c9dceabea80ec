/**
 * Pages in the Express chain: GET and HEAD of any path. The path picks the page (and so the
 * status) before a byte is sent; a variant of a page's path is redirected to it; the page comes
 * from the cache, from a render in progress, or from a new render that fills the cache. A render
 * is only cached when it produced the page it was rendered for.
 */
import type { ReactNode } from 'react';
import type { RequestHandler } from 'express';
import { isbot } from 'isbot';
import type { BootData } from '../../shared/boot.ts';
import type { IsoDate } from '../../shared/date.ts';
import type { PageEntry } from '../../shared/pages.ts';
import { preloadPage } from '../../shared/page-modules.ts';
import type { SiteConfig } from '../../shared/site.ts';
import { pageAssets } from '../assets.ts';
import type { Manifest } from '../manifest.ts';
import type { Logger } from 'pino';
import { cut, noteOnRequestLine } from '../request-log.ts';
import type { HeaderList } from '../security.ts';
import { type CachedPage, compressPage, sendPage, type PageCache, type SettleRender } from './page-cache.ts';
import { createPathMatcher, keptQuery } from './page-path.ts';
import { renderDocument } from './render.tsx';
import { NOT_FOUND_CACHE_CONTROL, type PageCacheControl } from './shared-cache.ts';

/** What happens to page requests in the Express chain (metrics.ts counts them). */
export interface PageEvents {
  hit(): void;
  miss(): void;
  /** Waited for a render already in progress. */
  coalesced(): void;
  rendered(ms: number): void;
}

export interface PageRouteOptions {
  manifest: Manifest;
  site: SiteConfig;
  /** Boot data: the port the radio player asks for. */
  streamPort: number;
  /** VITALS_SAMPLE_RATE, handed to the page in its boot data. */
  vitalsSampleRate: number;
  logger: Logger;
  /** The security headers, first in a cached page's answers (security.ts). */
  security: HeaderList;
  renderTimeoutMs: number;
  /** Absent when PAGE_CACHE=off: every request renders. */
  cache: PageCache | undefined;
  /** Chicago's date now (the boot data's, and the cache's key). */
  today: () => IsoDate;
  /** A page's Cache-Control now, for the day it shows (pages/shared-cache.ts). */
  cacheControl: PageCacheControl;
  events?: PageEvents;
  /** Tests swap in an app tree that throws or hangs. */
  appTree?: (location: string) => ReactNode;
}

const escapeText = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

/** The cheap check that a document is the page it was rendered for: the page's own <title>. */
export function isDocumentOf(html: Buffer, page: PageEntry): boolean {
  const start = html.indexOf('<title>');
  if (start < 0) return false;
  const end = html.indexOf('</title>', start);
  return end > start && html.toString('utf8', start + 7, end).includes(escapeText(page.title));
}

type Request = Parameters<RequestHandler>[0];
type Response = Parameters<RequestHandler>[1];

/** A variant of a page's path: 301 to the page's own path, keeping the query. */
function redirectToPage(req: Request, res: Response, page: PageEntry): void {
  // Browsers may keep it; shared caches must not (its Location keeps the query, and anyone can invent variants).
  res
    .status(301)
    .set({ Location: page.path + keptQuery(req.url), 'Cache-Control': 'private, max-age=3600' })
    .type('text/plain')
    .send('Moved Permanently');
}

/** The cached page, or the one a render in progress is about to give (counted as a hit or as coalesced). */
async function fromCache(
  cache: PageCache,
  page: PageEntry,
  day: IsoDate,
  events: PageEvents | undefined,
): Promise<CachedPage | undefined> {
  const cached = cache.get(page.id, day);
  if (cached) {
    events?.hit();
    return cached;
  }
  const pending = cache.inFlight(page.id, day);
  if (pending) events?.coalesced();
  return await pending;
}

interface Render {
  page: PageEntry;
  status: 200 | 404;
  day: IsoDate;
  /** HEAD and bots get the whole document at once; browsers a stream. */
  wholeDocument: boolean;
  /** Hands the cache the prepared page (or nothing) when the render ends. */
  settle: SettleRender;
}

/** Renders the page (streamed, or whole), and prepares it for the cache when it is the page. */
async function renderPage(options: PageRouteOptions, req: Request, res: Response, job: Render): Promise<void> {
  const { manifest, site, streamPort, vitalsSampleRate, logger, cache } = options;
  const { page, status, day, wholeDocument, settle } = job;
  await preloadPage(page.id);
  const assets = pageAssets(manifest, page.module);
  const boot: BootData = { page: page.id, site, today: day, assets, streamPort, vitalsSampleRate };
  // The not-found page renders at the path that chose it; every other page at its own path.
  const location = status === 404 ? req.path : page.path;
  // Read when the head is written: a shared cache counts s-maxage from when it gets the answer.
  const cacheControl = status === 404 ? () => NOT_FOUND_CACHE_CONTROL : () => options.cacheControl(day);
  const renderStarted = performance.now();
  const html = await renderDocument(
    res,
    { location, status, boot, styles: manifest.entry.styles, wholeDocument, cacheControl },
    {
      logger,
      timeoutMs: options.renderTimeoutMs,
      ...(options.appTree && { appTree: options.appTree }),
    },
  );
  if (!html) return settle();
  options.events?.rendered(performance.now() - renderStarted);
  // A document that is not its page (no such render is known) is sent, never cached: a
  // false alarm here costs the cache, not the visitor.
  const isPage = isDocumentOf(html, page);
  if (!isPage) logger.error({ page: page.id, location: cut(location) }, 'render did not produce its page: not cached');
  // With the cache off a streamed page was compressed on the fly; brotli at 11 would be wasted.
  if (!(cache && isPage) && !wholeDocument) return settle();
  const done = await compressPage(status, html, options.security, cacheControl());
  settle(isPage ? done : undefined);
  if (wholeDocument && !res.destroyed) sendPage(req, res, done, 'security', options.cacheControl(day));
}

/**
 * Sends the cached page (or the one a render in progress gives) and returns nothing; else returns
 * how to settle the new render (a no-op without a cache).
 */
async function sendCachedOrBegin(
  options: PageRouteOptions,
  req: Request,
  res: Response,
  page: PageEntry,
  day: IsoDate,
): Promise<SettleRender | undefined> {
  const { cache, events } = options;
  let settle: SettleRender = () => {};
  if (cache) {
    const cached = await fromCache(cache, page, day, events);
    if (cached) {
      if (!res.destroyed) sendPage(req, res, cached, 'security', options.cacheControl(day));
      return undefined;
    }
    settle = cache.begin(page.id, day);
  }
  events?.miss();
  return settle;
}

export function createPageRoute(options: PageRouteOptions): RequestHandler {
  const matchPath = createPathMatcher();

  return async (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    // req.path is the path of the target in any form (`GET http://x/about` too); the raw target is never rendered.
    const match = matchPath(req.path);
    if (match.kind === 'variant') return redirectToPage(req, res, match.page);
    const { page } = match;
    const status = match.kind === 'notFound' ? 404 : 200;
    if (status === 404) noteOnRequestLine(res, { notFound: true });

    const day = options.today();
    const settle = await sendCachedOrBegin(options, req, res, page, day);
    if (!settle) return;

    const wholeDocument = req.method === 'HEAD' || isbot(req.get('user-agent') ?? '');
    try {
      await renderPage(options, req, res, { page, status, day, wholeDocument, settle });
    } catch (error) {
      settle();
      next(error);
    }
  };
}

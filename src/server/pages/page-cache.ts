/**
 * Rendered pages, kept with their gzip and brotli bytes. Pages are the same for every visitor
 * but for the date, so the key is the page and Chicago's date; entries of other dates are
 * dropped as the day turns. Concurrent misses of one page wait for a single render (a cold
 * start or midnight under load) instead of each rendering and compressing the same page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { PageId } from '../../shared/pages.ts';
import { chicagoIsoDate, type IsoDate } from '../../shared/date.ts';
import {
  etagOf,
  type HeadersSet,
  prepareRepresentation,
  sendRepresentation,
  type PreparedRepresentation,
} from '../http-cache.ts';
import type { HeaderList } from '../security.ts';
import { perSecond } from './per-second.ts';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

export const HTML_TYPE = 'text/html; charset=utf-8';

/** A page in memory (status 200, or 404 for the not-found page) with every answer's headers, security headers first. */
export type CachedPage = PreparedRepresentation;

/** `cacheControl`: a page's now, or the not-found page's (pages/shared-cache.ts). */
export async function compressPage(
  status: number,
  html: Buffer,
  security: HeaderList,
  cacheControl: string,
): Promise<CachedPage> {
  const [gzipped, brotlied] = await Promise.all([
    gz(html, { level: 9 }),
    brotli(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: html.length } }),
  ]);
  return prepareRepresentation(
    { etag: etagOf(html), identity: html, gzip: gzipped, br: brotlied },
    { contentType: HTML_TYPE, cacheControl, status },
    security,
  );
}

/**
 * A page from memory, with the same headers whichever lane sends it: the fast lane's response
 * carries none yet and gets the security headers in the page's list; in the Express chain the
 * front door has set them, and the list goes on after them (`headersSet`). A page (200) says the Cache-Control
 * of this second (`pageCacheControl`, shorter near midnight); the not-found page keeps its own.
 */
export function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  headersSet: HeadersSet,
  pageCacheControl: string,
): void {
  sendRepresentation(req, res, page, headersSet, page.status === 200 ? pageCacheControl : page.cacheControl);
}

/** Settles a render others may be waiting on: with its page (cached if still that day), or with nothing. */
export type SettleRender = (page?: CachedPage) => void;

export class PageCache {
  private readonly entries = new Map<PageId, CachedPage>();
  private readonly rendering = new Map<string, Promise<CachedPage | undefined>>();
  private date = '';

  /** `today` names the current day (an ISO date): chicagoDay() in the app. */
  constructor(readonly today: () => IsoDate) {}

  get(pageId: PageId, day: string = this.today()): CachedPage | undefined {
    return day === this.date ? this.entries.get(pageId) : undefined;
  }

  /** The render of this page and day in progress, if any, to wait for instead of rendering again. */
  inFlight(pageId: PageId, day: string): Promise<CachedPage | undefined> | undefined {
    return this.rendering.get(`${pageId}|${day}`);
  }

  /** Registers a render of this page and day; waiters get what it settles with. */
  begin(pageId: PageId, day: string): SettleRender {
    const key = `${pageId}|${day}`;
    let release: (page: CachedPage | undefined) => void = () => {};
    const pending = new Promise<CachedPage | undefined>((resolve) => (release = resolve));
    this.rendering.set(key, pending);
    let settled = false;
    return (page) => {
      if (settled) return;
      settled = true;
      if (this.rendering.get(key) === pending) this.rendering.delete(key);
      // A render that began before midnight must not replace the new day's pages.
      if (page && this.today() === day) this.set(pageId, day, page);
      release(page);
    };
  }

  private set(pageId: PageId, day: string, page: CachedPage): void {
    if (day !== this.date) {
      this.entries.clear();
      this.date = day;
    }
    this.entries.set(pageId, page);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Chicago's ISO date, worked out at most once a second; `nowMs` reads the clock in ms (Date.now). */
export function chicagoDay(nowMs: () => number): () => IsoDate {
  return perSecond(nowMs, (_second, date) => chicagoIsoDate(date));
}

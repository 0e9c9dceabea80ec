/**
 * What a page tells caches (RFC 9111, RFC 5861). Shared caches (nginx, a CDN) may serve it for
 * `s-maxage` seconds, then a stale copy for `stale-while-revalidate` seconds while they fetch a
 * fresh one, and a stale copy for `stale-if-error` seconds while the app fails. Browsers keep
 * revalidating with the ETag (`max-age=0`). The page shows Chicago's date, so freshness and the
 * revalidation window end at the next Chicago midnight at the latest; only `stale-if-error` may
 * reach past it (yesterday's paper beats an error page while every app process is down).
 * No `must-revalidate`: it would forbid shared caches the stale copies asked for above.
 */
import { chicagoIsoDate, type IsoDate } from '../../shared/date.ts';
import { perSecond } from './per-second.ts';

export interface SharedCacheSettings {
  /** Seconds a shared cache may serve a page without asking the app. */
  sMaxAge: number;
  staleWhileRevalidate: number;
  staleIfError: number;
}

/** The not-found page: shared caches must not store whatever URL a crawler or an attacker invents. */
export const NOT_FOUND_CACHE_CONTROL = 'no-store';

const HOUR_MS = 3_600_000;

/**
 * Whole seconds from `now` to the next midnight in Chicago, rounded down (0 to 90,000: a day has
 * 23, 24 or 25 hours there), so an age of this many seconds never reaches past it. Chicago is UTC−6
 * or UTC−5, and its clocks change at 2 a.m., never at midnight, so the next midnight is the next
 * day's 00:00 at one of those two offsets: the one where the newsroom's date (date.ts) turns over.
 */
export function secondsToChicagoMidnight(now: Date): number {
  const t = now.getTime();
  const today = chicagoIsoDate(now);
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const nextDayUtc = Date.UTC(year, month - 1, day + 1);
  for (const offsetHours of [5, 6]) {
    const midnight = nextDayUtc + offsetHours * HOUR_MS;
    const turnsOver = chicagoIsoDate(new Date(midnight - 1)) === today && chicagoIsoDate(new Date(midnight)) !== today;
    if (turnsOver && midnight > t) return Math.floor((midnight - t) / 1000);
  }
  throw new Error(`no Chicago midnight after ${now.toISOString()}`);
}

/** The Cache-Control of a page (status 200) sent `secondsToMidnight` before Chicago's next midnight. */
export function pageCacheControl(settings: SharedCacheSettings, secondsToMidnight: number): string {
  const sMaxAge = Math.min(settings.sMaxAge, secondsToMidnight);
  const staleWhileRevalidate = Math.min(settings.staleWhileRevalidate, secondsToMidnight - sMaxAge);
  return `public, max-age=0, s-maxage=${sMaxAge}, stale-while-revalidate=${staleWhileRevalidate}, stale-if-error=${settings.staleIfError}`;
}

/**
 * A shared cache counts `s-maxage` from the whole second of its own clock in which it got the
 * answer (nginx: `valid_sec = ngx_time() + s-maxage`, still fresh during that last second). An
 * answer worked out late in one second and read in the next would stay a second past midnight, so
 * the ages end one second earlier.
 */
const CACHE_CLOCK_MARGIN_S = 1;

/** What a page tells shared caches for the day it shows: a copy of that day's page is stale at once. */
export type PageCacheControl = (day: IsoDate) => string;

/**
 * A page's Cache-Control now, for a page that shows `day`, worked out at most once a second (the
 * fast lane asks on every request), for the last millisecond of that second so it holds for all
 * of it, and a second earlier for the cache's clock (CACHE_CLOCK_MARGIN_S). The ages end at the
 * end of the page's own day: a render begun before midnight and sent after it shows yesterday,
 * and may not be kept as fresh (it gets s-maxage=0, as in the last second of its day).
 */
export function pageCacheControlClock(settings: SharedCacheSettings, nowMs: () => number): PageCacheControl {
  const expired = pageCacheControl(settings, 0);
  const now = perSecond(nowMs, (second) => {
    const end = new Date(second * 1000 + 999);
    const left = secondsToChicagoMidnight(end) - CACHE_CLOCK_MARGIN_S;
    return { day: chicagoIsoDate(end), value: pageCacheControl(settings, Math.max(0, left)) };
  });
  return (day) => {
    const current = now();
    return current.day === day ? current.value : expired;
  };
}

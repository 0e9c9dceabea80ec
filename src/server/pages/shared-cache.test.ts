import { describe, expect, it } from 'vitest';
import { pageCacheControl, pageCacheControlClock, secondsToChicagoMidnight } from './shared-cache.ts';

const HOUR = 3_600;
const settings = { sMaxAge: 300, staleWhileRevalidate: 60, staleIfError: 86_400 };

describe('secondsToChicagoMidnight', () => {
  it('counts a normal day of 24 hours, in standard and in daylight time', () => {
    // Midnight CST is 06:00 UTC; midnight CDT is 05:00 UTC.
    expect(secondsToChicagoMidnight(new Date('2026-11-25T06:00:00Z'))).toBe(24 * HOUR);
    expect(secondsToChicagoMidnight(new Date('2026-07-04T05:00:00Z'))).toBe(24 * HOUR);
    expect(secondsToChicagoMidnight(new Date('2026-11-26T05:59:30Z'))).toBe(30);
    expect(secondsToChicagoMidnight(new Date('2026-11-26T05:59:59.400Z'))).toBe(0);
  });

  it('knows the spring day has 23 hours (clocks skip 2 a.m., March 8, 2026)', () => {
    expect(secondsToChicagoMidnight(new Date('2026-03-08T06:00:00Z'))).toBe(23 * HOUR);
    // 3 a.m. CDT, just after the change: 21 hours to go.
    expect(secondsToChicagoMidnight(new Date('2026-03-08T08:00:00Z'))).toBe(21 * HOUR);
    expect(secondsToChicagoMidnight(new Date('2026-03-09T04:59:00Z'))).toBe(60);
  });

  it('knows the autumn day has 25 hours (clocks repeat 1 a.m., November 1, 2026)', () => {
    expect(secondsToChicagoMidnight(new Date('2026-11-01T05:00:00Z'))).toBe(25 * HOUR);
    // The second 1 a.m. (CST): 23 hours to go.
    expect(secondsToChicagoMidnight(new Date('2026-11-01T07:00:00Z'))).toBe(23 * HOUR);
    expect(secondsToChicagoMidnight(new Date('2026-11-02T05:59:00Z'))).toBe(60);
  });

  it('goes to the following midnight at midnight itself, and across a year', () => {
    expect(secondsToChicagoMidnight(new Date('2027-01-01T06:00:00Z'))).toBe(24 * HOUR);
    expect(secondsToChicagoMidnight(new Date('2026-12-31T18:00:00Z'))).toBe(12 * HOUR);
  });
});

describe('pageCacheControl', () => {
  it('lets shared caches keep a page, and browsers revalidate it', () => {
    expect(pageCacheControl(settings, 10 * HOUR)).toBe(
      'public, max-age=0, s-maxage=300, stale-while-revalidate=60, stale-if-error=86400',
    );
  });

  it('never lets freshness or revalidation reach past midnight; only stale-if-error does', () => {
    expect(pageCacheControl(settings, 330)).toBe(
      'public, max-age=0, s-maxage=300, stale-while-revalidate=30, stale-if-error=86400',
    );
    expect(pageCacheControl(settings, 120)).toBe(
      'public, max-age=0, s-maxage=120, stale-while-revalidate=0, stale-if-error=86400',
    );
    expect(pageCacheControl(settings, 0)).toBe(
      'public, max-age=0, s-maxage=0, stale-while-revalidate=0, stale-if-error=86400',
    );
  });

  it('holds for every moment of the second it is worked out in, and the next (the cache’s clock)', () => {
    let now = new Date('2026-11-26T05:57:00.000Z');
    const cacheControl = pageCacheControlClock(settings, () => now.getTime());
    expect(cacheControl('2026-11-25')).toContain('s-maxage=178,');
    now = new Date('2026-11-26T05:57:00.999Z');
    expect(cacheControl('2026-11-25')).toContain('s-maxage=178,');
    now = new Date('2026-11-26T05:59:58.000Z');
    expect(cacheControl('2026-11-25')).toContain('s-maxage=0,');
    now = new Date('2026-11-26T05:59:59.000Z');
    expect(cacheControl('2026-11-25')).toContain('s-maxage=0,');
  });

  it('ends the ages at the end of the day the page shows: a page of yesterday is stale at once', () => {
    let now = new Date('2026-11-26T05:59:59.000Z'); // 23:59:59 in Chicago, November 25
    const cacheControl = pageCacheControlClock(settings, () => now.getTime());
    expect(cacheControl('2026-11-25')).toContain('s-maxage=0, stale-while-revalidate=0,');
    now = new Date('2026-11-26T06:00:01.000Z'); // 00:00:01, November 26
    expect(cacheControl('2026-11-26')).toContain('s-maxage=300, stale-while-revalidate=60,');
    expect(cacheControl('2026-11-25')).toBe(
      'public, max-age=0, s-maxage=0, stale-while-revalidate=0, stale-if-error=86400',
    );
  });
});

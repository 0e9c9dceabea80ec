/**
 * The day as a value: Chicago's ISO date from the clock (Intl), and its words from a pure function
 * that must say what Intl's long US format says, for every day.
 */
import { describe, expect, it } from 'vitest';
import { chicagoIsoDate, formatLongDate, NEWSROOM_TIME_ZONE } from './date.ts';

const intlLong = new Intl.DateTimeFormat('en-US', {
  timeZone: NEWSROOM_TIME_ZONE,
  weekday: 'long',
  year: 'numeric',
  month: 'long',
  day: 'numeric',
});

describe('chicagoIsoDate', () => {
  it("is Chicago's calendar day on both sides of midnight and across the DST changes", () => {
    // 05:30 UTC on Jan 1 is 23:30 on Dec 31 in Chicago (CST, UTC−6).
    expect(chicagoIsoDate(new Date('2026-01-01T05:30:00Z'))).toBe('2025-12-31');
    expect(chicagoIsoDate(new Date('2026-01-01T06:00:00Z'))).toBe('2026-01-01');
    // CDT (UTC−5): 04:59 UTC on July 5 is 23:59 on July 4.
    expect(chicagoIsoDate(new Date('2026-07-05T04:59:00Z'))).toBe('2026-07-04');
    expect(chicagoIsoDate(new Date('2026-07-05T05:00:00Z'))).toBe('2026-07-05');
    // The days the clocks change (2 a.m. local), before and after.
    expect(chicagoIsoDate(new Date('2026-03-08T07:59:00Z'))).toBe('2026-03-08');
    expect(chicagoIsoDate(new Date('2026-11-01T06:30:00Z'))).toBe('2026-11-01');
    expect(chicagoIsoDate(new Date('2026-11-02T05:59:00Z'))).toBe('2026-11-01');
  });
});

describe('formatLongDate', () => {
  it("says what Intl's long US format says for every day of two years", () => {
    let days = 0;
    for (let t = Date.UTC(2025, 0, 1, 18); t < Date.UTC(2027, 0, 1); t += 86_400_000) {
      const date = new Date(t);
      // 18:00 UTC is noon or 1 pm in Chicago: the same calendar day as UTC.
      expect(formatLongDate(chicagoIsoDate(date)), date.toISOString()).toBe(intlLong.format(date));
      days++;
    }
    expect(days).toBe(730);
  });

  it('names the day the issue was filed, and refuses what is not a calendar date', () => {
    expect(formatLongDate('2026-11-25')).toBe('Wednesday, November 25, 2026');
    expect(formatLongDate('2028-02-29')).toBe('Tuesday, February 29, 2028');
    for (const bad of ['', '2026-11-31', '2027-02-29', '2026-13-01', 'Wednesday, November 25, 2026', '2026-1-5'])
      expect(() => formatLongDate(bad), bad).toThrow(RangeError);
  });
});

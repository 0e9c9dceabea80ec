/**
 * The day as a value: Chicago's ISO date from the clock (Intl), and its words from a pure function
 * that must say what Intl's long US format says, for every day.
 */
import { describe, expect, it } from 'vitest';
import { certainlyChicagoDay, chicagoIsoDate, formatLongDate, NEWSROOM_TIME_ZONE } from './date.ts';

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

describe('certainlyChicagoDay', () => {
  it('is never wrong, and leaves Intl only the hours around midnight, every 20 minutes of two years', () => {
    let certain = 0;
    let instants = 0;
    for (let t = Date.UTC(2025, 0, 1); t < Date.UTC(2027, 0, 1); t += 20 * 60_000) {
      const instant = new Date(t);
      const today = chicagoIsoDate(instant);
      // Never "certain" of a day the instant is not in (the day before or after, by the clock an hour off).
      for (const other of [chicagoIsoDate(new Date(t - 3_600_000)), chicagoIsoDate(new Date(t + 3_600_000))])
        if (certainlyChicagoDay(other, instant)) expect(other, instant.toISOString()).toBe(today);
      if (certainlyChicagoDay(today, instant)) certain++;
      instants++;
    }
    // 23 of 24 hours of every day (and more on the 25-hour day) need no Intl.
    expect(certain / instants).toBeGreaterThan(0.95);
  });

  it('at the edges of a winter and a summer day, and for what is not a date', () => {
    // CST (UTC−6): Jan 1 runs from 06:00 UTC to 06:00 UTC next day; certain from 06:00 to 05:00.
    expect(certainlyChicagoDay('2026-01-01', new Date('2026-01-01T05:59:59Z'))).toBe(false);
    expect(certainlyChicagoDay('2026-01-01', new Date('2026-01-01T06:00:00Z'))).toBe(true);
    expect(certainlyChicagoDay('2026-01-01', new Date('2026-01-02T04:59:59Z'))).toBe(true);
    expect(certainlyChicagoDay('2026-01-01', new Date('2026-01-02T05:00:00Z'))).toBe(false);
    // CDT (UTC−5): July 4 runs from 05:00 UTC to 05:00 UTC next day; certain from 06:00 to 05:00.
    expect(certainlyChicagoDay('2026-07-04', new Date('2026-07-04T05:30:00Z'))).toBe(false);
    expect(certainlyChicagoDay('2026-07-04', new Date('2026-07-05T04:59:59Z'))).toBe(true);
    expect(certainlyChicagoDay('2026-07-04', new Date('2026-07-05T05:00:00Z'))).toBe(false);
    expect(certainlyChicagoDay('not a date', new Date('2026-07-04T12:00:00Z'))).toBe(false);
  });
});

/**
 * The browser refreshes the header's Chicago date without Intl when it can
 * (a first Intl.DateTimeFormat is a long task on load). The shortcut must
 * never disagree with Intl, and must answer most of the day.
 */
import { describe, expect, it } from 'vitest';
import { chicagoDateWithoutIntl, formatChicagoDate, isoDateOfLongUsDate } from './date.ts';

describe('chicagoDateWithoutIntl', () => {
  it('agrees with Intl at every quarter hour of two years, DST changes included, and answers 23 hours in 24', () => {
    const start = Date.UTC(2025, 0, 1);
    const end = Date.UTC(2027, 0, 1);
    const step = 15 * 60_000;
    let answered = 0;
    let total = 0;
    for (let t = start; t < end; t += step) {
      const date = new Date(t);
      const cheap = chicagoDateWithoutIntl(date);
      total++;
      if (cheap === undefined) continue;
      answered++;
      if (cheap !== formatChicagoDate(date)) expect(cheap, date.toISOString()).toBe(formatChicagoDate(date));
    }
    expect(answered / total).toBeCloseTo(23 / 24, 2);
  });

  it('steps aside in the hour when UTC−6 and UTC−5 fall on different days', () => {
    // 05:30 UTC on Jan 1 is 23:30 on Dec 31 in Chicago (CST) but 00:30 at UTC−5.
    expect(chicagoDateWithoutIntl(new Date('2026-01-01T05:30:00Z'))).toBeUndefined();
    expect(formatChicagoDate(new Date('2026-01-01T05:30:00Z'))).toBe('Wednesday, December 31, 2025');
    expect(chicagoDateWithoutIntl(new Date('2026-01-01T06:30:00Z'))).toBe('Thursday, January 1, 2026');
    expect(chicagoDateWithoutIntl(new Date('2026-07-04T17:00:00Z'))).toBe('Saturday, July 4, 2026');
  });
});

describe('isoDateOfLongUsDate', () => {
  it("gives the <time datetime> of every day of two years from the header's words", () => {
    for (let t = Date.UTC(2025, 0, 1, 18); t < Date.UTC(2027, 0, 1); t += 86_400_000) {
      const date = new Date(t);
      // 18:00 UTC is noon or 1 pm in Chicago: the same calendar day as UTC.
      expect(isoDateOfLongUsDate(formatChicagoDate(date))).toBe(date.toISOString().slice(0, 10));
    }
  });

  it('gives nothing for words that are not a long US date', () => {
    expect(isoDateOfLongUsDate('')).toBeUndefined();
    expect(isoDateOfLongUsDate('Saturday, Brumaire 21, 2026')).toBeUndefined();
  });
});

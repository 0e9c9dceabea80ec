import { describe, expect, it } from 'vitest';
import {
  afterFailure,
  backTarget,
  behindText,
  chooseEngine,
  clampToWindow,
  forwardTarget,
  hourStartTarget,
  mediaTimeFor,
  positionText,
  REWIND_EMPTY,
  REWIND_UNAVAILABLE,
  rewindBlocked,
  wallClockFor,
  windowSpan,
} from './rewind-logic.ts';

const at = (iso: string) => Date.parse(iso);
const win = (start: string | null, end: string | null, recording = true) => ({ recording, start, end, titles: [] });
// 8:00 a.m. Chicago (CST, UTC-6) on 1 December 2026 is 14:00 UTC.
const span = { start: at('2026-12-01T13:50:00Z'), end: at('2026-12-01T14:10:00Z') };
const now = at('2026-12-01T14:10:05Z');

describe('rewind rules', () => {
  it('says why rewind is off: not recording, or nothing (or too little) recorded yet', () => {
    expect(rewindBlocked(null)).toBeNull();
    expect(rewindBlocked(win(null, null))).toBe(REWIND_EMPTY);
    expect(rewindBlocked(win('2026-12-01T14:00:00Z', '2026-12-01T14:00:12Z'))).toBe(REWIND_EMPTY);
    expect(rewindBlocked(win('2026-12-01T14:00:00Z', '2026-12-01T14:05:00Z', false))).toBe(REWIND_UNAVAILABLE);
    expect(rewindBlocked(win(null, null, false))).toBe(REWIND_UNAVAILABLE);
    expect(rewindBlocked(win('2026-12-01T14:00:00Z', '2026-12-01T14:05:00Z'))).toBeNull();
    expect(windowSpan(win(null, null))).toBeNull();
  });

  it('back 30 s from live or from the heard time, clamped to the window start', () => {
    expect(backTarget(null, now, span)).toBe(at('2026-12-01T14:09:35Z'));
    // Live with a window that ends well before now (its newest segment is late): no later than its live margin.
    expect(backTarget(null, now + 60_000, span)).toBe(span.end - 20_000);
    expect(backTarget(at('2026-12-01T14:05:00Z'), now, span)).toBe(at('2026-12-01T14:04:30Z'));
    expect(backTarget(at('2026-12-01T13:50:10Z'), now, span)).toBe(span.start);
    expect(clampToWindow(at('2026-12-01T13:00:00Z'), span)).toBe(span.start);
    expect(clampToWindow(at('2026-12-01T15:00:00Z'), span)).toBe(span.end - 20_000);
  });

  it('forward 30 s, or live when that reaches the live edge', () => {
    expect(forwardTarget(at('2026-12-01T14:00:00Z'), span)).toBe(at('2026-12-01T14:00:30Z'));
    expect(forwardTarget(at('2026-12-01T14:09:20Z'), span)).toBe('live');
    expect(forwardTarget(at('2026-12-01T13:40:00Z'), span)).toBe(span.start);
  });

  it('start of this hour only when the window holds it', () => {
    expect(hourStartTarget(now, span)).toBe(at('2026-12-01T14:00:00Z'));
    expect(hourStartTarget(now, { start: at('2026-12-01T14:00:01Z'), end: span.end })).toBeNull();
    expect(hourStartTarget(now, null)).toBeNull();
    // The hour began a moment ago: it is the live edge, not somewhere to go back to.
    expect(
      hourStartTarget(at('2026-12-01T14:00:10Z'), { start: span.start, end: at('2026-12-01T14:00:10Z') }),
    ).toBeNull();
  });

  it('position as Chicago clock time and how far behind live', () => {
    expect(positionText(at('2026-12-01T14:02:40Z'))).toBe('Listening to 8:02 a.m.');
    expect(positionText(at('2026-07-01T18:30:00Z'))).toBe('Listening to 1:30 p.m.');
    expect(behindText(now - 45_000, now)).toBe('45 s behind live');
    expect(behindText(now - 12 * 60_000 - 5_000, now)).toBe('12 min behind live');
    expect(behindText(now - 65 * 60_000, now)).toBe('1 h 5 min behind live');
    expect(behindText(now - 120 * 60_000, now)).toBe('2 h behind live');
  });

  it('maps media time and wall clock both ways, across a gap', () => {
    const t0 = at('2026-12-01T14:00:00Z');
    // Two 6 s segments, then a gap of a minute (the station was lost), then one more.
    const pieces = [
      { start: 0, duration: 6, programDateTime: t0 },
      { start: 6, duration: 6, programDateTime: t0 + 6_000 },
      { start: 12, duration: 6, programDateTime: t0 + 72_000 },
    ];
    expect(wallClockFor(pieces, 7.5)).toBe(t0 + 7_500);
    expect(wallClockFor(pieces, 13)).toBe(t0 + 73_000);
    expect(mediaTimeFor(pieces, t0 + 7_500)).toBe(7.5);
    expect(mediaTimeFor(pieces, t0 + 73_000)).toBe(13);
    // Inside the gap: where the audio resumes; past the end: unknown.
    expect(mediaTimeFor(pieces, t0 + 30_000)).toBe(12);
    expect(mediaTimeFor(pieces, t0 + 90_000)).toBeNull();
    expect(wallClockFor([{ start: 0, duration: 6, programDateTime: null }], 1)).toBeNull();
  });

  it('a failed segment: the next one once, then live', () => {
    expect(afterFailure(at('2026-12-01T14:00:06Z'), 1, span)).toBe(at('2026-12-01T14:00:06Z'));
    expect(afterFailure(at('2026-12-01T14:00:06Z'), 2, span)).toBe('live');
    expect(afterFailure(at('2026-12-01T14:09:45Z'), 1, span)).toBe('live');
    expect(afterFailure(at('2026-12-01T14:00:06Z'), 1, null)).toBe('live');
  });

  it('native HLS only where the element dates its media time; else hls.js where MSE plays MPEG audio', () => {
    expect(chooseEngine(true, true, true)).toBe('native');
    expect(chooseEngine(true, false, true)).toBe('hls.js'); // Debian Chromium 156: 'maybe', no getStartDate
    expect(chooseEngine(false, false, false)).toBeNull();
  });
});

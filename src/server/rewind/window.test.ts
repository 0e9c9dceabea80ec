/** The window as a value: the playlist it gives and reads back, its bounds, its titles. */
import { describe, expect, it } from 'vitest';
import {
  emptyWindow,
  markTitle,
  parsePlaylist,
  renderPlaylist,
  type Segment,
  segmentName,
  trim,
  type WindowState,
  windowJson,
} from './window.ts';

const T0 = Date.parse('2026-11-28T14:00:00.000Z');

function windowOf(count: number, gapAt: number[] = []): WindowState {
  const state = emptyWindow();
  for (let i = 0; i < count; i++) {
    const start = T0 + i * 6_000;
    const segment: Segment = {
      name: segmentName(start, i),
      start,
      seconds: 6,
      bytes: 96_000,
      gapBefore: gapAt.includes(i),
    };
    state.segments.push(segment);
  }
  return state;
}

describe('renderPlaylist', () => {
  it('is a live sliding playlist: dates on every segment, gaps marked, no end', () => {
    const text = renderPlaylist(windowOf(3, [2]), 6);
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        '#EXT-X-TARGETDURATION:6',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-DISCONTINUITY-SEQUENCE:0',
        '#EXT-X-PROGRAM-DATE-TIME:2026-11-28T14:00:00.000Z',
        '#EXTINF:6.000000,',
        '1795874400000-0.mp3',
        '#EXT-X-PROGRAM-DATE-TIME:2026-11-28T14:00:06.000Z',
        '#EXTINF:6.000000,',
        '1795874406000-1.mp3',
        '#EXT-X-DISCONTINUITY',
        '#EXT-X-PROGRAM-DATE-TIME:2026-11-28T14:00:12.000Z',
        '#EXTINF:6.000000,',
        '1795874412000-2.mp3',
        '',
      ].join('\n'),
    );
    expect(text).not.toContain('ENDLIST');
  });

  it('raises the target duration to the longest segment, rounded', () => {
    const state = windowOf(1);
    state.segments[0]!.seconds = 7.6;
    expect(renderPlaylist(state, 6)).toContain('#EXT-X-TARGETDURATION:8');
  });

  it('is read back as written (sizes aside)', () => {
    const state = windowOf(4, [1, 3]);
    state.mediaSequence = 17;
    state.discontinuitySequence = 2;
    const read = parsePlaylist(renderPlaylist(state, 6));
    expect(read.mediaSequence).toBe(17);
    expect(read.discontinuitySequence).toBe(2);
    expect(read.segments).toEqual(state.segments.map((s) => ({ ...s, bytes: 0 })));
  });

  it('leaves out entries that are not whole when read back', () => {
    const read = parsePlaylist('#EXTM3U\n#EXTINF:6.000,\n1795874400000-0.mp3\n../etc/passwd\n');
    expect(read.segments).toEqual([]);
  });
});

describe('trim', () => {
  it('drops segments that ended before the window, counting their sequence and gaps', () => {
    const state = windowOf(5, [1]);
    const now = T0 + 30_000;
    const dropped = trim(state, now, { windowS: 20, maxBytes: 1e9 });
    // Segment i ends at 6(i+1) s; those ending at or before 10 s (now − 20 s) leave: 0 only.
    expect(dropped.map((s) => s.name)).toEqual([segmentName(T0, 0)]);
    expect(state.mediaSequence).toBe(1);
    expect(state.discontinuitySequence).toBe(0);
    trim(state, now + 6_000, { windowS: 20, maxBytes: 1e9 });
    expect(state.mediaSequence).toBe(2);
    expect(state.discontinuitySequence).toBe(1);
  });

  it('drops the oldest while the window holds more bytes than allowed', () => {
    const state = windowOf(5);
    const dropped = trim(state, T0 + 30_000, { windowS: 3_600, maxBytes: 3 * 96_000 });
    expect(dropped).toHaveLength(2);
    expect(state.segments).toHaveLength(3);
  });

  it('keeps the titles inside the window and the one on air at its start', () => {
    const state = windowOf(5);
    markTitle(state, 'A', T0 - 60_000);
    markTitle(state, 'B', T0 + 1_000);
    markTitle(state, 'C', T0 + 20_000);
    trim(state, T0 + 30_000, { windowS: 15, maxBytes: 1e9 });
    // The window now starts at 12 s: B (from 1 s) is on air then, A is gone.
    expect(state.titles.map((t) => t.title)).toEqual(['B', 'C']);
  });
});

describe('markTitle and windowJson', () => {
  it('keeps each new title once with its time; window.json says the window and recording', () => {
    const state = windowOf(2);
    expect(markTitle(state, 'A', T0)).toBe(true);
    expect(markTitle(state, 'A', T0 + 5)).toBe(false);
    expect(markTitle(state, null, T0 + 5)).toBe(false);
    expect(windowJson(state, true)).toEqual({
      recording: true,
      start: '2026-11-28T14:00:00.000Z',
      end: '2026-11-28T14:00:12.000Z',
      titles: [{ at: '2026-11-28T14:00:00.000Z', title: 'A' }],
    });
    expect(windowJson(emptyWindow(), false)).toEqual({ recording: false, start: null, end: null, titles: [] });
  });
});

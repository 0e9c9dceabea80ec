/** The rewind window's shared shapes: URLs, the title heard at an instant, and the guard on window.json. */
import { describe, expect, it } from 'vitest';
import { parseRewindWindow, type RewindWindow, rewindPlaylistUrl, rewindWindowUrl, titleAt } from './rewind.ts';

const window: RewindWindow = {
  recording: true,
  start: '2026-11-28T14:00:03.000Z',
  end: '2026-11-28T16:00:03.000Z',
  titles: [
    { at: '2026-11-28T13:58:00.000Z', title: 'Morning Edition' },
    { at: '2026-11-28T14:30:00.000Z', title: 'Weather' },
    { at: '2026-11-28T15:00:00.000Z', title: 'News at 9' },
  ],
};

describe('rewind URLs', () => {
  it("name a port's playlist and window.json", () => {
    expect(rewindPlaylistUrl(8000)).toBe('/api/rewind/8000/playlist.m3u8');
    expect(rewindWindowUrl(8001)).toBe('/api/rewind/8001/window.json');
  });
});

describe('titleAt', () => {
  it('is the title that started last at or before the instant', () => {
    expect(titleAt(window, new Date('2026-11-28T14:00:03.000Z'))).toBe('Morning Edition');
    expect(titleAt(window, new Date('2026-11-28T14:29:59.999Z'))).toBe('Morning Edition');
    expect(titleAt(window, new Date('2026-11-28T14:30:00.000Z'))).toBe('Weather');
    expect(titleAt(window, new Date('2026-11-28T15:59:00.000Z'))).toBe('News at 9');
  });

  it('is null before the first title and with no titles', () => {
    expect(titleAt(window, new Date('2026-11-28T13:00:00.000Z'))).toBeNull();
    expect(titleAt({ ...window, titles: [] }, new Date('2026-11-28T15:00:00.000Z'))).toBeNull();
  });
});

describe('parseRewindWindow', () => {
  it('keeps a well-formed window and an empty one', () => {
    expect(parseRewindWindow(JSON.parse(JSON.stringify(window)))).toEqual(window);
    const empty = { recording: false, start: null, end: null, titles: [] };
    expect(parseRewindWindow(empty)).toEqual(empty);
  });

  it('drops unknown fields', () => {
    expect(parseRewindWindow({ ...window, extra: 1 })).toEqual(window);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'window'],
    ['recording not a boolean', { ...window, recording: 'yes' }],
    ['start without end', { ...window, end: null }],
    ['end without start', { ...window, start: null }],
    ['start not a time', { ...window, start: 'soon' }],
    ['start after end', { ...window, start: window.end, end: window.start }],
    ['titles missing', { ...window, titles: undefined }],
    ['a title without its time', { ...window, titles: [{ title: 'x' }] }],
    ['a title not a string', { ...window, titles: [{ at: window.start, title: 3 }] }],
    ['titles out of order', { ...window, titles: [...window.titles].reverse() }],
  ])('refuses %s', (_name, json) => {
    expect(parseRewindWindow(json)).toBeNull();
  });
});

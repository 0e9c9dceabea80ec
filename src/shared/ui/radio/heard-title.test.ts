import { describe, expect, it } from 'vitest';
import type { RewindWindow } from '../../rewind.ts';
import {
  connectionAt,
  heardAtLive,
  liveView,
  newestOf,
  pushed,
  rewoundView,
  type TitleMark,
  withPush,
} from './heard-title.ts';

const info = (title: string, listeners: number | null = 3) => ({ title, listeners });

/** The marks of a push history: the first title known from before, then changes at the given page times. */
function history(...changes: Array<[number, string]>): TitleMark[] {
  let marks: TitleMark[] = pushed([], info('Morning Show'), 0);
  for (const [at, title] of changes) marks = pushed(marks, info(title), at);
  return marks;
}

describe('the heard time of a live connection', () => {
  const newest = (lagS: number, behindMs: number) => ({ lagS, behindMs });

  it('is the connection start, less the burst it began with, plus currentTime', () => {
    // src assigned at 10 000 ms; the relay says its newest listener got 4.1 s of past audio.
    const connection = connectionAt(10_000, 4.1);
    expect(heardAtLive(connection, 0)).toBe(5_900);
    // 1.5 s played: what is heard was at the live edge at 10 000 − 4 100 + 1 500.
    expect(heardAtLive(connection, 1.5)).toBe(7_400);
  });

  it('takes the start the first push after the data tells (arrival − behind), and keeps it', () => {
    let connection = connectionAt(10_000, 4.2);
    // Pushed before this connection started, or before its data came: about another listener.
    connection = withPush(connection, 9_990, newest(1.7, 100), true);
    connection = withPush(connection, 10_200, newest(1.7, 100), false);
    expect(heardAtLive(connection, 0)).toBe(5_800);
    // The relay took this listener in (its request was slow: 2 s after src was assigned): its first byte
    // was live 1.7 s before the join, the push written 0.4 s after it.
    connection = withPush(connection, 12_400, newest(1.7, 2_100), true);
    expect(heardAtLive(connection, 0)).toBe(10_300);
    // A later listener's push changes nothing for this one.
    expect(heardAtLive(withPush(connection, 30_000, newest(4.1, 4_300), true), 0)).toBe(10_300);
  });

  it('is unknown while nothing tells (the relay was not relaying before this listener), and a reconnect restarts it', () => {
    expect(heardAtLive(connectionAt(10_000, null), 3)).toBeNull();
    expect(heardAtLive(null, 3)).toBeNull();
    const first = withPush(connectionAt(10_000, null), 10_600, newest(4, 4_500), true);
    expect(heardAtLive(first, 50)).toBe(56_100);
    // The reconnect at 60 000 ms: currentTime counts from 0 again, behind the live edge by a new burst.
    const reconnected = connectionAt(60_000, 4);
    expect(heardAtLive(reconnected, 0)).toBe(56_000);
    expect(heardAtLive(reconnected, 1)).toBe(57_000);
  });

  it('reads the newest listener only from a push that has both durations', () => {
    expect(newestOf({ lag: 4.096, behind: 4_500 })).toEqual({ lagS: 4.096, behindMs: 4_500 });
    for (const lag of [undefined, null, -1, Number.NaN, '4']) expect(newestOf({ lag, behind: 1 })).toBeNull();
    expect(newestOf({ lag: 4 })).toBeNull();
    expect(newestOf(null)).toBeNull();
  });
});

describe('the title shown live', () => {
  const marks = history([20_000, 'Evening News']);

  it('stays on the title heard until the heard time reaches the pushed title’s start', () => {
    expect(liveView(marks, 19_999, null).info?.title).toBe('Morning Show');
    expect(liveView(marks, 19_999, null).nextInMs).toBe(1);
  });

  it('switches exactly when the heard time reaches it', () => {
    expect(liveView(marks, 20_000, null).info?.title).toBe('Evening News');
    expect(liveView(marks, 20_000, null).nextInMs).toBeNull();
  });

  it('goes through several changes pushed while the listener is behind, in order', () => {
    const three = history([20_000, 'Evening News'], [21_000, 'Weather']);
    expect(liveView(three, 20_500, null).info?.title).toBe('Evening News');
    expect(liveView(three, 20_500, null).nextInMs).toBe(500);
    expect(liveView(three, 21_000, null).info?.title).toBe('Weather');
  });

  it('shows what is on air when not listening, and keeps the previous title while the heard time is unknown', () => {
    expect(liveView(marks, Number.POSITIVE_INFINITY, null).info?.title).toBe('Evening News');
    expect(liveView(marks, null, info('Morning Show')).info?.title).toBe('Morning Show');
  });

  it('shows the latest listener count with the heard title', () => {
    const counted = pushed(marks, info('Evening News', 9), 20_400);
    expect(counted.at(-1)!.at).toBe(20_000); // the same title: a new count is no new start
    expect(liveView(counted, 10_000, null).info).toEqual({ title: 'Morning Show', listeners: 9 });
  });

  it('keeps the first title known as started before anything heard', () => {
    expect(liveView(history(), -1e12, null).info?.title).toBe('Morning Show');
  });
});

describe('the title shown while rewound', () => {
  const window: RewindWindow = {
    recording: true,
    start: '2026-12-01T20:00:00.000Z',
    end: '2026-12-01T22:00:00.000Z',
    titles: [
      { at: '2026-12-01T19:58:00.000Z', title: 'Jazz Hour' },
      { at: '2026-12-01T21:00:00.000Z', title: 'The 9 O’Clock News' },
    ],
  };

  it('is titleAt(window, heardAt) with the latest count', () => {
    const before = Date.parse('2026-12-01T20:59:59.999Z');
    expect(rewoundView(window, before, info('Live Now', 4))).toEqual({ title: 'Jazz Hour', listeners: 4 });
    expect(rewoundView(window, before + 1, null)).toEqual({ title: 'The 9 O’Clock News', listeners: null });
  });
});

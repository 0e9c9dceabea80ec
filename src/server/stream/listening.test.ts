import { describe, expect, it } from 'vitest';
import { createListeningTally } from './listening.ts';

function clocked() {
  let at = 1_000_000;
  const tally = createListeningTally(() => at);
  const pass = (ms: number) => {
    at += ms;
  };
  return { tally, pass };
}

describe('listening figures', () => {
  it('counts the seconds of sessions under way at each reading, and of those that ended', () => {
    const { tally, pass } = clocked();
    const a = {};
    const b = {};
    tally.start(a, 8076);
    pass(10_000);
    expect(tally.seconds(8076)).toBe(10);
    tally.start(b, 8076);
    pass(5_000);
    expect(tally.seconds(8076)).toBe(20);
    tally.end(a);
    pass(5_000);
    expect(tally.seconds(8076)).toBe(25);
    tally.end(b);
    tally.end(b);
    pass(60_000);
    expect(tally.seconds(8076)).toBe(25);
    expect(tally.seconds(8078)).toBe(0);
  });

  it('counts a session once it has lasted a minute, whether it goes on or ends', () => {
    const { tally, pass } = clocked();
    const short = {};
    const long = {};
    tally.start(short, 8076);
    tally.start(long, 8076);
    pass(59_999);
    tally.end(short);
    expect(tally.sessions(8076)).toBe(0);
    pass(1);
    expect(tally.sessions(8076)).toBe(1);
    pass(3_600_000);
    expect(tally.sessions(8076)).toBe(1);
    tally.end(long);
    expect(tally.sessions(8076)).toBe(1);
  });

  it('keeps the peak of concurrent listeners for this minute and the one before', () => {
    const { tally, pass } = clocked();
    const keys = [{}, {}, {}];
    for (const key of keys) tally.start(key, 8076);
    tally.end(keys[0]!);
    tally.end(keys[1]!);
    expect(tally.peak(8076)).toBe(3);
    pass(60_000);
    expect(tally.peak(8076)).toBe(3);
    pass(60_000);
    expect(tally.peak(8076)).toBe(1);
    pass(600_000);
    expect(tally.peak(8076)).toBe(1);
    tally.end(keys[2]!);
    pass(120_000);
    expect(tally.peak(8076)).toBe(0);
    expect(tally.peak(8078)).toBe(0);
  });
});

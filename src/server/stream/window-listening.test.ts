import { describe, expect, it } from 'vitest';
import { createWindowListening, GAP_SEGMENTS } from './window-listening.ts';

/** A counter on a clock the test moves (6 s segments). */
function counter(maxSessions?: number) {
  let t = 1_000_000;
  const listening = createWindowListening({
    segmentS: 6,
    now: () => t,
    ...(maxSessions !== undefined && { maxSessions }),
  });
  const advance = (ms: number) => {
    t += ms;
  };
  return { listening, advance };
}

describe("the rewind window's listening figures", () => {
  it('count a player fetching a segment every 6 s as listening from the first fetch to the last segment heard', () => {
    const { listening, advance } = counter();
    // A player's start: three segments at once, then one per segment.
    for (let i = 0; i < 3; i++) listening.fetched('10.0.0.1\nFirefox', 8076);
    expect(listening.seconds(8076)).toBe(6);
    expect(listening.peak(8076)).toBe(1);
    for (let i = 0; i < 9; i++) {
      advance(6_000);
      listening.fetched('10.0.0.1\nFirefox', 8076);
    }
    // 54 s between the first fetch and the last, plus the last segment: 60 s, a session of a minute.
    expect(listening.seconds(8076)).toBe(60);
    expect(listening.sessions(8076)).toBe(1);
    // Nothing counted for another port.
    expect(listening.seconds(8078)).toBe(0);
    expect(listening.sessions(8078)).toBe(0);
  });

  it('end a session after three segments without a fetch, keep its seconds, and start another', () => {
    const { listening, advance } = counter();
    for (let i = 0; i < 6; i++) {
      listening.fetched('a', 8076);
      if (i < 5) advance(6_000);
    }
    expect(listening.seconds(8076)).toBe(36);
    // Paused longer than the gap: the pause is not counted, and the figures never go back.
    advance(GAP_SEGMENTS * 6_000 + 1);
    expect(listening.seconds(8076)).toBe(36);
    listening.fetched('a', 8076);
    expect(listening.seconds(8076)).toBe(42);
    expect(listening.sessions(8076)).toBe(0);
  });

  it('tell listeners apart by client and port, and the peak counts them at once', () => {
    const { listening, advance } = counter();
    listening.fetched('a', 8076);
    listening.fetched('b', 8076);
    listening.fetched('a', 8078);
    expect(listening.peak(8076)).toBe(2);
    expect(listening.peak(8078)).toBe(1);
    expect(listening.seconds(8076)).toBe(12);
    // Both gone for two minutes: the peak goes back to none.
    advance(120_000);
    expect(listening.peak(8076)).toBe(0);
    expect(listening.seconds(8076)).toBe(12);
  });

  it('track at most maxSessions clients at once', () => {
    const { listening } = counter(2);
    for (const client of ['a', 'b', 'c']) listening.fetched(client, 8076);
    expect(listening.peak(8076)).toBe(2);
    expect(listening.seconds(8076)).toBe(12);
  });
});

/** The listener count readers see: Icecast's, with this process's own connections replaced by its listeners. */
import { describe, expect, it } from 'vitest';
import { withLocalListeners } from './now-playing.ts';

const icecast = (listeners: number | null) => ({ live: true, title: 'x', listeners });

describe('withLocalListeners', () => {
  it("replaces the relay's connection and the rewind recorder's by the listeners served", () => {
    expect(withLocalListeners(icecast(5), { relaying: true, count: 3 }).listeners).toBe(7);
    expect(withLocalListeners(icecast(5), { relaying: true, count: 3, recording: true }).listeners).toBe(6);
    expect(withLocalListeners(icecast(1), { relaying: false, count: 0, recording: true }).listeners).toBe(0);
    expect(withLocalListeners(icecast(4), { relaying: false, count: 0 }).listeners).toBe(4);
    expect(withLocalListeners(icecast(null), { relaying: true, count: 2, recording: true }).listeners).toBeNull();
  });
});

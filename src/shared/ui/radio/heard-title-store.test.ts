import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RewindWindow } from '../../rewind.ts';
import { installHeardTitle } from './heard-title-store.ts';
import type { NowPlayingInfo, NowPlayingStore } from './now-playing.ts';
import type { RadioController } from './radio-controller.ts';
import { initialRadioState, type RadioState } from './radio-player-logic.ts';
import type { RewindView } from './rewind-player.ts';

/** A player around a fake audio element and a pushed store the test feeds. */
function player() {
  const audio = Object.assign(new EventTarget(), {
    currentTime: 0,
    readyState: 0,
    src: '',
    hasAttribute: (name: string) => name === 'src' && audio.src !== '',
  });
  let info: NowPlayingInfo | null = { title: 'Morning Show', listeners: 2 };
  const pushListeners = new Set<() => void>();
  const pushedStore: NowPlayingStore = {
    subscribe: (l) => {
      pushListeners.add(l);
      return () => pushListeners.delete(l);
    },
    getSnapshot: () => info,
    retain: () => () => {},
  };
  let state: RadioState = { ...initialRadioState, phase: 'live', started: true };
  const controllerListeners = new Set<() => void>();
  const controller = {
    subscribe: (l: () => void) => {
      controllerListeners.add(l);
      return () => controllerListeners.delete(l);
    },
    getSnapshot: () => state,
    send: () => {},
    nowPlaying: pushedStore,
    audio: audio as unknown as HTMLAudioElement,
    station: 'Chicago City News',
  } satisfies RadioController;
  return {
    audio,
    controller,
    push(next: NowPlayingInfo) {
      info = next;
      for (const l of pushListeners) l();
    },
    setState(next: Partial<RadioState>) {
      state = { ...state, ...next };
      for (const l of controllerListeners) l();
    },
    /** src assigned: a new connection; then its data arrives. */
    connect() {
      audio.src = '/api/stream?port=8076';
      audio.currentTime = 0;
      audio.dispatchEvent(new Event('loadstart'));
      audio.readyState = 4;
    },
    play(seconds: number) {
      audio.currentTime += seconds;
      vi.advanceTimersByTime(seconds * 1000);
      audio.dispatchEvent(new Event('timeupdate'));
    },
    shown: () => controller.nowPlaying.getSnapshot()?.title,
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the heard title on the player', () => {
  it('takes the place of the pushed store, and delays a pushed title until its audio is heard', () => {
    const p = player();
    const pushed = p.controller.nowPlaying;
    installHeardTitle(p.controller);
    expect(p.controller.nowPlaying).not.toBe(pushed);
    p.connect();
    // The relay's answer to this listener: 4 s of burst, its first byte live 4.2 s before this push.
    p.push({ title: 'Morning Show', listeners: 3, lag: 4, behind: 4_200 } as NowPlayingInfo);
    p.play(1);
    p.push({ title: 'Evening News', listeners: 3, lag: 4, behind: 5_200 } as NowPlayingInfo);
    // The listener hears the live edge of 4.2 s ago: the old title until then.
    expect(p.shown()).toBe('Morning Show');
    p.play(4.1);
    expect(p.shown()).toBe('Morning Show');
    p.play(0.2);
    expect(p.shown()).toBe('Evening News');
  });

  it('dates a pushed title by `changed`: the relay learnt it that long after it started', () => {
    const p = player();
    installHeardTitle(p.controller);
    p.connect();
    p.push({ title: 'Morning Show', listeners: 3, lag: 4, behind: 4_000 } as NowPlayingInfo);
    p.play(1);
    // Started 300 ms before the push: heard 300 ms sooner than its arrival + 4 s.
    p.push({ title: 'Evening News', listeners: 3, lag: 4, behind: 5_000, changed: 300 } as NowPlayingInfo);
    p.play(3.65);
    expect(p.shown()).toBe('Morning Show');
    p.play(0.1);
    expect(p.shown()).toBe('Evening News');
  });

  it('shows what is on air once the listener stops', () => {
    const p = player();
    installHeardTitle(p.controller);
    p.connect();
    p.push({ title: 'Morning Show', listeners: 3, lag: 4, behind: 4_000 } as NowPlayingInfo);
    p.push({ title: 'Evening News', listeners: 3, lag: 4, behind: 4_000 } as NowPlayingInfo);
    expect(p.shown()).toBe('Morning Show');
    p.setState({ phase: 'stopped' });
    expect(p.shown()).toBe('Evening News');
  });

  it('shows titleAt(window, heardAt) while rewound', () => {
    const p = player();
    const window: RewindWindow = {
      recording: true,
      start: '2026-12-01T20:00:00.000Z',
      end: '2026-12-01T22:00:00.000Z',
      titles: [
        { at: '2026-12-01T19:58:00.000Z', title: 'Jazz Hour' },
        { at: '2026-12-01T21:00:00.000Z', title: 'The 9 O’Clock News' },
      ],
    };
    let heardAt: number | null = null;
    const rewindListeners = new Set<() => void>();
    const rewind: RewindView = {
      heardAt: () => heardAt,
      window: () => window,
      subscribe: (l) => {
        rewindListeners.add(l);
        return () => rewindListeners.delete(l);
      },
    };
    installHeardTitle(p.controller, rewind);
    expect(p.shown()).toBe('Morning Show');
    heardAt = Date.parse('2026-12-01T20:30:00.000Z');
    for (const l of rewindListeners) l();
    expect(p.shown()).toBe('Jazz Hour');
    heardAt = Date.parse('2026-12-01T21:00:01.000Z');
    for (const l of rewindListeners) l();
    expect(p.shown()).toBe('The 9 O’Clock News');
    heardAt = null; // back to live
    for (const l of rewindListeners) l();
    expect(p.shown()).toBe('Morning Show');
  });
});

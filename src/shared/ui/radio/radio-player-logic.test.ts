import { describe, expect, it } from 'vitest';
import { DEFAULT_VOLUME, PLAY_FAILED, STREAM_UNAVAILABLE, streamUrls } from './constants.ts';
import { onAirTitle } from './heard-title.ts';
import { listenersText, parseNowPlaying } from './now-playing.ts';
import {
  initialRadioState,
  playButtonAction,
  playerStatus,
  RECONNECT_GIVE_UP_MS,
  reconnectDelay,
  RETRY_MS,
  shownVolume,
  STALL_MS,
  VISIBLE_RETRY_MAX_MS,
  transition,
  type RadioEvent,
  type RadioState,
} from './radio-player-logic.ts';

const mid = () => 0.5; // no jitter: exactly the backoff step

/** Runs events from a state; returns the last transition and every effect on the way. */
function run(state: RadioState, ...events: RadioEvent[]) {
  let current = state;
  const effects = [];
  for (const event of events) {
    const next = transition(current, event, mid);
    current = next.state;
    effects.push(...next.effects);
  }
  return { state: current, effects };
}

const playing = (): RadioState => run(initialRadioState, { type: 'play' }, { type: 'playing' }).state;

/** Fails every retry from a broken stream; the waits scheduled, and the state after. */
function failRetries(from: RadioState, times: number) {
  let state = run(from, { type: 'ended' }).state;
  const delays: number[] = [];
  for (let i = 0; i < times && state.phase === 'reconnecting'; i++) {
    state = run(state, { type: 'retry-due', session: state.session }).state;
    const next = transition(state, { type: 'media-error' }, mid);
    for (const e of next.effects) if (e.type === 'start-retry-timer') delays.push(e.delayMs);
    state = next.state;
  }
  return { state, delays };
}

describe('radio: before the first play', () => {
  it('is stopped at volume 0.9, unmuted, with no error, and has asked for nothing', () => {
    expect(initialRadioState).toMatchObject({
      phase: 'stopped',
      volume: 0.9,
      muted: false,
      error: null,
      started: false,
    });
    expect(DEFAULT_VOLUME).toBe(0.9);
  });

  it('builds the stream URL from the port (8076 by default)', () => {
    expect(streamUrls().stream).toBe('/api/stream?port=8076');
    expect(streamUrls(9000)).toEqual({
      stream: '/api/stream?port=9000',
      nowPlaying: '/api/now-playing/events?port=9000',
    });
  });
});

describe('radio: play and pause', () => {
  it('play connects (a new session), marks the player started, and goes live on playing', () => {
    const t = transition(initialRadioState, { type: 'play' }, mid);
    expect(t.state).toMatchObject({ phase: 'connecting', started: true, session: 1 });
    expect(t.effects).toEqual([{ type: 'clear-timers' }, { type: 'connect', session: 1 }]);
    const live = transition(t.state, { type: 'playing' }, mid);
    expect(live.state.phase).toBe('live');
    expect(live.effects).toEqual([{ type: 'clear-stall-timer' }]);
  });

  it('toggle plays when stopped and pauses when listening; pause releases the connection', () => {
    const started = transition(initialRadioState, { type: 'toggle' }, mid);
    expect(started.state.phase).toBe('connecting');
    const paused = transition(playing(), { type: 'toggle' }, mid);
    expect(paused.state).toMatchObject({ phase: 'stopped', started: true });
    expect(paused.effects).toEqual([{ type: 'clear-timers' }, { type: 'release' }]);
    // The next play is a fresh connection (the live edge).
    const again = transition(paused.state, { type: 'play' }, mid);
    expect(again.effects).toContainEqual({ type: 'connect', session: paused.state.session + 1 });
  });

  it('play while listening and pause while stopped change nothing (media keys may repeat)', () => {
    const live = playing();
    expect(transition(live, { type: 'play' }, mid)).toEqual({ state: live, effects: [] });
    const stopped = run(live, { type: 'pause' }).state;
    expect(transition(stopped, { type: 'pause' }, mid).effects).toEqual([]);
  });

  it('the answer of a superseded play() is ignored', () => {
    const first = run(initialRadioState, { type: 'play' }).state;
    const second = run(first, { type: 'pause' }, { type: 'play' }).state;
    const late = transition(second, { type: 'play-rejected', session: first.session, mediaError: false }, mid);
    expect(late).toEqual({ state: second, effects: [] });
  });
});

describe('radio: errors', () => {
  it("a refused play shows 'Unable to start playback…' and stops", () => {
    const connecting = run(initialRadioState, { type: 'play' }).state;
    const t = transition(connecting, { type: 'play-rejected', session: connecting.session, mediaError: false }, mid);
    expect(t.state).toMatchObject({ phase: 'stopped', error: PLAY_FAILED });
    expect(t.effects).toEqual([{ type: 'clear-timers' }, { type: 'release' }]);
  });

  it('a refusal caused by a media error is left to the error event', () => {
    const connecting = run(initialRadioState, { type: 'play' }).state;
    expect(
      transition(connecting, { type: 'play-rejected', session: connecting.session, mediaError: true }, mid).state,
    ).toBe(connecting);
  });

  it("a stream that fails before it ever played shows 'Stream temporarily unavailable.'", () => {
    const t = run(initialRadioState, { type: 'play' }, { type: 'media-error' });
    expect(t.state).toMatchObject({ phase: 'stopped', error: STREAM_UNAVAILABLE });
  });

  it('the error stays through the next connect and clears when that play succeeds', () => {
    const failed = run(initialRadioState, { type: 'play' }, { type: 'media-error' }).state;
    const retrying = run(failed, { type: 'play' }).state;
    expect(retrying.error).toBe(STREAM_UNAVAILABLE);
    expect(run(retrying, { type: 'play-resolved', session: retrying.session }).state.error).toBeNull();
    expect(run(retrying, { type: 'playing' }).state.error).toBeNull();
  });

  it('a pause attempt clears the error, whether connecting or already stopped', () => {
    const failed = run(initialRadioState, { type: 'play' }, { type: 'media-error' }).state;
    expect(run(failed, { type: 'pause' }).state.error).toBeNull();
    const connecting = run(failed, { type: 'play' }).state;
    expect(run(connecting, { type: 'toggle' }).state).toMatchObject({ phase: 'stopped', error: null });
  });

  it('media events while stopped change nothing', () => {
    const stopped = run(playing(), { type: 'pause' }).state;
    for (const type of ['playing', 'ended', 'media-error', 'stall-timeout'] as const) {
      expect(transition(stopped, { type }, mid)).toEqual({ state: stopped, effects: [] });
    }
  });
});

describe('radio: volume and mute', () => {
  it('mute toggles; the shown volume is 0 while muted and the chosen one comes back', () => {
    const muted = run(initialRadioState, { type: 'toggle-mute' }).state;
    expect(muted.muted).toBe(true);
    expect(shownVolume(muted)).toBe(0);
    const unmuted = run(muted, { type: 'toggle-mute' }).state;
    expect(unmuted.muted).toBe(false);
    expect(shownVolume(unmuted)).toBe(0.9);
  });

  it('a volume above 0 while muted unmutes; 0 keeps it muted', () => {
    const muted = run(initialRadioState, { type: 'toggle-mute' }).state;
    expect(run(muted, { type: 'set-volume', volume: 0.01 }).state).toMatchObject({ muted: false, volume: 0.01 });
    expect(run(muted, { type: 'set-volume', volume: 0 }).state).toMatchObject({ muted: true, volume: 0 });
  });

  it('unmuting at volume 0 brings back the default volume', () => {
    const silent = run(initialRadioState, { type: 'set-volume', volume: 0 }, { type: 'toggle-mute' }).state;
    expect(run(silent, { type: 'toggle-mute' }).state).toMatchObject({ muted: false, volume: DEFAULT_VOLUME });
  });

  it('keeps the volume within 0–1', () => {
    expect(run(initialRadioState, { type: 'set-volume', volume: 1.5 }).state.volume).toBe(1);
    expect(run(initialRadioState, { type: 'set-volume', volume: -1 }).state.volume).toBe(0);
    expect(run(initialRadioState, { type: 'set-volume', volume: Number.NaN }).state.volume).toBe(0);
  });

  it('volume and mute work the same while playing and leave the connection alone', () => {
    const t = transition(playing(), { type: 'set-volume', volume: 0.3 }, mid);
    expect(t.state).toMatchObject({ phase: 'live', volume: 0.3 });
    expect(t.effects).toEqual([]);
  });
});

describe('radio: reconnect policy', () => {
  it('hidden: waits 1, 2, 4, 8, 15 and then every 30 s, each ± 25 %', () => {
    expect(RETRY_MS).toEqual([1_000, 2_000, 4_000, 8_000, 15_000, 30_000]);
    expect(reconnectDelay(0, () => 0)).toBe(750);
    expect(reconnectDelay(0, () => 0.5)).toBe(1_000);
    expect(reconnectDelay(4, () => 0.999_999)).toBeCloseTo(18_750, 0);
    expect(reconnectDelay(5, mid)).toBe(30_000);
    expect(reconnectDelay(50, () => 0)).toBe(22_500);
  });

  it('shown: the same steps, growing to 8 s only, so no wait is longer than 10 s with the jitter', () => {
    expect(VISIBLE_RETRY_MAX_MS).toBe(10_000);
    expect([0, 1, 2, 3, 4, 5, 50].map((n) => reconnectDelay(n, mid, true))).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000, 8_000, 8_000,
    ]);
    expect(reconnectDelay(9, () => 0, true)).toBe(6_000);
    expect(reconnectDelay(9, () => 0.999_999, true)).toBeLessThanOrEqual(10_000);
    expect(reconnectDelay(9, () => 0.999_999, true)).toBeCloseTo(10_000, 0);
  });

  it('a live stream that ends says "Reconnecting…" (not unavailable), retries after a wait, and is live again on playing', () => {
    const ended = transition(playing(), { type: 'ended' }, mid);
    expect(ended.state).toMatchObject({ phase: 'reconnecting', attempt: 1, error: null, retryScheduled: true });
    expect(playerStatus(ended.state)).toBe('reconnecting');
    expect(ended.effects).toEqual([
      { type: 'clear-timers' },
      { type: 'start-retry-timer', session: ended.state.session, delayMs: 1_000 },
    ]);
    const due = transition(ended.state, { type: 'retry-due', session: ended.state.session }, mid);
    expect(due.effects).toEqual([{ type: 'clear-timers' }, { type: 'connect', session: ended.state.session + 1 }]);
    expect(playerStatus(due.state)).toBe('reconnecting');
    const back = run(due.state, { type: 'playing' }).state;
    expect(back).toMatchObject({ phase: 'live', attempt: 0, error: null });
    expect(playerStatus(back)).toBe('playing');
  });

  it('an error after the stream played reconnects rather than failing', () => {
    const broken = run(playing(), { type: 'media-error' }).state;
    expect(broken).toMatchObject({ phase: 'reconnecting', error: null });
    expect(playerStatus(broken)).toBe('reconnecting');
  });

  it('events of the broken connection while a retry waits do not reschedule it', () => {
    const ended = run(playing(), { type: 'ended' }).state;
    for (const event of [
      { type: 'media-error' },
      { type: 'ended' },
      { type: 'stall-timeout' },
      { type: 'waiting', time: 5 },
      { type: 'playing' },
    ] as const) {
      expect(transition(ended, event, mid)).toEqual({ state: ended, effects: [] });
    }
  });

  it('a refused play during a retry is left to the element (no play-failed message)', () => {
    const due = run(playing(), { type: 'ended' });
    const retry = run(due.state, { type: 'retry-due', session: due.state.session }).state;
    expect(
      transition(retry, { type: 'play-rejected', session: retry.session, mediaError: false }, mid).state.error,
    ).toBeNull();
  });

  it('keeps trying with growing waits: to 8 s (±25 %) while shown, to 30 s while hidden', () => {
    expect(failRetries(playing(), 8).delays).toEqual([2_000, 4_000, 8_000, 8_000, 8_000, 8_000, 8_000, 8_000]);
    const hidden = run(playing(), { type: 'visibility', visible: false }).state;
    const { state, delays } = failRetries(hidden, 8);
    expect(delays).toEqual([2_000, 4_000, 8_000, 15_000, 30_000, 30_000, 30_000, 30_000]);
    expect(state).toMatchObject({ phase: 'reconnecting', error: null });
  });

  it("stops after trying for RECONNECT_GIVE_UP_MS and only then says 'Stream temporarily unavailable.'", () => {
    const { state } = failRetries(playing(), 1_000);
    expect(state).toMatchObject({ phase: 'stopped', error: STREAM_UNAVAILABLE, retryScheduled: false });
    expect(playerStatus(state)).toBe('unavailable');
    // Just before: still trying, nothing red.
    const { state: before, delays } = failRetries(playing(), Math.floor(RECONNECT_GIVE_UP_MS / 8_000) - 3);
    expect(before).toMatchObject({ phase: 'reconnecting', error: null });
    expect(delays.reduce((a, b) => a + b, 1_000)).toBeLessThanOrEqual(RECONNECT_GIVE_UP_MS);
    // A play tries again from the start.
    expect(run(state, { type: 'play' }).state).toMatchObject({ phase: 'connecting', retryingForMs: 0, attempt: 0 });
  });

  it('playing again resets the give-up count', () => {
    const { state } = failRetries(playing(), 20);
    const back = run(state, { type: 'retry-due', session: state.session }, { type: 'playing' }).state;
    expect(back).toMatchObject({ phase: 'live', retryingForMs: 0, attempt: 0 });
  });

  it('jitter spreads the listeners of a station that comes back', () => {
    const waits = [0, 0.25, 0.5, 0.75, 0.999].map((r) =>
      transition(playing(), { type: 'ended' }, () => r).effects.find((e) => e.type === 'start-retry-timer'),
    );
    expect(new Set(waits.map((e) => (e as { delayMs: number }).delayMs)).size).toBe(5);
  });
});

describe('radio: retry now', () => {
  /** A player waiting out its 4th retry wait. */
  const reconnecting = () => failRetries(playing(), 3).state;

  it('while reconnecting the play button is "Retry now", and it connects at once', () => {
    const waiting = reconnecting();
    expect(playButtonAction(waiting)).toBe('retry');
    const t = transition(waiting, { type: 'retry-now' }, mid);
    expect(t.effects).toEqual([{ type: 'clear-timers' }, { type: 'connect', session: waiting.session + 1 }]);
    expect(t.state).toMatchObject({ phase: 'reconnecting', retryScheduled: false });
    // The old wait falling due later does nothing.
    expect(transition(t.state, { type: 'retry-due', session: waiting.session }, mid).effects).toEqual([]);
  });

  it('the button plays when stopped and pauses while connecting or live; "Retry now" does nothing then', () => {
    expect(playButtonAction(initialRadioState)).toBe('play');
    const connecting = run(initialRadioState, { type: 'play' }).state;
    expect(playButtonAction(connecting)).toBe('pause');
    expect(playButtonAction(playing())).toBe('pause');
    for (const state of [initialRadioState, connecting, playing()]) {
      expect(transition(state, { type: 'retry-now' }, mid)).toEqual({ state, effects: [] });
    }
  });

  it('Stop (a pause) beside "Reconnecting…" ends the retries with no error', () => {
    const stopped = transition(reconnecting(), { type: 'pause' }, mid);
    expect(stopped.effects).toEqual([{ type: 'clear-timers' }, { type: 'release' }]);
    expect(playerStatus(stopped.state)).toBe('idle');
    expect(stopped.state.error).toBeNull();
  });

  it('a play (the lock screen, a media key) while nothing is heard connects again at once', () => {
    expect(transition(reconnecting(), { type: 'play' }, mid).effects).toContainEqual({
      type: 'connect',
      session: reconnecting().session + 1,
    });
    const stalled = run(playing(), { type: 'waiting', time: 3 }).state;
    const t = transition(stalled, { type: 'play' }, mid);
    expect(t.effects).toEqual([{ type: 'clear-timers' }, { type: 'connect', session: stalled.session + 1 }]);
    expect(playerStatus(t.state)).toBe('reconnecting');
    // A failure of that connect is a lost signal (keep trying), not a failed start.
    expect(run(t.state, { type: 'media-error' }).state).toMatchObject({ phase: 'reconnecting', error: null });
  });

  it('a hidden page shown again while a retry waits tries at once; shown while live changes nothing', () => {
    const hidden = run(playing(), { type: 'visibility', visible: false }, { type: 'ended' }).state;
    const shown = transition(hidden, { type: 'visibility', visible: true }, mid);
    expect(shown.effects).toEqual([{ type: 'clear-timers' }, { type: 'connect', session: hidden.session + 1 }]);
    expect(shown.state.visible).toBe(true);
    const live = run(playing(), { type: 'visibility', visible: false }).state;
    expect(transition(live, { type: 'visibility', visible: true }, mid)).toEqual({
      state: { ...live, visible: true },
      effects: [],
    });
  });
});

describe('radio: a lost network', () => {
  it('losing the network says so at once and waits to retry; its return retries at once', () => {
    const lost = transition(playing(), { type: 'network-lost' }, mid);
    expect(lost.state).toMatchObject({ phase: 'reconnecting', error: null, attempt: 1 });
    expect(lost.effects).toEqual([
      { type: 'clear-timers' },
      { type: 'start-retry-timer', session: lost.state.session, delayMs: 1_000 },
    ]);
    // Retries that fail while offline keep backing off.
    const failed = run(lost.state, { type: 'retry-due', session: lost.state.session }, { type: 'media-error' }).state;
    expect(failed).toMatchObject({ phase: 'reconnecting', attempt: 2 });
    const back = transition(failed, { type: 'network-back' }, mid);
    expect(back.effects).toEqual([{ type: 'clear-timers' }, { type: 'connect', session: failed.session + 1 }]);
    expect(run(back.state, { type: 'playing' }).state).toMatchObject({ phase: 'live', error: null, attempt: 0 });
  });

  it('the network coming and going while stopped, or coming back while live, changes nothing', () => {
    expect(transition(initialRadioState, { type: 'network-lost' }, mid).state).toBe(initialRadioState);
    expect(transition(initialRadioState, { type: 'network-back' }, mid).state).toBe(initialRadioState);
    const live = playing();
    expect(transition(live, { type: 'network-back' }, mid).state).toBe(live);
  });

  it("a reader's pause during an outage stops the retries, and the network's return does not restart them", () => {
    const lost = run(playing(), { type: 'network-lost' }).state;
    const paused = transition(lost, { type: 'pause' }, mid);
    expect(paused.state).toMatchObject({ phase: 'stopped', error: null });
    expect(paused.effects).toEqual([{ type: 'clear-timers' }, { type: 'release' }]);
    expect(transition(paused.state, { type: 'retry-due', session: lost.session }, mid).effects).toEqual([]);
    expect(transition(paused.state, { type: 'network-back' }, mid).effects).toEqual([]);
  });

  it('a retry that falls due after a pause or a newer attempt does nothing', () => {
    const waiting = run(playing(), { type: 'ended' }).state;
    const paused = run(waiting, { type: 'pause' }).state;
    expect(transition(paused, { type: 'retry-due', session: waiting.session }, mid).effects).toEqual([]);
    const again = run(waiting, { type: 'retry-due', session: waiting.session }, { type: 'media-error' }).state;
    expect(transition(again, { type: 'retry-due', session: waiting.session }, mid).effects).toEqual([]);
  });

  it('a pause from outside (OS, headset) stops the player; one meant for an old session does not', () => {
    const live = playing();
    expect(run(live, { type: 'paused-externally', session: live.session }).state.phase).toBe('stopped');
    expect(run(live, { type: 'paused-externally', session: live.session - 1 }).state).toBe(live);
  });
});

describe('radio: buffering and the stall watchdog', () => {
  it('the first waiting while live shows "Buffering…" and starts the stall timer', () => {
    const t = transition(playing(), { type: 'waiting', time: 12.5 }, mid);
    expect(t.effects).toEqual([{ type: 'start-stall-timer', delayMs: STALL_MS }]);
    expect(playerStatus(t.state)).toBe('buffering');
  });

  it('counts once per stall: more waiting or stalled events of the same stall leave the timer alone', () => {
    const stalled = run(playing(), { type: 'waiting', time: 12.5 }).state;
    for (const time of [12.5, 12.5, 12.5]) {
      expect(transition(stalled, { type: 'waiting', time }, mid)).toEqual({ state: stalled, effects: [] });
    }
    // A timeupdate that does not move the time on (it comes with the stall) is no progress either.
    expect(transition(stalled, { type: 'progress', time: 12.5 }, mid)).toEqual({ state: stalled, effects: [] });
    expect(run(stalled, { type: 'stall-timeout' }).state).toMatchObject({ phase: 'reconnecting', error: null });
  });

  it('audio moving on, or playing, ends the stall; the next stall starts a new timer', () => {
    const stalled = run(playing(), { type: 'waiting', time: 12.5 }).state;
    const moved = transition(stalled, { type: 'progress', time: 12.75 }, mid);
    expect(moved.effects).toEqual([{ type: 'clear-stall-timer' }]);
    expect(playerStatus(moved.state)).toBe('playing');
    const resumed = transition(stalled, { type: 'playing' }, mid);
    expect(resumed.effects).toEqual([{ type: 'clear-stall-timer' }]);
    expect(playerStatus(resumed.state)).toBe('playing');
    expect(transition(moved.state, { type: 'waiting', time: 20 }, mid).effects).toEqual([
      { type: 'start-stall-timer', delayMs: STALL_MS },
    ]);
  });

  it('progress while nothing stalls changes nothing', () => {
    const live = playing();
    expect(transition(live, { type: 'progress', time: 3 }, mid)).toEqual({ state: live, effects: [] });
  });

  it('a first connect that hangs is caught by the same timer (status: connecting)', () => {
    const connecting = run(initialRadioState, { type: 'play' }, { type: 'waiting', time: 0 }).state;
    expect(playerStatus(connecting)).toBe('connecting');
    expect(run(connecting, { type: 'stall-timeout' }).state.phase).toBe('reconnecting');
  });
});

describe('radio: status', () => {
  it('idle before the first play and after a pause; connecting; playing', () => {
    expect(playerStatus(initialRadioState)).toBe('idle');
    expect(playerStatus(run(initialRadioState, { type: 'play' }).state)).toBe('connecting');
    expect(playerStatus(playing())).toBe('playing');
    expect(playerStatus(run(playing(), { type: 'pause' }).state)).toBe('idle');
  });

  it("unavailable on the spec's error (a first connect that fails); not for a refused play", () => {
    expect(playerStatus(run(initialRadioState, { type: 'play' }, { type: 'media-error' }).state)).toBe('unavailable');
    const connecting = run(initialRadioState, { type: 'play' }).state;
    const refused = run(connecting, { type: 'play-rejected', session: connecting.session, mediaError: false }).state;
    expect(playerStatus(refused)).toBe('idle');
    expect(refused.error).toBe(PLAY_FAILED);
  });
});

describe('now playing texts', () => {
  it('parses the endpoint, dropping what is not a title or a count', () => {
    expect(parseNowPlaying({ title: 'Jazz', listeners: 3 })).toEqual({ title: 'Jazz', listeners: 3 });
    expect(parseNowPlaying({ title: '  ', listeners: -1 })).toEqual({ title: null, listeners: null });
    expect(parseNowPlaying({ title: 5, listeners: 1.5 })).toEqual({ title: null, listeners: null });
    expect(parseNowPlaying(null)).toBeNull();
  });

  it('the title is the station’s, else "Live Radio"', () => {
    expect(onAirTitle({ title: 'Jazz', listeners: null })).toBe('Jazz');
    expect(onAirTitle({ title: null, listeners: 2 })).toBe('Live Radio');
    expect(onAirTitle(null)).toBe('Live Radio');
  });

  it('shows one or more listeners, never zero or an unknown count', () => {
    expect(listenersText({ title: null, listeners: 0 })).toBe('');
    expect(listenersText({ title: null, listeners: null })).toBe('');
    expect(listenersText(null)).toBe('');
    expect(listenersText({ title: null, listeners: 1 })).toBe('1 listener tuned in');
    expect(listenersText({ title: null, listeners: 12 })).toBe('12 listeners tuned in');
  });
});

/**
 * The radio's rules (SPEC §4, §5, §8, §9) as a pure state machine: an event
 * and the current state give the next state and the effects the adapter
 * (radio-controller.ts) performs on the audio element and its timers. No DOM,
 * no clock: every rule and the reconnect policy are unit-tested in node.
 *
 * The player wants to listen in every phase but 'stopped'. Pause drops the
 * connection and the next play opens a fresh one (the live edge, not a stale
 * buffer). Chrome ends a live stream that drops ('ended') and does not
 * reconnect by itself. When the stream breaks while the reader wants it
 * (network gone, connection reset, station restarting), the player says
 * "Reconnecting…" at once and tries again by itself: waits that grow with
 * jitter (a station coming back to thousands of listeners gets no storm),
 * never longer than 10 s while the tab is visible, so a reader looking at it hears
 * the station within seconds of its return. "Retry now" (the play button
 * then), the network coming back ('online') and the tab being shown again try
 * at once. A pause stops the retries. After RECONNECT_GIVE_UP_MS of failed
 * tries the player stops and says 'Stream temporarily unavailable.'.
 *
 * Buffering while live ('waiting', or 'stalled') shows "Buffering…" at once and
 * starts one stall timer per stall: later 'waiting' events of the same stall
 * leave it running, and only audio that moves on again ends the stall.
 */
import { DEFAULT_VOLUME, PLAY_FAILED, STREAM_UNAVAILABLE } from './constants.ts';

export type RadioPhase = 'stopped' | 'connecting' | 'live' | 'reconnecting';

export interface RadioState {
  phase: RadioPhase;
  muted: boolean;
  /** The chosen volume, kept while muted (the shown volume is 0 then: see shownVolume). */
  volume: number;
  error: string | null;
  /** Play was pressed at least once on this page load: the player bar shows from then on. */
  started: boolean;
  /** Reconnect attempts since the stream last played; 0 means the current connect was asked for by the visitor. */
  attempt: number;
  /** The current connection reached 'playing' (so an error is a drop to recover from, not a failed start). */
  wasLive: boolean;
  /** Bumped by every connect, release and scheduled retry: answers meant for a superseded one are ignored. */
  session: number;
  /** The media time at which the current stall began (the first 'waiting'); null while audio moves on. */
  stalledAt: number | null;
  /** A retry is scheduled (no connection is being tried until it is due). */
  retryScheduled: boolean;
  /** The waits scheduled since the stream last played: past RECONNECT_GIVE_UP_MS the player stops trying. */
  retryingForMs: number;
  /** The page is shown (document.visibilityState): waits between retries are capped then. */
  visible: boolean;
}

export const initialRadioState: RadioState = {
  phase: 'stopped',
  muted: false,
  volume: DEFAULT_VOLUME,
  error: null,
  started: false,
  attempt: 0,
  wasLive: false,
  session: 0,
  stalledAt: null,
  retryScheduled: false,
  retryingForMs: 0,
  visible: true,
};

/** What the visitor (the card, the bar, the lock screen, media keys) asks for. */
export type RadioCommand =
  | { type: 'toggle' }
  /** Play; while the player waits for sound (buffering, reconnecting), connect again at once. */
  | { type: 'play' }
  | { type: 'pause' }
  /** "Retry now": while reconnecting, connect at once instead of waiting. */
  | { type: 'retry-now' }
  | { type: 'toggle-mute' }
  | { type: 'set-volume'; volume: number };

/** What the audio element and the timers report (through the adapter). */
export type MediaEvent =
  | { type: 'play-resolved'; session: number }
  /** play() was refused; `mediaError` when the element has an error (its 'error' event handles that). */
  | { type: 'play-rejected'; session: number; mediaError: boolean }
  | { type: 'playing' }
  /** The element waits for data ('waiting', or 'stalled'); `time` is its currentTime. */
  | { type: 'waiting'; time: number }
  /** The element's time moved ('timeupdate'); `time` is its currentTime. */
  | { type: 'progress'; time: number }
  | { type: 'stall-timeout' }
  | { type: 'ended' }
  | { type: 'media-error' }
  | { type: 'retry-due'; session: number }
  /** Paused by someone else (the OS, a headset) while we wanted to listen. */
  | { type: 'paused-externally'; session: number }
  /** The browser lost its network ('offline'). */
  | { type: 'network-lost' }
  /** The browser has a network again ('online'). */
  | { type: 'network-back' }
  /** The page was shown or hidden (visibilitychange). */
  | { type: 'visibility'; visible: boolean };

export type RadioEvent = RadioCommand | MediaEvent;

export type RadioEffect =
  /** Give the element the stream source (a new request) and call play(); report its answer with this session. */
  | { type: 'connect'; session: number }
  /** Pause and drop the source, so the element lets go of the connection. */
  | { type: 'release' }
  | { type: 'clear-timers' }
  | { type: 'start-retry-timer'; session: number; delayMs: number }
  | { type: 'start-stall-timer'; delayMs: number }
  | { type: 'clear-stall-timer' };

export interface Transition {
  state: RadioState;
  effects: RadioEffect[];
}

/** Waits between reconnect attempts after the stream breaks; the last one repeats while the player keeps trying. */
export const RETRY_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000] as const;
/** While the page is shown, no wait is longer than this (jitter included): the reader hears the station soon after it is back. */
export const VISIBLE_RETRY_MAX_MS = 10_000;
/** Each wait is its step ± this share, so a station restart's listeners spread out. */
const JITTER = 0.25;
/** Failed tries for this long (the sum of the waits) and the player stops: 'Stream temporarily unavailable.'. */
export const RECONNECT_GIVE_UP_MS = 10 * 60_000;
/** Buffering this long while listening means the stream stalled: reconnect. Counted once per stall. */
export const STALL_MS = 6_000;

/**
 * The wait before reconnect attempt `attempt` (0-based): the backoff step ±25 %. While the page is shown the
 * step stops growing at 8 s, so no wait is longer than VISIBLE_RETRY_MAX_MS.
 */
export function reconnectDelay(attempt: number, random: () => number, visible = false): number {
  const step = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]!;
  const base = visible ? Math.min(step, VISIBLE_RETRY_MAX_MS / (1 + JITTER)) : step;
  return base * (1 - JITTER + random() * 2 * JITTER);
}

export const isListening = (state: RadioState): boolean => state.phase !== 'stopped';

/** What the bar, the card and the lock screen show: one value derived from the state. */
export type PlayerStatus = 'idle' | 'connecting' | 'playing' | 'buffering' | 'reconnecting' | 'unavailable';

export function playerStatus(state: RadioState): PlayerStatus {
  switch (state.phase) {
    case 'stopped':
      return state.error === STREAM_UNAVAILABLE ? 'unavailable' : 'idle';
    case 'connecting':
      return 'connecting';
    case 'live':
      return state.stalledAt === null ? 'playing' : 'buffering';
    case 'reconnecting':
      return 'reconnecting';
  }
}

/** What the play button does: play when stopped, "Retry now" while reconnecting, else pause. */
export type PlayButtonAction = 'play' | 'pause' | 'retry';

export function playButtonAction(state: RadioState): PlayButtonAction {
  if (!isListening(state)) return 'play';
  return state.phase === 'reconnecting' ? 'retry' : 'pause';
}

/** What the volume slider shows: 0 while muted. */
export const shownVolume = (state: RadioState): number => (state.muted ? 0 : state.volume);

const clampVolume = (volume: number): number => (Number.isFinite(volume) ? Math.min(1, Math.max(0, volume)) : 0);

const same = (state: RadioState): Transition => ({ state, effects: [] });

/** What every connect, stop and scheduled retry leaves behind: no stall, no retry pending. */
const settled = { stalledAt: null, retryScheduled: false } as const;

function fail(state: RadioState, message: string): Transition {
  return {
    state: { ...state, ...settled, phase: 'stopped', error: message, session: state.session + 1 },
    effects: [{ type: 'clear-timers' }, { type: 'release' }],
  };
}

function stop(state: RadioState): Transition {
  if (!isListening(state)) return same({ ...state, error: null });
  return {
    state: { ...state, ...settled, phase: 'stopped', error: null, session: state.session + 1 },
    effects: [{ type: 'clear-timers' }, { type: 'release' }],
  };
}

function start(state: RadioState): Transition {
  const session = state.session + 1;
  return {
    // The error stays until this play succeeds (play-resolved or playing clears it).
    state: {
      ...state,
      ...settled,
      phase: 'connecting',
      started: true,
      attempt: 0,
      wasLive: false,
      retryingForMs: 0,
      session,
    },
    effects: [{ type: 'clear-timers' }, { type: 'connect', session }],
  };
}

/**
 * The stream broke while wanted: say so, and try again after a wait. The element keeps its broken
 * source until then (releasing it would pause it, which reads as a pause from outside). Once the
 * waits add up to RECONNECT_GIVE_UP_MS, stop trying and say the stream is unavailable.
 */
function reconnect(state: RadioState, random: () => number): Transition {
  if (!isListening(state) || state.retryScheduled) return same(state);
  const delayMs = reconnectDelay(state.attempt, random, state.visible);
  if (state.retryingForMs + delayMs > RECONNECT_GIVE_UP_MS) return fail(state, STREAM_UNAVAILABLE);
  const session = state.session + 1;
  return {
    state: {
      ...state,
      phase: 'reconnecting',
      attempt: state.attempt + 1,
      stalledAt: null,
      retryScheduled: true,
      retryingForMs: state.retryingForMs + delayMs,
      session,
    },
    effects: [{ type: 'clear-timers' }, { type: 'start-retry-timer', session, delayMs }],
  };
}

/**
 * Connects again now: a retry's time has come, the network or the page is back, or the visitor asked.
 * Counted as a reconnect attempt, so a failure leads to the next wait rather than to an error.
 */
function retryNow(state: RadioState): Transition {
  const session = state.session + 1;
  return {
    state: {
      ...state,
      ...settled,
      phase: 'reconnecting',
      attempt: Math.max(state.attempt, 1),
      wasLive: false,
      session,
    },
    effects: [{ type: 'clear-timers' }, { type: 'connect', session }],
  };
}

/** Listening but hearing nothing: buffering or reconnecting. */
const waitingForSound = (state: RadioState): boolean =>
  state.phase === 'reconnecting' || (state.phase === 'live' && state.stalledAt !== null);

/** What the visitor asks for. */
function command(state: RadioState, event: RadioCommand): Transition {
  switch (event.type) {
    case 'toggle':
      return isListening(state) ? stop(state) : start(state);
    case 'play':
      // A play while nothing is heard (the lock screen says "paused" then) connects again at once.
      if (waitingForSound(state)) return retryNow(state);
      return isListening(state) ? same(state) : start(state);
    case 'pause':
      return stop(state);
    case 'retry-now':
      return state.phase === 'reconnecting' ? retryNow(state) : same(state);
    case 'toggle-mute':
      // Unmuting at volume 0 would stay silent: bring the default volume back.
      return same({
        ...state,
        muted: !state.muted,
        volume: state.muted && state.volume === 0 ? DEFAULT_VOLUME : state.volume,
      });
    case 'set-volume': {
      const volume = clampVolume(event.volume);
      return same({ ...state, volume, muted: state.muted && volume === 0 });
    }
  }
}

/** Buffering: the first 'waiting' of a stall shows it and starts the one stall timer; audio moving on ends it. */
function buffering(state: RadioState, event: { type: 'waiting' | 'progress'; time: number }): Transition {
  if (!isListening(state) || state.retryScheduled) return same(state);
  if (event.type === 'waiting') {
    if (state.stalledAt !== null) return same(state); // the same stall: the timer keeps running
    return { state: { ...state, stalledAt: event.time }, effects: [{ type: 'start-stall-timer', delayMs: STALL_MS }] };
  }
  if (state.stalledAt === null || event.time <= state.stalledAt) return same(state);
  return { state: { ...state, stalledAt: null }, effects: [{ type: 'clear-stall-timer' }] };
}

/** How a connection is going: play()'s answer, playback. */
function playback(state: RadioState, event: MediaEvent): Transition {
  switch (event.type) {
    case 'play-resolved':
      return event.session === state.session && isListening(state) ? same({ ...state, error: null }) : same(state);
    case 'play-rejected':
      if (event.session !== state.session || !isListening(state) || event.mediaError) return same(state);
      // Refused when the visitor asked: say so. A retry's refusal is followed by 'error' or left to the next one.
      return state.attempt === 0 ? fail(state, PLAY_FAILED) : same(state);
    case 'playing':
      if (!isListening(state) || state.retryScheduled) return same(state);
      return {
        state: { ...state, ...settled, phase: 'live', attempt: 0, wasLive: true, error: null, retryingForMs: 0 },
        effects: [{ type: 'clear-stall-timer' }],
      };
    default:
      return same(state);
  }
}

/** Shown again while waiting out a long (hidden-tab) wait: the reader is looking, so try now. */
function visibility(state: RadioState, visible: boolean): Transition {
  const next = { ...state, visible };
  return visible && !state.visible && state.retryScheduled ? retryNow(next) : same(next);
}

/** The stream breaking, and the ways back. */
function breakage(state: RadioState, event: MediaEvent, random: () => number): Transition {
  switch (event.type) {
    case 'media-error':
      if (!isListening(state)) return same(state);
      // A stream that played and then broke, or a retry that failed: keep trying. A first connect that fails: say so.
      return state.wasLive || state.attempt > 0 ? reconnect(state, random) : fail(state, STREAM_UNAVAILABLE);
    case 'retry-due':
      return event.session === state.session && state.retryScheduled ? retryNow(state) : same(state);
    case 'paused-externally':
      return event.session === state.session ? stop(state) : same(state);
    case 'network-lost':
      // Waiting for the audio element to notice can take many seconds of silence under "Playing live".
      return state.phase === 'reconnecting' ? same(state) : reconnect(state, random);
    case 'network-back':
      return state.phase === 'reconnecting' ? retryNow(state) : same(state);
    case 'visibility':
      return visibility(state, event.visible);
    default:
      return reconnect(state, random); // stall-timeout, ended
  }
}

const BUFFERING = new Set<RadioEvent['type']>(['waiting', 'progress']);
const PLAYBACK = new Set<RadioEvent['type']>(['play-resolved', 'play-rejected', 'playing']);
const COMMANDS = new Set<RadioEvent['type']>(['toggle', 'play', 'pause', 'retry-now', 'toggle-mute', 'set-volume']);

/** The next state and the effects to perform; `random` (0 ≤ x < 1) jitters reconnect waits. */
export function transition(state: RadioState, event: RadioEvent, random: () => number = Math.random): Transition {
  if (COMMANDS.has(event.type)) return command(state, event as RadioCommand);
  if (BUFFERING.has(event.type)) return buffering(state, event as { type: 'waiting' | 'progress'; time: number });
  if (PLAYBACK.has(event.type)) return playback(state, event as MediaEvent);
  return breakage(state, event as MediaEvent, random);
}

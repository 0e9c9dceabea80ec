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
 * 'Stream temporarily unavailable.' at once and tries again by itself, with
 * growing waits and jitter (a station coming back to thousands of listeners
 * gets no storm), for as long as the reader wants it; the network coming back
 * ('online') tries at once. A pause stops the retries.
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
};

/** What the visitor (the card, the bar, the lock screen, media keys) asks for. */
export type RadioCommand =
  | { type: 'toggle' }
  | { type: 'play' }
  | { type: 'pause' }
  | { type: 'toggle-mute' }
  | { type: 'set-volume'; volume: number };

/** What the audio element and the timers report (through the adapter). */
export type MediaEvent =
  | { type: 'play-resolved'; session: number }
  /** play() was refused; `mediaError` when the element has an error (its 'error' event handles that). */
  | { type: 'play-rejected'; session: number; mediaError: boolean }
  | { type: 'playing' }
  | { type: 'waiting' }
  | { type: 'progress' }
  | { type: 'stall-timeout' }
  | { type: 'ended' }
  | { type: 'media-error' }
  | { type: 'retry-due'; session: number }
  /** Paused by someone else (the OS, a headset) while we wanted to listen. */
  | { type: 'paused-externally'; session: number }
  /** The browser lost its network ('offline'). */
  | { type: 'network-lost' }
  /** The browser has a network again ('online'). */
  | { type: 'network-back' };

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

/** Waits between reconnect attempts after the stream breaks; the last one repeats for as long as the reader wants to listen. */
export const RETRY_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000] as const;
/** Buffering this long while live means the stream stalled: reconnect. */
export const STALL_MS = 6_000;

/** The wait before reconnect attempt `attempt` (0-based): the backoff step ±25 %, so a station restart's listeners spread out. */
export function reconnectDelay(attempt: number, random: () => number): number {
  const base = RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]!;
  return base * (0.75 + random() * 0.5);
}

export const isListening = (state: RadioState): boolean => state.phase !== 'stopped';

/** What the volume slider shows: 0 while muted. */
export const shownVolume = (state: RadioState): number => (state.muted ? 0 : state.volume);

const clampVolume = (volume: number): number => (Number.isFinite(volume) ? Math.min(1, Math.max(0, volume)) : 0);

const same = (state: RadioState): Transition => ({ state, effects: [] });

function fail(state: RadioState, message: string): Transition {
  return {
    state: { ...state, phase: 'stopped', error: message, session: state.session + 1 },
    effects: [{ type: 'clear-timers' }, { type: 'release' }],
  };
}

function stop(state: RadioState): Transition {
  if (!isListening(state)) return same({ ...state, error: null });
  return {
    state: { ...state, phase: 'stopped', error: null, session: state.session + 1 },
    effects: [{ type: 'clear-timers' }, { type: 'release' }],
  };
}

function start(state: RadioState): Transition {
  if (isListening(state)) return same(state);
  const session = state.session + 1;
  return {
    // The error stays until this play succeeds (play-resolved or playing clears it).
    state: { ...state, phase: 'connecting', started: true, attempt: 0, wasLive: false, session },
    effects: [{ type: 'clear-timers' }, { type: 'connect', session }],
  };
}

/**
 * The stream broke while wanted: say so, and try again after a wait. The element keeps its broken
 * source until then (releasing it would pause it, which reads as a pause from outside).
 */
function reconnect(state: RadioState, random: () => number): Transition {
  if (!isListening(state)) return same(state);
  const delayMs = reconnectDelay(state.attempt, random);
  const session = state.session + 1;
  return {
    state: { ...state, phase: 'reconnecting', attempt: state.attempt + 1, error: STREAM_UNAVAILABLE, session },
    effects: [{ type: 'clear-timers' }, { type: 'start-retry-timer', session, delayMs }],
  };
}

/** Connects now (a retry's time has come, or the network is back). */
function retryNow(state: RadioState): Transition {
  const session = state.session + 1;
  return {
    state: { ...state, wasLive: false, session },
    effects: [{ type: 'clear-timers' }, { type: 'connect', session }],
  };
}

/** What the visitor asks for. */
function command(state: RadioState, event: RadioCommand): Transition {
  switch (event.type) {
    case 'toggle':
      return isListening(state) ? stop(state) : start(state);
    case 'play':
      return start(state);
    case 'pause':
      return stop(state);
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

/** How a connection is going: play()'s answer, playback, buffering. */
function playback(state: RadioState, event: MediaEvent): Transition {
  switch (event.type) {
    case 'play-resolved':
      return event.session === state.session && isListening(state) ? same({ ...state, error: null }) : same(state);
    case 'play-rejected':
      if (event.session !== state.session || !isListening(state) || event.mediaError) return same(state);
      // Refused when the visitor asked: say so. A retry's refusal is followed by 'error' or left to the next one.
      return state.attempt === 0 ? fail(state, PLAY_FAILED) : same(state);
    case 'playing':
      if (!isListening(state)) return same(state);
      return {
        state: { ...state, phase: 'live', attempt: 0, wasLive: true, error: null },
        effects: [{ type: 'clear-stall-timer' }],
      };
    case 'waiting':
      return isListening(state) ? { state, effects: [{ type: 'start-stall-timer', delayMs: STALL_MS }] } : same(state);
    default:
      return { state, effects: [{ type: 'clear-stall-timer' }] }; // progress
  }
}

/** The stream breaking, and the ways back. */
function breakage(state: RadioState, event: MediaEvent, random: () => number): Transition {
  switch (event.type) {
    case 'media-error':
      if (!isListening(state)) return same(state);
      // A stream that played and then broke, or a retry that failed: keep trying. A first connect that fails: say so.
      return state.wasLive || state.attempt > 0 ? reconnect(state, random) : fail(state, STREAM_UNAVAILABLE);
    case 'retry-due':
      return event.session === state.session && state.phase === 'reconnecting' ? retryNow(state) : same(state);
    case 'paused-externally':
      return event.session === state.session ? stop(state) : same(state);
    case 'network-lost':
      // Waiting for the audio element to notice can take many seconds of silence under "Playing live".
      return state.phase === 'reconnecting' ? same(state) : reconnect(state, random);
    case 'network-back':
      return state.phase === 'reconnecting' ? retryNow(state) : same(state);
    default:
      return reconnect(state, random); // stall-timeout, ended
  }
}

const PLAYBACK = new Set<RadioEvent['type']>(['play-resolved', 'play-rejected', 'playing', 'waiting', 'progress']);
const COMMANDS = new Set<RadioEvent['type']>(['toggle', 'play', 'pause', 'toggle-mute', 'set-volume']);

/** The next state and the effects to perform; `random` (0 ≤ x < 1) jitters reconnect waits. */
export function transition(state: RadioState, event: RadioEvent, random: () => number = Math.random): Transition {
  if (COMMANDS.has(event.type)) return command(state, event as RadioCommand);
  if (PLAYBACK.has(event.type)) return playback(state, event as MediaEvent);
  return breakage(state, event as MediaEvent, random);
}

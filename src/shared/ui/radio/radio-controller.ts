/**
 * The radio's imperative shell: binds the pure rules (radio-player-logic.ts)
 * to the one audio element the PlayerProvider owns, to timers, to the
 * browser's online/offline events and to the now-playing push, and hands its state to React as an external store, so
 * the /radio card and the player bar are two views of one state. Created once
 * per page load (by the /radio page), it outlives every route change.
 */
import { RETRY_DUE_ATTRIBUTE, type StreamUrls } from './constants.ts';
import { createNowPlaying, type NowPlayingStore } from './now-playing.ts';
import {
  initialRadioState,
  isListening,
  transition,
  type RadioCommand,
  type RadioEffect,
  type RadioEvent,
  type RadioState,
} from './radio-player-logic.ts';
import { readVolume, writeVolume } from './volume-memory.ts';

export interface RadioController {
  subscribe(listener: () => void): () => void;
  getSnapshot(): RadioState;
  send(command: RadioCommand): void;
  /** What is on air; from the first play, what is heard (heard-title-store.ts puts its store here). */
  nowPlaying: NowPlayingStore;
  /** The one audio element (the heard title reads its clock). */
  audio: HTMLAudioElement;
  /** The station's name (the masthead): the bar and the lock screen show it. */
  station: string;
  /** Gives the element its source on each connect instead of the live stream: set by rewind-player.ts while rewound. */
  attach?: ((audio: HTMLAudioElement) => void) | undefined;
}

export interface RadioControllerOptions {
  urls: StreamUrls;
  station: string;
}

/** Performs the rules' effects on the element and the timers; results come back through `dispatch`. */
function effectRunner(
  audio: HTMLAudioElement,
  urls: StreamUrls,
  dispatch: (event: RadioEvent) => void,
  source: () => RadioController['attach'],
) {
  let retryTimer = 0;
  let stallTimer = 0;
  const clearRetry = () => {
    window.clearTimeout(retryTimer);
    audio.removeAttribute(RETRY_DUE_ATTRIBUTE);
  };
  return (effect: RadioEffect): void => {
    switch (effect.type) {
      case 'connect': {
        const { session } = effect;
        // Assigning src (even the same one) starts a new request: the live edge, not an old buffer.
        const attach = source();
        if (attach) attach(audio);
        else audio.src = urls.stream;
        audio.play().then(
          () => dispatch({ type: 'play-resolved', session }),
          () => dispatch({ type: 'play-rejected', session, mediaError: audio.error !== null }),
        );
        return;
      }
      case 'release':
        audio.pause();
        if (audio.hasAttribute('src')) {
          audio.removeAttribute('src');
          audio.load(); // no source: the element stops loading and closes the connection
        }
        return;
      case 'clear-timers':
        clearRetry();
        window.clearTimeout(stallTimer);
        return;
      case 'start-retry-timer':
        clearRetry();
        audio.setAttribute(RETRY_DUE_ATTRIBUTE, String(Date.now() + Math.round(effect.delayMs)));
        retryTimer = window.setTimeout(() => {
          audio.removeAttribute(RETRY_DUE_ATTRIBUTE);
          dispatch({ type: 'retry-due', session: effect.session });
        }, effect.delayMs);
        return;
      case 'start-stall-timer':
        window.clearTimeout(stallTimer);
        stallTimer = window.setTimeout(() => dispatch({ type: 'stall-timeout' }), effect.delayMs);
        return;
      case 'clear-stall-timer':
        window.clearTimeout(stallTimer);
        return;
    }
  };
}

/** Feeds the element's events, and the browser's online/offline, to the rules. */
function listen(audio: HTMLAudioElement, dispatch: (event: RadioEvent) => void, session: () => number): void {
  const on: [string, () => void][] = [
    ['playing', () => dispatch({ type: 'playing' })],
    // 'stalled' (no data for a while) is a wait too; the rules count one stall however many events it sends.
    ['waiting', () => dispatch({ type: 'waiting', time: audio.currentTime })],
    ['stalled', () => dispatch({ type: 'waiting', time: audio.currentTime })],
    ['timeupdate', () => dispatch({ type: 'progress', time: audio.currentTime })],
    ['ended', () => dispatch({ type: 'ended' })],
    ['error', () => dispatch({ type: 'media-error' })],
    [
      'pause',
      () => {
        // Paused from outside (the OS, a headset)? Decide once the event's task has settled: our own pauses,
        // the end of the stream and errors change the session or leave `ended` / `error` behind.
        const current = session();
        window.setTimeout(() => {
          if (audio.paused && !audio.ended && audio.error === null) {
            dispatch({ type: 'paused-externally', session: current });
          }
        }, 0);
      },
    ],
  ];
  for (const [name, fn] of on) audio.addEventListener(name, fn);
  // The element can take many seconds to notice a lost network; the browser says so at once.
  window.addEventListener('offline', () => dispatch({ type: 'network-lost' }));
  window.addEventListener('online', () => dispatch({ type: 'network-back' }));
  // Retries wait less while the page is shown (a reader is looking at "Reconnecting…").
  const visibility = () => dispatch({ type: 'visibility', visible: document.visibilityState === 'visible' });
  document.addEventListener('visibilitychange', visibility);
  visibility();
}

export function createRadioController(
  audio: HTMLAudioElement,
  { urls, station }: RadioControllerOptions,
): RadioController {
  // The volume chosen on an earlier visit (the first render, before the player exists, showed the default).
  let state: RadioState = { ...initialRadioState, volume: readVolume() ?? initialRadioState.volume };
  let releaseNowPlaying: (() => void) | null = null;
  const listeners = new Set<() => void>();
  const nowPlaying = createNowPlaying(urls.nowPlaying);
  const perform = effectRunner(
    audio,
    urls,
    (event) => dispatch(event),
    () => controller.attach,
  );

  function dispatch(event: RadioEvent): void {
    const before = state;
    const next = transition(state, event);
    state = next.state;
    // Effects run synchronously, so play() is still inside the click (or media key) that asked for it.
    for (const effect of next.effects) perform(effect);
    if (state === before) return;
    audio.volume = state.volume;
    audio.muted = state.muted;
    if (state.volume !== before.volume) writeVolume(state.volume);
    follow(before, state);
    for (const listener of listeners) listener();
  }

  /** What follows a change of phase beyond the element: the push while listening, the Media Session from the first play. */
  function follow(before: RadioState, after: RadioState): void {
    if (isListening(after) && !releaseNowPlaying) releaseNowPlaying = nowPlaying.retain();
    if (!isListening(after) && releaseNowPlaying) {
      releaseNowPlaying();
      releaseNowPlaying = null;
    }
    if (after.started && !before.started) {
      import('./media-session.ts').then(
        (m) => m.bindMediaSession(controller),
        () => {
          /* chunk unreachable (offline): the page's own controls still work */
        },
      );
    }
  }

  listen(audio, dispatch, () => state.session);
  audio.volume = state.volume;
  audio.muted = state.muted;

  const controller: RadioController = {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => state,
    send: dispatch,
    nowPlaying,
    audio,
    station,
  };
  return controller;
}

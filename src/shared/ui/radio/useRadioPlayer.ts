import { useCallback, useEffect, useRef, useState, type ChangeEvent, type RefObject } from 'react';
import { DEFAULT_VOLUME, PLAY_FAILED, STREAM_UNAVAILABLE } from './constants.ts';

export type RadioPhase = 'stopped' | 'connecting' | 'live' | 'reconnecting';

export interface RadioPlayer {
  audioRef: RefObject<HTMLAudioElement | null>;
  /** True while the visitor wants to listen (connecting, live or reconnecting). */
  playing: boolean;
  phase: RadioPhase;
  muted: boolean;
  /** What the slider shows: 0 while muted. */
  shownVolume: number;
  error: string | null;
  togglePlay(): void;
  toggleMute(): void;
  onVolumeInput(event: ChangeEvent<HTMLInputElement>): void;
}

/** Waits between reconnect attempts after the stream ends or fails while playing (then we give up). */
const RETRY_MS = [1_000, 2_000, 4_000, 8_000, 15_000];
/** Buffering this long while live means the stream stalled: reconnect. */
const STALL_MS = 12_000;

/**
 * The live radio player. The audio element gets its source only on play, so
 * nothing is fetched before; pause drops the connection, and the next play
 * opens a fresh one, so playback resumes live rather than from a stale buffer.
 * Chrome ends a live stream that drops ('ended') and does not reconnect by
 * itself: while the visitor wants to listen we reconnect with backoff, and
 * show the unavailable message only when that fails.
 */
export function useRadioPlayer(src: string): RadioPlayer {
  const audioRef = useRef<HTMLAudioElement | null>(null);
  const [phase, setPhase] = useState<RadioPhase>('stopped');
  const [muted, setMuted] = useState(false);
  const [volume, setVolume] = useState(DEFAULT_VOLUME);
  const [error, setError] = useState<string | null>(null);
  // Mutable control state read by media event handlers; `session` invalidates superseded play() calls.
  const ctl = useRef({ want: false, attempt: 0, session: 0, wasLive: false, retry: 0, stall: 0 });

  const clearTimers = useCallback(() => {
    window.clearTimeout(ctl.current.retry);
    window.clearTimeout(ctl.current.stall);
  }, []);

  /** Stops and lets go of the connection (no src: the element stops loading). */
  const release = useCallback(() => {
    const audio = audioRef.current;
    const c = ctl.current;
    c.want = false;
    c.session += 1;
    clearTimers();
    if (!audio) return;
    audio.pause();
    if (audio.hasAttribute('src')) {
      audio.removeAttribute('src');
      audio.load();
    }
  }, [clearTimers]);

  const fail = useCallback(
    (message: string) => {
      release();
      setPhase('stopped');
      setError(message);
    },
    [release],
  );

  const connect = useCallback(
    (byUser: boolean) => {
      const audio = audioRef.current;
      if (!audio) return;
      const c = ctl.current;
      const session = ++c.session;
      c.wasLive = false;
      // Assigning src (even the same one) starts a new request: the live edge, not an old buffer.
      audio.src = src;
      audio.play().then(
        () => {
          if (session === c.session) setError(null);
        },
        () => {
          if (session !== c.session || !c.want) return; // superseded by pause or a newer attempt
          if (audio.error) return; // the 'error' event handles a failed stream
          if (byUser) fail(PLAY_FAILED);
        },
      );
    },
    [src, fail],
  );

  const scheduleReconnect = useCallback(() => {
    const c = ctl.current;
    if (!c.want) return;
    clearTimers();
    if (c.attempt >= RETRY_MS.length) {
      fail(STREAM_UNAVAILABLE);
      return;
    }
    // Jitter spreads a station restart's reconnects over time.
    const delay = RETRY_MS[c.attempt]! * (0.75 + Math.random() * 0.5);
    c.attempt += 1;
    c.session += 1;
    setPhase('reconnecting');
    c.retry = window.setTimeout(() => {
      if (c.want) connect(false);
    }, delay);
  }, [connect, fail, clearTimers]);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const c = ctl.current;
    const onPlaying = () => {
      if (!c.want) return;
      window.clearTimeout(c.stall);
      c.attempt = 0;
      c.wasLive = true;
      setPhase('live');
      setError(null);
    };
    const onWaiting = () => {
      if (!c.want) return;
      window.clearTimeout(c.stall);
      c.stall = window.setTimeout(scheduleReconnect, STALL_MS);
    };
    const onProgress = () => window.clearTimeout(c.stall);
    const onEnded = () => scheduleReconnect();
    const onError = () => {
      if (!c.want) return;
      // A stream that played and then broke, or a retry that failed: keep trying. A first connect that fails: say so.
      if (c.wasLive || c.attempt > 0) scheduleReconnect();
      else fail(STREAM_UNAVAILABLE);
    };
    const onPause = () => {
      // Paused from outside (media keys, the OS): follow it, once the event's task has settled. Our own
      // pauses, the end of the stream and errors are handled elsewhere and change the session or the state.
      const session = c.session;
      window.setTimeout(() => {
        if (c.want && session === c.session && audio.paused && !audio.ended && audio.error === null) {
          release();
          setPhase('stopped');
        }
      }, 0);
    };
    const events: [string, () => void][] = [
      ['playing', onPlaying],
      ['waiting', onWaiting],
      ['stalled', onWaiting],
      ['timeupdate', onProgress],
      ['ended', onEnded],
      ['error', onError],
      ['pause', onPause],
    ];
    for (const [name, fn] of events) audio.addEventListener(name, fn);
    return () => {
      for (const [name, fn] of events) audio.removeEventListener(name, fn);
      release();
    };
  }, [scheduleReconnect, fail, release]);

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    audio.volume = volume;
    audio.muted = muted;
  }, [volume, muted]);

  const togglePlay = () => {
    const c = ctl.current;
    if (c.want) {
      release();
      setPhase('stopped');
      setError(null);
      return;
    }
    c.want = true;
    c.attempt = 0;
    setPhase('connecting');
    connect(true);
  };

  const toggleMute = () => {
    if (muted && volume === 0) setVolume(DEFAULT_VOLUME);
    setMuted(!muted);
  };

  const onVolumeInput = (event: ChangeEvent<HTMLInputElement>) => {
    const next = Number(event.currentTarget.value);
    setVolume(next);
    if (muted && next > 0) setMuted(false);
  };

  return {
    audioRef,
    playing: phase !== 'stopped',
    phase,
    muted,
    shownVolume: muted ? 0 : volume,
    error,
    togglePlay,
    toggleMute,
    onVolumeInput,
  };
}

/** The radio's fixed texts and numbers (SPEC §7, §8, §9). */
import type { PlayerStatus } from './radio-player-logic.ts';

export const STREAM_PORT = 8076;
export const DEFAULT_VOLUME = 0.9;

export const PLAY_FAILED = 'Unable to start playback. Please try again.';
export const STREAM_UNAVAILABLE = 'Stream temporarily unavailable.';
/** What the player calls the programme when the station names none. */
export const DEFAULT_TITLE = 'Live Radio';
export const SPEC_NOW_PLAYING = 'Live programming from our station stream';

/** What the player is doing, in words (the bar's and the card's status line; radio-player-logic.ts `playerStatus`). */
export const CONNECTING = 'Connecting…';
export const PLAYING_LIVE = 'Playing live';
export const BUFFERING = 'Buffering…';
export const RECONNECTING = 'Reconnecting…';
/** The status line of the /radio card; the bar shows the station's name in place of '' and "Playing live". */
export const STATUS_TEXT: Record<PlayerStatus, string> = {
  idle: '',
  connecting: CONNECTING,
  playing: PLAYING_LIVE,
  buffering: BUFFERING,
  reconnecting: RECONNECTING,
  // The error line says it ('Stream temporarily unavailable.').
  unavailable: '',
};
/** The play button while the player waits to try again: it connects at once. */
export const RETRY_NOW = 'Retry now';
/** The control beside "Reconnecting…" that stops the retries (a pause, named for what it does then). */
export const STOP_RETRYING = 'Stop';
/** Its accessible name (begins with the visible word, WCAG 2.5.3). */
export const STOP_RETRYING_LABEL = 'Stop reconnecting';

export interface StreamUrls {
  /** The audio source (SPEC §7: /api/stream with the port). */
  stream: string;
  /** The station's current title and listener count, pushed as they change (Server-Sent Events). */
  nowPlaying: string;
}

/** The one place the radio's URLs are built from the stream port. */
export function streamUrls(port: number = STREAM_PORT): StreamUrls {
  return { stream: `/api/stream?port=${port}`, nowPlaying: `/api/now-playing/events?port=${port}` };
}

/**
 * While a reconnect is scheduled, the audio element says when (epoch ms), so a reader of the page
 * (a test, devtools) sees that none is pending instead of waiting one out (radio-controller.ts).
 */
export const RETRY_DUE_ATTRIBUTE = 'data-retry-due';

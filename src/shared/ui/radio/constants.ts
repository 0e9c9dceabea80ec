/** The radio's fixed texts and numbers (SPEC §7, §8, §9). */
export const STREAM_PORT = 8076;
export const STREAM_SRC = `/api/stream?port=${STREAM_PORT}`;
export const NOW_PLAYING_URL = `/api/now-playing?port=${STREAM_PORT}`;
export const DEFAULT_VOLUME = 0.9;

export const PLAY_FAILED = 'Unable to start playback. Please try again.';
export const STREAM_UNAVAILABLE = 'Stream temporarily unavailable.';

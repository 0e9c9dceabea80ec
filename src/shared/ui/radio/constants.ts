/** The radio's fixed texts and numbers (SPEC §7, §8, §9). */
/** The port comes from configuration (8076 by default) through the boot data: `useApp().streamPort`. */
export const streamUrl = (port: number) => `/api/stream?port=${port}`;
export const nowPlayingUrl = (port: number) => `/api/now-playing?port=${port}`;
export const DEFAULT_VOLUME = 0.9;

export const PLAY_FAILED = 'Unable to start playback. Please try again.';
export const STREAM_UNAVAILABLE = 'Stream temporarily unavailable.';

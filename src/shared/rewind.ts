/**
 * The rewind window's shapes, shared by the server that records it and the player that plays it:
 * where a port's window is served, what its window.json says, and which title was on air at an
 * instant of it. Pure, no imports: the client bundles this file.
 */

/** Segments last about this long (the recorder cuts on the first MP3 frame boundary past it). */
export const REWIND_SEGMENT_TARGET_S = 6;

/** A port's live HLS media playlist (RFC 8216, sliding window, no ENDLIST). */
export function rewindPlaylistUrl(port: number): string {
  return `/api/rewind/${port}/playlist.m3u8`;
}

/** A port's window.json (a `RewindWindow`), rewritten with the playlist. */
export function rewindWindowUrl(port: number): string {
  return `/api/rewind/${port}/window.json`;
}

export interface RewindTitle {
  /** ISO wall-clock time the title started. */
  at: string;
  title: string;
}

export interface RewindWindow {
  /** false: rewind is unavailable right now (disk floor reached, recorder stopped, rewind off). */
  recording: boolean;
  /** ISO wall-clock time of the first segment's first sample; null while the window is empty. */
  start: string | null;
  /** ISO wall-clock time of the last segment's end; null while the window is empty. */
  end: string | null;
  /** Each title with the time it started, ascending: those inside the window plus the one playing at `start`. */
  titles: RewindTitle[];
}

/**
 * The title on air at `time`: the last one that started at or before it. null before the first
 * known title (or with none). Times outside the window are answered the same way; clamping a seek
 * to the window is the player's business.
 */
export function titleAt(window: RewindWindow, time: Date): string | null {
  const t = time.getTime();
  let found: string | null = null;
  for (const entry of window.titles) {
    if (Date.parse(entry.at) > t) break;
    found = entry.title;
  }
  return found;
}

function isIsoTime(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

function parseTitles(value: unknown): RewindTitle[] | null {
  if (!Array.isArray(value)) return null;
  const titles: RewindTitle[] = [];
  for (const entry of value as unknown[]) {
    if (typeof entry !== 'object' || entry === null) return null;
    const { at, title } = entry as Record<string, unknown>;
    if (!isIsoTime(at) || typeof title !== 'string') return null;
    const previous = titles.at(-1);
    if (previous && Date.parse(previous.at) > Date.parse(at)) return null;
    titles.push({ at, title });
  }
  return titles;
}

/**
 * window.json as the client may trust it, or null: `recording` a boolean, `start` and `end` both
 * ISO times (start ≤ end) or both null, titles well-formed and ascending. Unknown fields are dropped.
 */
export function parseRewindWindow(json: unknown): RewindWindow | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { recording, start, end, titles } = json as Record<string, unknown>;
  if (typeof recording !== 'boolean') return null;
  const bothNull = start === null && end === null;
  const bothTimes = isIsoTime(start) && isIsoTime(end) && Date.parse(start) <= Date.parse(end);
  if (!bothNull && !bothTimes) return null;
  const parsedTitles = parseTitles(titles);
  if (!parsedTitles) return null;
  return { recording, start: start as string | null, end: end as string | null, titles: parsedTitles };
}

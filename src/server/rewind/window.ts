/**
 * A mount's rewind window as a value: its segments (each with its wall-clock start, length, size
 * and whether a gap comes before it), the titles with the time each started, and the sequence
 * numbers RFC 8216 asks a sliding playlist to keep. Pure: the playlist's text and window.json are
 * worked out from it, the playlist is read back into it after a restart, and the window is trimmed
 * to its time and byte bounds here. Disk and network are window-store.ts's and recorder.ts's.
 */
import type { RewindWindow } from '../../shared/rewind.ts';

export interface Segment {
  /** File name, never reused: `<start unix ms>-<media sequence number>.mp3`. */
  name: string;
  /** Wall-clock time of its first sample, unix ms. */
  start: number;
  seconds: number;
  bytes: number;
  /** A gap (station restart, recorder stopped) comes before it: EXT-X-DISCONTINUITY. */
  gapBefore: boolean;
}

export interface TitleMark {
  /** Unix ms the title started. */
  at: number;
  title: string;
}

export interface WindowState {
  /** EXT-X-MEDIA-SEQUENCE: the first segment's number (each segment's is this plus its index). */
  mediaSequence: number;
  /** EXT-X-DISCONTINUITY-SEQUENCE: gaps that have left the window. */
  discontinuitySequence: number;
  segments: Segment[];
  titles: TitleMark[];
}

export const emptyWindow = (): WindowState => ({
  mediaSequence: 0,
  discontinuitySequence: 0,
  segments: [],
  titles: [],
});

/** Segment file names: 13-digit unix ms (until the year 2286), a dash, the sequence number. */
export const SEGMENT_NAME = /^\d{13}-\d{1,15}\.mp3$/;

export const segmentName = (startMs: number, sequence: number): string =>
  `${String(Math.round(startMs)).padStart(13, '0')}-${sequence}.mp3`;

/** The number the next segment gets. */
export const nextSequence = (state: WindowState): number => state.mediaSequence + state.segments.length;

export const windowEnd = (state: WindowState): number | null => {
  const last = state.segments.at(-1);
  return last ? last.start + last.seconds * 1000 : null;
};

/** EXT-X-TARGETDURATION: no segment's length, rounded, may pass it (RFC 8216 4.3.3.1). */
function targetDuration(state: WindowState, targetS: number): number {
  return Math.max(targetS, ...state.segments.map((s) => Math.round(s.seconds)));
}

/** The live media playlist: a sliding window (no ENDLIST), a date on every segment, gaps marked. */
export function renderPlaylist(state: WindowState, targetS: number): string {
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${targetDuration(state, targetS)}`,
    `#EXT-X-MEDIA-SEQUENCE:${state.mediaSequence}`,
    `#EXT-X-DISCONTINUITY-SEQUENCE:${state.discontinuitySequence}`,
  ];
  for (const segment of state.segments) {
    if (segment.gapBefore) lines.push('#EXT-X-DISCONTINUITY');
    lines.push(`#EXT-X-PROGRAM-DATE-TIME:${new Date(segment.start).toISOString()}`);
    lines.push(`#EXTINF:${segment.seconds.toFixed(6)},`);
    lines.push(segment.name);
  }
  return `${lines.join('\n')}\n`;
}

const headerNumber = (text: string, tag: string): number => {
  const match = new RegExp(`^#${tag}:(\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
};

/**
 * A playlist this module wrote, read back (after a restart). Sizes are unknown here (0): the store
 * reads them from the files. Entries that are not whole (a date, a length, a valid name) are left out.
 */
export function parsePlaylist(text: string): Pick<WindowState, 'mediaSequence' | 'discontinuitySequence' | 'segments'> {
  const segments: Segment[] = [];
  let gapBefore = false;
  let start = Number.NaN;
  let seconds = Number.NaN;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line === '#EXT-X-DISCONTINUITY') gapBefore = true;
    else if (line.startsWith('#EXT-X-PROGRAM-DATE-TIME:')) start = Date.parse(line.slice(25));
    else if (line.startsWith('#EXTINF:')) seconds = Number.parseFloat(line.slice(8));
    else if (SEGMENT_NAME.test(line)) {
      if (Number.isFinite(start) && seconds > 0) segments.push({ name: line, start, seconds, bytes: 0, gapBefore });
      gapBefore = false;
      start = Number.NaN;
      seconds = Number.NaN;
    }
  }
  return {
    mediaSequence: headerNumber(text, 'EXT-X-MEDIA-SEQUENCE'),
    discontinuitySequence: headerNumber(text, 'EXT-X-DISCONTINUITY-SEQUENCE'),
    segments,
  };
}

export interface Bounds {
  windowS: number;
  maxBytes: number;
}

export const bytesOf = (state: WindowState): number => state.segments.reduce((sum, s) => sum + s.bytes, 0);

/**
 * Drops the oldest segments that ended more than `windowS` before `nowMs`, then more while the
 * window holds over `maxBytes`, keeping the sequence numbers right; returns the dropped ones (their
 * files are to be deleted). Titles before the new start are dropped but the one on air at it.
 */
export function trim(state: WindowState, nowMs: number, { windowS, maxBytes }: Bounds): Segment[] {
  const dropped: Segment[] = [];
  let bytes = bytesOf(state);
  const oldest = nowMs - windowS * 1000;
  for (let first = state.segments[0]; first; first = state.segments[0]) {
    if (first.start + first.seconds * 1000 > oldest && bytes <= maxBytes) break;
    state.segments.shift();
    bytes -= first.bytes;
    state.mediaSequence += 1;
    // A gap leaving the window is counted, so players keep their discontinuity numbers (RFC 8216 6.2.2).
    if (first.gapBefore) state.discontinuitySequence += 1;
    dropped.push(first);
  }
  const start = state.segments[0]?.start ?? nowMs;
  const onAirAtStart = state.titles.findLastIndex((t) => t.at <= start);
  if (onAirAtStart > 0) state.titles.splice(0, onAirAtStart);
  return dropped;
}

/** Records a title change at `atMs` (the same title again is no change). */
export function markTitle(state: WindowState, title: string | null, atMs: number): boolean {
  if (title === null || state.titles.at(-1)?.title === title) return false;
  state.titles.push({ at: Math.max(atMs, state.titles.at(-1)?.at ?? 0), title });
  return true;
}

/** window.json's content (src/shared/rewind.ts). */
export function windowJson(state: WindowState, recording: boolean): RewindWindow {
  const first = state.segments[0];
  const end = windowEnd(state);
  return {
    recording,
    start: first ? new Date(first.start).toISOString() : null,
    end: end === null ? null : new Date(end).toISOString(),
    titles: state.titles.map((t) => ({ at: new Date(t.at).toISOString(), title: t.title })),
  };
}

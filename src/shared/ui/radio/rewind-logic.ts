/**
 * The rewind controls' rules (issue 29 item 3), pure: where each control goes, what the position
 * and the state say, how the element's media time maps to the wall clock. No DOM, no clock (the
 * time is always a parameter): unit-tested in node (rewind-logic.test.ts). rewind-player.ts
 * performs them.
 */
import type { RewindWindow } from '../../rewind.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Back and forward jump this far. */
export const SKIP_MS = 30 * SECOND;
/**
 * A position closer than this to the window's end is the live edge: forward to it returns to live
 * (the player keeps three segments of 6 s between it and the newest, as hls.js does).
 */
export const NEAR_LIVE_MS = 20 * SECOND;

export const REWIND_EMPTY = 'Rewind opens once a few seconds are recorded.';
export const REWIND_UNAVAILABLE = 'Rewind is unavailable right now';
export const REWIND_FAILED = 'Part of the recording failed to play: back to live.';

/** The span of the window that can be heard, epoch ms; null when nothing is recorded. */
export interface Span {
  start: number;
  end: number;
}

export function windowSpan(window: RewindWindow | null): Span | null {
  if (!window?.start || !window.end) return null;
  return { start: Date.parse(window.start), end: Date.parse(window.end) };
}

/** Why the rewind controls are off, or null when they work. */
export function rewindBlocked(window: RewindWindow | null): string | null {
  if (!window) return null;
  if (!window.recording) return REWIND_UNAVAILABLE;
  const span = windowSpan(window);
  return span && span.end - span.start > NEAR_LIVE_MS ? null : REWIND_EMPTY;
}

/** A wanted position brought into what can be heard: not before the start, not past the live edge's margin. */
export function clampToWindow(at: number, span: Span): number {
  return Math.max(span.start, Math.min(at, span.end - NEAR_LIVE_MS));
}

/** Where a rewind control goes: a wall-clock time (epoch ms), or 'live'. */
export type Target = number | 'live';

/**
 * Back 30 s from `heard` (epoch ms heard now; null while live: then from `now`, the live edge),
 * clamped to the window's start.
 */
export function backTarget(heard: number | null, now: number, span: Span): number {
  return clampToWindow((heard ?? now) - SKIP_MS, span);
}

/** Forward 30 s; to the live edge when that is as near as the live stream is. */
export function forwardTarget(heard: number, span: Span): Target {
  const at = heard + SKIP_MS;
  return at >= span.end - NEAR_LIVE_MS ? 'live' : Math.max(at, span.start);
}

/** The top of the hour of `now` (Chicago's hours are whole hours from UTC's). */
export const topOfHour = (now: number): number => Math.floor(now / HOUR) * HOUR;

/** "Start of this hour", when the window holds it (and it is not the live edge already). */
export function hourStartTarget(now: number, span: Span | null): number | null {
  const top = topOfHour(now);
  return span && top >= span.start && top < span.end - NEAR_LIVE_MS ? top : null;
}

/** Forward is for a rewound player: the player at the live edge has nowhere ahead to go. */
export const canGoForward = (heard: number | null): boolean => heard !== null;

let clock: Intl.DateTimeFormat | undefined;

/** "8:02 a.m." in Chicago (AP style). */
export function chicagoClock(at: number): string {
  clock ??= new Intl.DateTimeFormat('en-US', { timeZone: 'America/Chicago', hour: 'numeric', minute: '2-digit' });
  return clock
    .format(at)
    .replace(/\s?AM$/, ' a.m.')
    .replace(/\s?PM$/, ' p.m.');
}

/** "Listening to 8:02 a.m.". */
export const positionText = (heard: number): string => `Listening to ${chicagoClock(heard)}`;

/** "45 s behind live", "12 min behind live", "1 h 5 min behind live". */
export function behindText(heard: number, now: number): string {
  const ms = Math.max(0, now - heard);
  if (ms < MINUTE) return `${Math.round(ms / SECOND)} s behind live`;
  const minutes = Math.floor(ms / MINUTE);
  if (minutes < 60) return `${minutes} min behind live`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''} behind live`;
}

/**
 * After a segment failed: the next one (from `failedEnd`, the failed segment's end), once; a second
 * failure in a row, or no next segment before the live edge, returns to live.
 */
export function afterFailure(failedEnd: number, failures: number, span: Span | null): Target {
  if (failures > 1 || !span || failedEnd >= span.end - NEAR_LIVE_MS) return 'live';
  return clampToWindow(failedEnd, span);
}

/** A piece of the element's media timeline with the wall clock it began at (an HLS segment, or all of it). */
export interface DatedPiece {
  /** Media time of its start, seconds. */
  start: number;
  /** Seconds. */
  duration: number;
  /** Epoch ms of its first sample (EXT-X-PROGRAM-DATE-TIME); null when the playlist does not say. */
  programDateTime: number | null;
}

/** The wall clock (epoch ms) heard at media time `t`: within the piece that holds it, across gaps. */
export function wallClockFor(pieces: readonly DatedPiece[], t: number): number | null {
  let found: DatedPiece | undefined;
  for (const piece of pieces) {
    if (piece.programDateTime === null) continue;
    if (piece.start > t && found) break;
    found = piece;
  }
  return found?.programDateTime == null ? null : found.programDateTime + (t - found.start) * SECOND;
}

/** The media time at which wall-clock `at` is heard: in the piece that holds it, else the next piece's start. */
export function mediaTimeFor(pieces: readonly DatedPiece[], at: number): number | null {
  for (const piece of pieces) {
    if (piece.programDateTime === null) continue;
    const end = piece.programDateTime + piece.duration * SECOND;
    if (at < piece.programDateTime) return piece.start;
    if (at < end) return piece.start + (at - piece.programDateTime) / SECOND;
  }
  return null;
}

/** Which engine plays the window: Safari's own HLS (it dates its media time), hls.js over MSE, or none. */
export type Engine = 'native' | 'hls.js' | null;

export function chooseEngine(nativeHls: boolean, hasStartDate: boolean, mseMpeg: boolean): Engine {
  if (nativeHls && hasStartDate) return 'native';
  return mseMpeg ? 'hls.js' : null;
}

/**
 * The title of what is being heard (issue 29 item 4, docs/decisions/057): pure rules, unit-tested
 * beside; heard-title-store.ts binds them to the audio element at the first play.
 *
 * Live, a new listener starts from the relay's burst (up to 64 KiB of past audio; on the relay's
 * first connection, Icecast's burst instead). All times here are this page's clock
 * (performance.now(), ms); no server clock is compared with it, only durations the relay measured:
 * - A title started `changed` ms before its push arrived (absent: at the arrival): the relay's live
 *   edge is the station's (after its own burst, Icecast hands on each byte as it comes), and the
 *   relay dates a change halfway between the status reading without it and the one with it.
 * - Each push says, of the relay's newest listener, how many seconds of past audio it started
 *   with (`lag`) and how long before the push its first byte was at the live edge (`behind`, ms).
 *   The first push to arrive once a connection has data (so after the relay took it in) is about
 *   this listener: its first sample was at the live edge at `arrival − behind`, and the audio at
 *   `currentTime` at that plus currentTime. A wait for data stops currentTime: the heard time
 *   falls behind as the audio does.
 * - Assigning src starts a new connection (currentTime from 0). Until a push tells its own, it is
 *   taken to start `lag` (the latest known: a relay's burst hardly changes) before src was assigned.
 * Rewound, the heard time is the rewind player's (epoch ms) and the title is the window's
 * `titleAt` that time.
 */
import { type RewindWindow, titleAt } from '../../rewind.ts';
import { DEFAULT_TITLE } from './constants.ts';
import type { NowPlayingInfo } from './now-playing.ts';

/**
 * The programme's name for the bar and the lock screen: the station's title, else "Live Radio".
 * Here, in the chunks of the first play, not in now-playing.ts (the /radio page's first load).
 */
export const onAirTitle = (info: NowPlayingInfo | null): string => info?.title ?? DEFAULT_TITLE;

/** A title pushed, with the page-clock time it started at the station (-Infinity: before we knew). */
export interface TitleMark {
  at: number;
  info: NowPlayingInfo;
}

/** How many titles are kept: enough to cover a listener's delay, however many changes fall in it. */
const KEEP = 8;

/** The titles after a push: a new title is a new mark; the same title (a new listener count) only updates the last. */
export function pushed(marks: readonly TitleMark[], info: NowPlayingInfo, at: number): TitleMark[] {
  const last = marks.at(-1);
  if (!last) return [{ at: Number.NEGATIVE_INFINITY, info }];
  if (last.info.title === info.title) return [...marks.slice(0, -1), { at: last.at, info }];
  return [...marks, { at, info }].slice(-KEEP);
}

/** A live connection: when src was assigned, and when its first sample was at the live edge (null: not known yet). */
export interface Connection {
  startedAt: number;
  fromMs: number | null;
  /** A push about this listener arrived: `fromMs` is exact. */
  settled: boolean;
}

/** The relay's newest listener as a push tells it: seconds of past audio, and ms since its first byte was live. */
export interface Newest {
  lagS: number;
  behindMs: number;
}

export const isDuration = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** The newest listener a push tells of, when it tells one (durations, finite, not negative). */
export const newestOf = (info: { lag?: unknown; behind?: unknown } | null): Newest | null =>
  info && isDuration(info.lag) && isDuration(info.behind) ? { lagS: info.lag, behindMs: info.behind } : null;

/** A new connection (src assigned) at `at`: until a push tells, `lagS` (the latest known) before it. */
export const connectionAt = (at: number, lagS: number | null): Connection => ({
  startedAt: at,
  fromMs: lagS === null ? null : at - lagS * 1000,
  settled: false,
});

/**
 * The connection after a push arrived at `at`: the first one with a newest listener that comes
 * once the connection has data (the relay has taken it in) tells its start; later ones may be
 * about someone else.
 */
export function withPush(connection: Connection, at: number, newest: Newest | null, hasData: boolean): Connection {
  if (connection.settled || !newest || !hasData || at < connection.startedAt) return connection;
  return { ...connection, fromMs: at - newest.behindMs, settled: true };
}

/** The page-clock time at which the audio heard at `currentTimeS` was at the live edge; null while unknown. */
export function heardAtLive(connection: Connection | null, currentTimeS: number): number | null {
  if (!connection || connection.fromMs === null) return null;
  return connection.fromMs + currentTimeS * 1000;
}

/**
 * What the views show, live: the title that had started by `heardAt` (Infinity: not listening,
 * what is on air now; null: the audio's time is not known yet, `previous` stays) with the latest
 * listener count, and when the next title is due (page clock, from `heardAt`; null: none pending).
 */
export function liveView(
  marks: readonly TitleMark[],
  heardAt: number | null,
  previous: NowPlayingInfo | null,
): { info: NowPlayingInfo | null; nextInMs: number | null } {
  const latest = marks.at(-1)?.info ?? null;
  if (!latest) return { info: null, nextInMs: null };
  if (heardAt === null) {
    return { info: previous && { title: previous.title, listeners: latest.listeners }, nextInMs: null };
  }
  const index = marks.findLastIndex((mark) => mark.at <= heardAt);
  const heard = marks[Math.max(0, index)]!.info;
  const next = marks[index + 1];
  return {
    info: heard === latest ? latest : { title: heard.title, listeners: latest.listeners },
    nextInMs: next ? next.at - heardAt : null,
  };
}

/** What the views show while rewound: the title on air at the position heard (epoch ms), the latest count. */
export function rewoundView(window: RewindWindow, heardAt: number, latest: NowPlayingInfo | null): NowPlayingInfo {
  return { title: titleAt(window, new Date(heardAt)), listeners: latest?.listeners ?? null };
}

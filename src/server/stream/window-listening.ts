/**
 * Listening figures of the rewind window (issue 30 item 3), by the same definitions as the live
 * stream's (listening.ts): listener-seconds, sessions of at least a minute, peak of concurrent
 * listeners, per port. A window listener holds no connection: a player fetches one segment after
 * another. So a listener is one client (address and user agent) fetching segments of one port, and
 * their session runs from the first fetch to the last plus the segment then fetched (which is still
 * to be heard); a pause of more than GAP_SEGMENTS segments without a fetch ends it (a paused
 * player stops fetching once its buffer is full; the next fetch starts a new session). Fetches are
 * told by the app's own serving (rewind/serve.ts) or by nginx's access log of the window
 * (rewind/access-log.ts): the same counting either way.
 * Read at scrape time; every figure only grows (a session's length is fixed by its fetches, not by
 * the clock), so the counters never go back, sessions under way included.
 */
import { type ListeningFigures, SESSION_MIN_MS } from './listening.ts';

/** A session ends after this many segment durations without a fetch. */
export const GAP_SEGMENTS = 3;
/** Window sessions tracked at once per process; a client beyond them is not counted until some end. */
export const MAX_WINDOW_SESSIONS = 100_000;
const PEAK_WINDOW_MS = 60_000;

export interface WindowListening extends ListeningFigures {
  /** A client (address and user agent, as one string) fetched a segment of `port`. */
  fetched(client: string, port: number): void;
}

interface Session {
  port: number;
  first: number;
  last: number;
  /** Whether it has been counted as a session of a minute or more. */
  long: boolean;
}

interface PortTally {
  /** Milliseconds of ended sessions, and sessions (ended or under way) that reached a minute. */
  endedMs: number;
  longSessions: number;
  live: number;
  minute: number;
  peakNow: number;
  peakBefore: number;
}

export interface WindowListeningOptions {
  segmentS: number;
  now?: () => number;
  maxSessions?: number;
}

export function createWindowListening(options: WindowListeningOptions): WindowListening {
  const { now = () => performance.now(), maxSessions = MAX_WINDOW_SESSIONS } = options;
  const segmentMs = options.segmentS * 1000;
  const gapMs = GAP_SEGMENTS * segmentMs;
  const sessions = new Map<string, Session>();
  const ports = new Map<number, PortTally>();
  let swept = now();

  const tallyOf = (port: number): PortTally => {
    let tally = ports.get(port);
    if (!tally) {
      tally = { endedMs: 0, longSessions: 0, live: 0, minute: 0, peakNow: 0, peakBefore: 0 };
      ports.set(port, tally);
    }
    return tally;
  };
  const roll = (tally: PortTally, at: number) => {
    const minute = Math.floor(at / PEAK_WINDOW_MS);
    if (minute === tally.minute) return;
    tally.peakBefore = minute === tally.minute + 1 ? tally.peakNow : tally.live;
    tally.peakNow = tally.live;
    tally.minute = minute;
  };
  const length = (s: Session) => s.last - s.first + segmentMs;
  /** Ends a session: it left when its gap ran out (or now, if sooner), which is when the peak loses it. */
  const end = (key: string, session: Session, at: number) => {
    sessions.delete(key);
    const tally = tallyOf(session.port);
    const left = Math.min(at, session.last + gapMs);
    if (Math.floor(left / PEAK_WINDOW_MS) > tally.minute) roll(tally, left);
    tally.live -= 1;
    tally.endedMs += length(session);
  };
  /** Ends every session whose last fetch is over the gap: at most once per gap, so O(1) per fetch on average. */
  const sweep = (at: number) => {
    if (at - swept < gapMs) return;
    swept = at;
    for (const [key, session] of sessions) if (at - session.last > gapMs) end(key, session, at);
  };
  const underWay = (port: number) => [...sessions.values()].filter((s) => s.port === port);

  return {
    fetched(client, port) {
      const at = now();
      sweep(at);
      const key = `${port}\n${client}`;
      const session = sessions.get(key);
      if (session && at - session.last <= gapMs) {
        session.last = Math.max(session.last, at);
        if (!session.long && length(session) >= SESSION_MIN_MS) {
          session.long = true;
          tallyOf(port).longSessions += 1;
        }
        return;
      }
      if (session) end(key, session, at);
      if (sessions.size >= maxSessions) return;
      const tally = tallyOf(port);
      roll(tally, at);
      tally.live += 1;
      tally.peakNow = Math.max(tally.peakNow, tally.live);
      sessions.set(key, { port, first: at, last: at, long: false });
    },
    seconds(port) {
      sweep(now());
      const ms = underWay(port).reduce((sum, s) => sum + length(s), 0);
      return ((ports.get(port)?.endedMs ?? 0) + ms) / 1000;
    },
    sessions(port) {
      sweep(now());
      return ports.get(port)?.longSessions ?? 0;
    },
    peak(port) {
      const at = now();
      sweep(at);
      const tally = ports.get(port);
      if (!tally) return 0;
      roll(tally, at);
      return Math.max(tally.peakNow, tally.peakBefore);
    },
  };
}

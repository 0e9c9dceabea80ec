/**
 * Listening figures per stream port (mount), by the radio industry's definitions: listener-seconds
 * (every listener's time summed; listening hours follow), sessions of at least a minute, and the
 * peak of concurrent listeners. Read at scrape time (metrics.ts): the sessions under way count up
 * to that moment, so a listener of three hours shows in every scrape, not only when they leave.
 * These are the listeners of the live stream through /api/stream (`mode="live"`); the rewind
 * window's, who fetch segments instead of holding a connection, are counted by window-listening.ts.
 */

/** A session counts once it has lasted this long. */
export const SESSION_MIN_MS = 60_000;
/** The peak is kept per minute: the gauge shows this minute's and the last one's. */
const PEAK_WINDOW_MS = 60_000;

export interface ListeningFigures {
  /** Listener-seconds on the port since start, sessions under way counted up to now. */
  seconds(port: number): number;
  /** Sessions on the port that lasted a minute or more, those under way counted once they reach it. */
  sessions(port: number): number;
  /** Most listeners at once on the port in the current minute and the one before. */
  peak(port: number): number;
}

export interface ListeningTally extends ListeningFigures {
  /** A listener of `port` starts; `key` identifies them at `end`. */
  start(key: object, port: number): void;
  end(key: object): void;
}

interface PortTally {
  /** Milliseconds of the sessions that have ended, and how many of them lasted a minute. */
  endedMs: number;
  endedSessions: number;
  live: number;
  /** Minute number (now / PEAK_WINDOW_MS) the current peak belongs to, its peak and the one before. */
  minute: number;
  peakNow: number;
  peakBefore: number;
}

export function createListeningTally(now: () => number = () => performance.now()): ListeningTally {
  const ports = new Map<number, PortTally>();
  const sessions = new Map<object, { port: number; since: number }>();
  const tallyOf = (port: number): PortTally => {
    let tally = ports.get(port);
    if (!tally) {
      tally = { endedMs: 0, endedSessions: 0, live: 0, minute: 0, peakNow: 0, peakBefore: 0 };
      ports.set(port, tally);
    }
    return tally;
  };
  /** Moves the peak on to the current minute; the listener count held through minutes without a change. */
  const roll = (tally: PortTally, at: number) => {
    const minute = Math.floor(at / PEAK_WINDOW_MS);
    if (minute === tally.minute) return;
    tally.peakBefore = minute === tally.minute + 1 ? tally.peakNow : tally.live;
    tally.peakNow = tally.live;
    tally.minute = minute;
  };
  /** Each session under way on the port, by how long it has lasted. */
  const underWay = (port: number, at: number) =>
    [...sessions.values()].filter((s) => s.port === port).map((s) => at - s.since);
  return {
    start(key, port) {
      const at = now();
      const tally = tallyOf(port);
      roll(tally, at);
      tally.live += 1;
      tally.peakNow = Math.max(tally.peakNow, tally.live);
      sessions.set(key, { port, since: at });
    },
    end(key) {
      const session = sessions.get(key);
      if (!session) return;
      sessions.delete(key);
      const at = now();
      const tally = tallyOf(session.port);
      roll(tally, at);
      tally.live -= 1;
      tally.endedMs += at - session.since;
      if (at - session.since >= SESSION_MIN_MS) tally.endedSessions += 1;
    },
    seconds(port) {
      const ms = underWay(port, now()).reduce((sum, lasted) => sum + lasted, 0);
      return ((ports.get(port)?.endedMs ?? 0) + ms) / 1000;
    },
    sessions(port) {
      const long = underWay(port, now()).filter((lasted) => lasted >= SESSION_MIN_MS).length;
      return (ports.get(port)?.endedSessions ?? 0) + long;
    },
    peak(port) {
      const tally = ports.get(port);
      if (!tally) return 0;
      roll(tally, now());
      return Math.max(tally.peakNow, tally.peakBefore);
    },
  };
}

/**
 * One reader of the station's metadata per mount per process, whatever the number of readers:
 * while anyone follows a port (a push client, see now-playing-events.ts), Icecast's status page
 * is read every POLL_MS (the one request shared with HEAD and GET /api/now-playing) and each
 * change is handed to the followers. Status polling was chosen over the in-band ICY metadata of
 * the upstream connection (docs/decisions/022): it learns of a change within a poll (half a second), and it also
 * works when nobody plays the stream (the /radio page shows the title before the first play).
 * The relay's live edge is the station's (after its first burst Icecast hands on each byte as it
 * comes), so a change is pushed when the live edge carries it, late by at most a poll; each state
 * also says how late the newest listener hears that edge (`lag`), for its player to show the
 * title of what it hears (docs/decisions/057).
 */
import type { IcecastStatus, NowPlaying } from './icecast-status.ts';
import { type LocalListeners, withLocalListeners } from './now-playing.ts';

/** How often the status is read while someone follows: a change reaches readers within about this. */
export const POLL_MS = 500;

export interface NowPlayingReader {
  /** The latest state (null before the first reading). */
  current(port: number): NowPlaying | null;
  /** Calls `onChange` with every new state of the port until the returned function is called. */
  follow(port: number, onChange: (nowPlaying: NowPlaying) => void): () => void;
}

const same = (a: NowPlaying | null, b: NowPlaying) =>
  a !== null && a.live === b.live && a.title === b.title && a.listeners === b.listeners;

interface PortState {
  /** Null while nobody follows (a reading kept from then would be stale) and until the first reading. */
  latest: NowPlaying | null;
  followers: Set<(nowPlaying: NowPlaying) => void>;
  polling: boolean;
  timer?: NodeJS.Timeout;
  /** When the previous reading came (performance.now()): a new title started between it and the next. */
  readAt?: number;
}

export function createNowPlayingReader(status: IcecastStatus, local: LocalListeners): NowPlayingReader {
  const ports = new Map<number, PortState>();
  const stateOf = (port: number) => {
    const state = ports.get(port) ?? { latest: null, followers: new Set(), polling: false };
    ports.set(port, state);
    return state;
  };

  async function poll(port: number, state: PortState): Promise<void> {
    const reading = await status.read(port, POLL_MS / 2);
    if (state.followers.size === 0) {
      state.polling = false;
      return;
    }
    const readAt = performance.now();
    const mine = local(port);
    let next = withLocalListeners(reading.nowPlaying, mine);
    if (mine.newest) next = { ...next, newest: mine.newest };
    // The title's start, halfway between the reading that did not have it and the one that does
    // (unknown for the first reading: it started before anyone asked).
    const titleSince =
      state.latest?.title === next.title
        ? state.latest.titleSince
        : state.latest && state.readAt && (state.readAt + readAt) / 2;
    if (titleSince) next = { ...next, titleSince };
    state.readAt = readAt;
    if (!same(state.latest, next)) {
      state.latest = next;
      for (const onChange of state.followers) onChange(next);
    }
    state.timer = setTimeout(() => {
      state.timer = undefined;
      void poll(port, state);
    }, POLL_MS);
  }

  return {
    current: (port) => ports.get(port)?.latest ?? null,
    follow(port, onChange) {
      const state = stateOf(port);
      state.followers.add(onChange);
      if (!state.polling) {
        state.polling = true;
        void poll(port, state);
      }
      return () => {
        state.followers.delete(onChange);
        if (state.followers.size > 0) return;
        state.latest = null;
        state.readAt = undefined;
        if (state.timer) {
          clearTimeout(state.timer);
          state.timer = undefined;
          state.polling = false;
        }
      };
    },
  };
}

/**
 * What is on air: the station's current title and listener count from our
 * JSON endpoint, as a small store the /radio card, the player bar and the
 * Media Session read. It polls only while someone retains it (the /radio card
 * while shown, the player while the visitor listens) and the page is visible.
 */
import { DEFAULT_TITLE } from './constants.ts';

export interface NowPlayingInfo {
  title: string | null;
  listeners: number | null;
}

export function parseNowPlaying(data: unknown): NowPlayingInfo | null {
  if (typeof data !== 'object' || data === null) return null;
  const { title, listeners } = data as Record<string, unknown>;
  return {
    title: typeof title === 'string' && title.trim() ? title : null,
    listeners: typeof listeners === 'number' && Number.isInteger(listeners) && listeners >= 0 ? listeners : null,
  };
}

/** The programme's name for the bar and the lock screen: the station's title, else "Live Radio". */
export const onAirTitle = (info: NowPlayingInfo | null): string => info?.title ?? DEFAULT_TITLE;

/** "3 listeners tuned in"; nothing for an unknown count or zero (an empty room is not news). */
export function listenersText(info: NowPlayingInfo | null): string {
  const n = info?.listeners;
  if (n == null || n < 1) return '';
  return `${n} ${n === 1 ? 'listener' : 'listeners'} tuned in`;
}

export interface NowPlayingStore {
  subscribe(listener: () => void): () => void;
  /** Null until the first answer (and on the server), so a first render matches the server's HTML. */
  getSnapshot(): NowPlayingInfo | null;
  /** Keeps the poller running until the returned release is called. */
  retain(): () => void;
  /** Asks again after `ms` (after playback starts, once the server's few-second cache has passed, to count us). */
  refreshIn(ms: number): void;
}

const REFRESH_MS = 20_000;

export function createNowPlaying(url: string): NowPlayingStore {
  let info: NowPlayingInfo | null = null;
  let holders = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let controller: AbortController | null = null;
  const listeners = new Set<() => void>();

  const schedule = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => void refresh(), ms);
  };

  async function refresh(): Promise<void> {
    clearTimeout(timer);
    if (holders === 0) return;
    if (document.visibilityState !== 'hidden') {
      controller?.abort();
      const current = new AbortController();
      controller = current;
      try {
        const res = await fetch(url, { signal: current.signal, headers: { Accept: 'application/json' } });
        if (res.ok) {
          info = parseNowPlaying(await res.json());
          for (const listener of listeners) listener();
        }
      } catch {
        /* keep what we have: the views fall back to their default text */
      }
      if (current.signal.aborted) return;
    }
    if (holders > 0) schedule(REFRESH_MS);
  }

  const onVisible = () => {
    if (document.visibilityState === 'visible') void refresh();
  };

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => info,
    retain() {
      holders += 1;
      if (holders === 1) {
        document.addEventListener('visibilitychange', onVisible);
        void refresh();
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holders -= 1;
        if (holders > 0) return;
        document.removeEventListener('visibilitychange', onVisible);
        clearTimeout(timer);
        controller?.abort();
        controller = null;
      };
    },
    refreshIn(ms) {
      if (holders > 0) schedule(ms);
    },
  };
}

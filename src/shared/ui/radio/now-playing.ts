/**
 * What is on air: the station's current title and listener count, pushed by
 * the server (GET /api/now-playing/events), as a small store the /radio card,
 * the player bar and the Media Session read. The push is open only while
 * someone retains the store: the /radio card while shown, the player while
 * the visitor listens.
 */

export interface NowPlayingInfo {
  title: string | null;
  listeners: number | null;
  /** As pushed, unchecked: the relay's newest listener (heard-title.ts reads them). */
  lag?: unknown;
  behind?: unknown;
  changed?: unknown;
}

export function parseNowPlaying(data: unknown): NowPlayingInfo | null {
  if (typeof data !== 'object' || data === null) return null;
  const { title, listeners } = data as Record<string, unknown>;
  return {
    // The rest as pushed, unchecked (the heard title checks what it reads: heard-title.ts).
    ...data,
    title: typeof title === 'string' && title.trim() ? title : null,
    listeners: typeof listeners === 'number' && Number.isInteger(listeners) && listeners >= 0 ? listeners : null,
  };
}

/** "3 listeners tuned in"; nothing for an unknown count or zero (an empty room is not news). */
export function listenersText(info: NowPlayingInfo | null): string {
  const n = info?.listeners;
  if (n == null || n < 1) return '';
  return `${n} ${n === 1 ? 'listener' : 'listeners'} tuned in`;
}

export interface NowPlayingStore {
  subscribe(listener: () => void): () => void;
  /** Null until the first event (and on the server), so a first render matches the server's HTML. */
  getSnapshot(): NowPlayingInfo | null;
  /** Keeps the push connection open until the returned release is called. */
  retain(): () => void;
}

/** After the server refused the connection (503 when full), try again after this. */
const REOPEN_MS = 15_000;

/**
 * One EventSource per page, open while anyone retains the store: a browser allows six HTTP/1.1
 * connections per site and the audio holds one, so it is not opened for pages that do not show
 * the radio. EventSource reconnects by itself after a drop (the server's `retry:`); only a refusal
 * (which closes it for good) is retried here.
 */
export function createNowPlaying(url: string): NowPlayingStore {
  let info: NowPlayingInfo | null = null;
  let holders = 0;
  let source: EventSource | null = null;
  let reopen: ReturnType<typeof setTimeout> | undefined;
  const listeners = new Set<() => void>();

  const onMessage = (event: MessageEvent<string>) => {
    try {
      info = parseNowPlaying(JSON.parse(event.data));
    } catch {
      return;
    }
    for (const listener of listeners) listener();
  };

  function open(): void {
    clearTimeout(reopen);
    if (holders === 0 || typeof EventSource === 'undefined') return;
    const current = new EventSource(url);
    source = current;
    current.addEventListener('message', onMessage);
    current.addEventListener('error', () => {
      if (current.readyState !== EventSource.CLOSED || source !== current) return;
      source = null;
      reopen = setTimeout(open, REOPEN_MS);
    });
  }

  function close(): void {
    clearTimeout(reopen);
    source?.close();
    source = null;
  }

  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getSnapshot: () => info,
    retain() {
      holders += 1;
      if (holders === 1) open();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holders -= 1;
        if (holders === 0) close();
      };
    },
  };
}

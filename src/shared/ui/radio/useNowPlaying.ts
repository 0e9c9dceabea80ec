import { useEffect, useRef, useState } from 'react';

export interface NowPlayingInfo {
  title: string | null;
  listeners: number | null;
}

const REFRESH_MS = 20_000;
/** After playback starts, look again once the server's few-second cache has passed, so the count includes us. */
const AFTER_START_MS = 6_000;

function parse(data: unknown): NowPlayingInfo | null {
  if (typeof data !== 'object' || data === null) return null;
  const { title, listeners } = data as Record<string, unknown>;
  return {
    title: typeof title === 'string' && title.trim() ? title : null,
    listeners: typeof listeners === 'number' && Number.isInteger(listeners) && listeners >= 0 ? listeners : null,
  };
}

/**
 * The station's current title and listener count from our JSON endpoint,
 * refreshed while the page is visible (and once more soon after `live`
 * turns true). Null until the first answer (and on the server), so the
 * first render matches the server's HTML.
 */
export function useNowPlaying(url: string, live: boolean): NowPlayingInfo | null {
  const [info, setInfo] = useState<NowPlayingInfo | null>(null);
  const refreshRef = useRef<() => void>(() => {});

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const controller = new AbortController();
    const refresh = async () => {
      clearTimeout(timer);
      if (document.visibilityState !== 'hidden') {
        try {
          const res = await fetch(url, { signal: controller.signal, headers: { Accept: 'application/json' } });
          if (res.ok) setInfo(parse(await res.json()));
        } catch {
          /* keep what we have: the page falls back to its default text */
        }
      }
      if (!controller.signal.aborted) timer = setTimeout(refresh, REFRESH_MS);
    };
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    refreshRef.current = () => void refresh();
    void refresh();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      controller.abort();
      clearTimeout(timer);
      refreshRef.current = () => {};
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [url]);

  useEffect(() => {
    if (!live) return;
    const timer = setTimeout(() => refreshRef.current(), AFTER_START_MS);
    return () => clearTimeout(timer);
  }, [live]);

  return info;
}

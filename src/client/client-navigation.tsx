/**
 * The browser's navigation state (decision 043). Hydration starts from the page the server
 * rendered (the boot data names it) and needs no router; react-router loads after it, at an idle
 * moment or at the latest on the first link intent (a link seen, touched, hovered or focused), and
 * then drives the state: it mounts beside the page tree, never above it, so taking over remounts
 * nothing, and reports each location here (router.tsx). A navigation asked for before it has
 * loaded waits for it; if its chunk cannot load, the link does a full page load instead.
 * A page whose chunk cannot load is handled the same way: a full page load of its URL (after a
 * deploy the new HTML names the new files), unless that would cost the reader something: while the
 * radio plays, or offline, the navigation happens in the page and the page region shows why it is
 * empty (PageErrorBoundary), to be tried again by the next click.
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { loadedPage, preloadPage } from '../shared/page-modules.ts';
import { pageAtPath, type PageId } from '../shared/pages.ts';
import { whenIdle } from '../shared/ui/schedule.ts';
import { NavigationContext, type Navigation, type NavigationLocation } from '../shared/ui/navigation.tsx';
import type { RouterBridge, RouterHandle } from './router.tsx';

interface Current {
  location: NavigationLocation;
  page: PageId;
  attempt: number;
}

const sameEntry = (a: NavigationLocation, b: NavigationLocation) =>
  a.pathname === b.pathname && a.search === b.search && a.hash === b.hash && a.key === b.key;

/** A full page load would stop the site's one audio element (PlayerProvider), or fail offline. */
const fullLoadCostsTheReader = () => !navigator.onLine || document.querySelector('audio')?.paused === false;

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export function ClientNavigation({ page, children }: { page: PageId; children: ReactNode }) {
  const [current, setCurrent] = useState<Current>(() => {
    const { pathname, search, hash } = window.location;
    return { location: { pathname, search, hash, key: 'default' }, page, attempt: 0 };
  });
  // Navigations asked for; committed with the location they lead to, so the page, its scroll and its
  // focus change together.
  const attempts = useRef(0);
  const [Bridge, setBridge] = useState<typeof RouterBridge | null>(null);
  const router = useRef<ReturnType<typeof deferred<RouterHandle>> | null>(null);
  if (!router.current) {
    router.current = deferred<RouterHandle>();
    // A router that failed to load is handled where it is awaited (navigate, prefetch), if ever.
    router.current.promise.catch(() => {});
  }
  const loadStarted = useRef(false);

  const loadRouter = useCallback(() => {
    if (loadStarted.current) return;
    loadStarted.current = true;
    import('./router.tsx').then(
      (module) => setBridge(() => module.RouterBridge),
      (error: unknown) => router.current?.reject(error),
    );
  }, []);

  useEffect(() => {
    whenIdle(loadRouter);
  }, [loadRouter]);

  const prefetch = useCallback(
    (pathname: string) => {
      loadRouter();
      const id = pageAtPath(pathname)?.id;
      if (id) void preloadPage(id);
      else
        void router.current?.promise.then(
          (handle) => preloadPage(handle.matchPage(pathname).id),
          () => {},
        );
    },
    [loadRouter],
  );

  const navigate = useCallback(
    (to: string) => {
      const pathname = to.split(/[?#]/)[0] || '/';
      prefetch(pathname);
      router.current?.promise.then(
        async (handle) => {
          try {
            await preloadPage(handle.matchPage(pathname).id);
          } catch {
            if (!fullLoadCostsTheReader()) {
              window.location.assign(to);
              return;
            }
          }
          attempts.current += 1;
          handle.navigate(to);
        },
        // No router (its chunk is unreachable): the link's ordinary behaviour.
        () => window.location.assign(to),
      );
    },
    [prefetch],
  );

  const onReady = useCallback((handle: RouterHandle) => router.current?.resolve(handle), []);
  // The router's location. A page whose module is there renders at once, in the same task as the tap
  // (nothing can suspend); any other as a transition: the old page stays until the new one can render.
  const onLocation = useCallback((location: NavigationLocation, page: PageId) => {
    const attempt = attempts.current;
    const update = (previous: Current) =>
      sameEntry(previous.location, location) && previous.page === page && previous.attempt === attempt
        ? previous
        : { location, page, attempt };
    if (loadedPage(page)) setCurrent(update);
    else startTransition(() => setCurrent(update));
  }, []);

  const value = useMemo<Navigation>(() => ({ ...current, navigate, prefetch }), [current, navigate, prefetch]);
  return (
    <NavigationContext value={value}>
      {children}
      {Bridge && <Bridge onReady={onReady} onLocation={onLocation} />}
    </NavigationContext>
  );
}

/**
 * The browser's navigation state (decision 043). Hydration starts from the page the server
 * rendered (the boot data names it) and needs no router; react-router loads after it, at an idle
 * moment or at the latest on the first link intent (a link seen, touched, hovered or focused), and
 * then drives the state: it mounts beside the page tree, never above it, so taking over remounts
 * nothing, and reports each location here (router.tsx). A navigation asked for before it has
 * loaded waits for it. A failed load of the router's chunk is not remembered: the next intent or
 * tap fetches it again, as a page's chunk is (page-modules.ts).
 * A page (or the router) whose chunk cannot load is shown by a full page load of its URL (after a
 * deploy the new HTML names the new files), unless that would cost the reader something: while the
 * radio plays, or offline, a page whose chunk failed shows in the page region why it is empty
 * (PageErrorBoundary), and a router that failed leaves the reader where they are with a notice
 * (NavigationProgress); the next tap tries again.
 * The newest tap wins: a navigation still waiting for code is dropped when another is asked for.
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { loadedPage } from '../shared/page-modules.ts';
import { pageAtPath, type PageId } from '../shared/pages.ts';
import { savesData } from '../shared/ui/connection.ts';
import { navigationProgress } from '../shared/ui/navigation-progress.ts';
import { whenIdle } from '../shared/ui/schedule.ts';
import { NavigationContext, type Navigation, type NavigationLocation } from '../shared/ui/navigation.tsx';
import { fetchPage } from './page-files.ts';
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

const pathOf = (to: string) => to.split(/[?#]/)[0] || '/';

/**
 * The router's chunk, loaded once it is asked for; a failed load is forgotten, so the next call
 * fetches it again. `ready` resolves with the router's handle once it has rendered.
 */
function useRouterLoader() {
  const [Bridge, setBridge] = useState<typeof RouterBridge | null>(null);
  const handle = useRef<RouterHandle | null>(null);
  const waiting = useRef<ReturnType<typeof deferred<RouterHandle>> | null>(null);
  const loading = useRef(false);

  const load = useCallback(() => {
    if (loading.current || handle.current) return;
    loading.current = true;
    import('./router.tsx').then(
      (module) => setBridge(() => module.RouterBridge),
      (error: unknown) => {
        loading.current = false;
        const failed = waiting.current;
        waiting.current = null;
        failed?.reject(error);
      },
    );
  }, []);

  const ready = useCallback((): Promise<RouterHandle> => {
    if (handle.current) return Promise.resolve(handle.current);
    waiting.current ??= deferred<RouterHandle>();
    const { promise } = waiting.current;
    load();
    return promise;
  }, [load]);

  const onReady = useCallback((ready: RouterHandle) => {
    handle.current = ready;
    waiting.current?.resolve(ready);
    waiting.current = null;
  }, []);

  return { Bridge, handle, load, ready, onReady };
}

export function ClientNavigation({ page, children }: { page: PageId; children: ReactNode }) {
  const [current, setCurrent] = useState<Current>(() => {
    const { pathname, search, hash } = window.location;
    return { location: { pathname, search, hash, key: 'default' }, page, attempt: 0 };
  });
  // Navigations asked for; committed with the location they lead to, so the page, its scroll and its
  // focus change together.
  const attempts = useRef(0);
  // The newest navigation asked for: an older one still waiting for code gives way.
  const latest = useRef(0);
  const router = useRouterLoader();
  const { load: loadRouter, ready: routerReady, handle: routerHandle } = router;

  useEffect(() => {
    // A reader saving data gets the router with their first tap (together with the page's code).
    if (!savesData()) whenIdle(loadRouter);
  }, [loadRouter]);

  const prefetch = useCallback(
    (pathname: string) => {
      const id = pageAtPath(pathname)?.id;
      if (id) {
        loadRouter();
        void fetchPage(id).catch(() => {});
      } else
        routerReady().then(
          (handle) => fetchPage(handle.matchPage(pathname).id).catch(() => {}),
          () => {},
        );
    },
    [loadRouter, routerReady],
  );

  const go = useCallback((handle: RouterHandle, to: string) => {
    attempts.current += 1;
    navigationProgress.finished();
    handle.navigate(to);
  }, []);

  const navigate = useCallback(
    (to: string) => {
      const ticket = ++latest.current;
      const pathname = pathOf(to);
      // The router and the page's code are there (prefetched): the page shows in this task.
      const handle = routerHandle.current;
      if (handle && loadedPage(handle.matchPage(pathname).id)) return go(handle, to);
      navigationProgress.started();
      const stillLatest = () => ticket === latest.current;
      const cannotShow = () => {
        if (!stillLatest()) return;
        if (fullLoadCostsTheReader()) navigationProgress.failed();
        else window.location.assign(to);
      };
      const id = pageAtPath(pathname)?.id;
      // The page's code and the router at once, not one after the other.
      const page = id ? fetchPage(id) : undefined;
      page?.catch(() => {});
      routerReady().then(async (handle) => {
        try {
          await (page ?? fetchPage(handle.matchPage(pathname).id));
        } catch {
          // Shown in the page region (PageErrorBoundary) when a full load would cost the reader,
          // unless its files are gone for good (reload-offer.tsx).
          if (!fullLoadCostsTheReader()) return cannotShow();
          handle.pageCodeFailed(to);
        }
        if (stillLatest()) go(handle, to);
      }, cannotShow);
    },
    [go, routerReady, routerHandle],
  );

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
  const { Bridge } = router;
  return (
    <NavigationContext value={value}>
      {children}
      {Bridge && <Bridge onReady={router.onReady} onLocation={onLocation} />}
    </NavigationContext>
  );
}

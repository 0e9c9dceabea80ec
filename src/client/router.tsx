/**
 * react-router in the browser: its own chunk, loaded after hydration (client-navigation.tsx,
 * decision 043), the only one that carries react-router. `BrowserRouter` owns the history (links'
 * pushes, back and forward); it renders nothing of the page: `LocationBridge` hands its location
 * (and the page the route table matches for it) to our navigation state, and its `navigate` to the
 * links. Beside it, what a navigation does once the new page renders (NavigationLanding): no
 * navigation happens before this chunk is there, so the first load carries none of it.
 */
import { useEffect, useLayoutEffect, useRef } from 'react';
import { BrowserRouter, createPath, useLocation, useNavigate, useNavigationType } from 'react-router-dom';
import type { PageEntry, PageId } from '../shared/pages.ts';
import { matchPage } from '../shared/routes.tsx';
import { RouteAnnouncer } from '../shared/ui/chrome/RouteAnnouncer.tsx';
import { useScrollOnNavigation } from '../shared/ui/chrome/use-scroll-on-navigation.ts';
import type { NavigationLocation } from '../shared/ui/navigation.tsx';
import { pageCodeFailed, ReloadOffer } from './reload-offer.tsx';
import { registerServiceWorker } from './register-service-worker.ts';

// The router's chunk arrives after hydration on every page load: the worker's registration rides with it.
registerServiceWorker();
// Field Web Vitals (vitals.ts): a chunk of its own, loaded with the router, after the page is idle.
const vitals = import('./vitals.ts');

export interface RouterHandle {
  navigate(to: string): void;
  matchPage(pathname: string): PageEntry;
  /** A page's code failed while a full load would cost the reader: a full load, if its files are gone for good. */
  pageCodeFailed(to: string): void;
}

interface BridgeProps {
  onReady(handle: RouterHandle): void;
  onLocation(location: NavigationLocation, page: PageId): void;
}

export function RouterBridge(props: BridgeProps) {
  return (
    // Its own state updates are synchronous: it renders only the bridge, and onLocation decides
    // whether the page's update is a transition.
    <>
      <BrowserRouter useTransitions={false}>
        <LocationBridge {...props} />
      </BrowserRouter>
      <NavigationLanding />
      <ReloadOffer />
    </>
  );
}

/** Where each navigation lands: the scroll, the focus and the announcement of the new page. */
function NavigationLanding() {
  useScrollOnNavigation();
  return <RouteAnnouncer />;
}

function LocationBridge({ onReady, onLocation }: BridgeProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const pop = useNavigationType() === 'POP';
  const { pathname, search, hash, key } = location;
  useLayoutEffect(() => {
    onLocation({ pathname, search, hash, key, pop }, matchPage(pathname).id);
  }, [onLocation, pathname, search, hash, key, pop]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new page, not a new entry of the same page (a hash), is the trigger.
  useEffect(() => {
    // A page reached in the site made no request the service worker could keep: it fetches it (the
    // first location is a full load, kept as it loaded).
    if (key !== 'default') navigator.serviceWorker?.controller?.postMessage({ keep: pathname });
    vitals.then(
      (module) => module.pageShown(matchPage(pathname).id, pathname),
      () => {},
    );
  }, [pathname]);
  const latestNavigate = useRef(navigate);
  useLayoutEffect(() => {
    latestNavigate.current = navigate;
  });
  useLayoutEffect(() => {
    onReady({
      // As react-router's <Link>: a link to where the reader already is replaces the entry.
      navigate: (to) => latestNavigate.current(to, { replace: createPath(window.location) === to }),
      matchPage,
      pageCodeFailed,
    });
  }, [onReady]);
  return null;
}

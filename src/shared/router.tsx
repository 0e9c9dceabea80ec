/**
 * The site's router: a location in context, links that navigate with the History API, and page
 * prefetching. The route table is nine static paths (pages.ts) without parameters, loaders or
 * nesting beyond the chrome, so this replaces react-router (about 13 KB gzip of every first load)
 * with about 1 KB. The server renders with <StaticRouter>, the browser hydrates with <BrowserRouter>;
 * navigations are transitions, so the old page stays until the new one can render without
 * suspending.
 */
import {
  createContext,
  startTransition,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactNode,
} from 'react';

export interface RouterLocation {
  pathname: string;
  hash: string;
}

interface Router {
  location: RouterLocation;
  navigate(to: string): void;
  /** Loads what the path's page needs, so a navigation to it renders at once. */
  prefetch(pathname: string): void;
}

const RouterContext = createContext<Router | null>(null);

function useRouter(): Router {
  const router = use(RouterContext);
  if (!router) throw new Error('router hooks and <Link> need a <BrowserRouter> or <StaticRouter>');
  return router;
}

export function useLocation(): RouterLocation {
  return useRouter().location;
}

/** The server's router: a fixed location (a path with an optional query and hash). */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  const url = new URL(location, 'http://localhost');
  const router: Router = {
    location: { pathname: url.pathname, hash: url.hash },
    navigate: () => {
      throw new Error('no navigation while rendering on the server');
    },
    prefetch: () => {},
  };
  return <RouterContext value={router}>{children}</RouterContext>;
}

const currentLocation = (): RouterLocation => ({ pathname: window.location.pathname, hash: window.location.hash });

/** The browser's router: follows pushState navigations and the back and forward buttons. */
export function BrowserRouter({ prefetch, children }: { prefetch(pathname: string): void; children: ReactNode }) {
  const [location, setLocation] = useState(currentLocation);
  useEffect(() => {
    // Back, forward, and in-page anchors (#local on the front page) all end here.
    const onPopState = () => startTransition(() => setLocation(currentLocation()));
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);
  const navigate = useCallback((to: string) => {
    const url = new URL(to, window.location.href);
    window.history.pushState(null, '', url);
    startTransition(() => setLocation({ pathname: url.pathname, hash: url.hash }));
  }, []);
  const router = useMemo(() => ({ location, navigate, prefetch }), [location, navigate, prefetch]);
  return <RouterContext value={router}>{children}</RouterContext>;
}

/** A plain click: no modifier key, main button, same tab. Anything else is the browser's. */
function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey &&
    (!target || target === '_self')
  );
}

// Safari has no requestIdleCallback.
const whenIdle = (run: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 2_000 }) : setTimeout(run, 200);

let viewportObserver: IntersectionObserver | undefined;
const whenVisible = new WeakMap<Element, () => void>();

/**
 * Calls `run` once the element has been in the viewport, at an idle moment (links a reader can see
 * are the ones they may tap next). Returns a function that stops watching.
 */
function onceVisible(element: Element, run: () => void): () => void {
  viewportObserver ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      viewportObserver?.unobserve(entry.target);
      const callback = whenVisible.get(entry.target);
      if (callback) whenIdle(callback);
    }
  });
  whenVisible.set(element, run);
  viewportObserver.observe(element);
  return () => viewportObserver?.unobserve(element);
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path of this site, optionally with a #hash. */
  to: string;
}

/**
 * A link to a page of this site: a real <a href> (it works before hydration and for new tabs),
 * navigated in the browser by the router. The target page's code is fetched when the link comes
 * into view, and at the latest when a finger or pointer touches it or it takes the focus.
 */
export function Link({ to, onClick, onPointerEnter, onTouchStart, onFocus, ...rest }: LinkProps) {
  const router = useRouter();
  const pathname = to.split('#')[0] || '/';
  const prefetch = () => router.prefetch(pathname);
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    return onceVisible(element, () => router.prefetch(pathname));
  }, [router, pathname]);
  return (
    <a
      {...rest}
      ref={ref}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (!isPlainClick(event)) return;
        event.preventDefault();
        router.navigate(to);
      }}
      onPointerEnter={(event) => {
        onPointerEnter?.(event);
        prefetch();
      }}
      onTouchStart={(event) => {
        onTouchStart?.(event);
        prefetch();
      }}
      onFocus={(event) => {
        onFocus?.(event);
        prefetch();
      }}
    />
  );
}

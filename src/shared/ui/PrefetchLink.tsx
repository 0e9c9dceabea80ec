/**
 * react-router's <Link> that also fetches the target page's code before the tap: when the link has
 * come into view (at an idle moment), and at the latest on touchstart, hover or focus. So a tap
 * renders a page whose chunk is already there. What "fetch a page's code" means comes from the route
 * table (routes.tsx provides it); without a provider (a test rendering a component alone) it does
 * nothing. Nothing runs on the server: effects and event handlers are browser-only.
 */
import { createContext, use, useEffect, useRef } from 'react';
import { Link, type LinkProps } from 'react-router-dom';

/** Fetches what the page at a pathname needs to render at once. */
export type PrefetchPage = (pathname: string) => void;

export const PrefetchPageContext = createContext<PrefetchPage>(() => {});

// Safari has no requestIdleCallback.
const whenIdle = (run: () => void) =>
  typeof requestIdleCallback === 'function' ? requestIdleCallback(run, { timeout: 2_000 }) : setTimeout(run, 200);

let viewportObserver: IntersectionObserver | undefined;
const onVisible = new WeakMap<Element, () => void>();

/** Calls `run` once, at idle, after the element first enters the viewport. Returns the unsubscribe. */
function onceVisible(element: Element, run: () => void): () => void {
  viewportObserver ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      viewportObserver?.unobserve(entry.target);
      const callback = onVisible.get(entry.target);
      if (callback) whenIdle(callback);
    }
  });
  onVisible.set(element, run);
  viewportObserver.observe(element);
  return () => viewportObserver?.unobserve(element);
}

export interface PrefetchLinkProps extends Omit<LinkProps, 'to'> {
  /** A path of this site, optionally with a #hash. */
  to: string;
}

export function PrefetchLink({ to, onPointerEnter, onTouchStart, onFocus, ...rest }: PrefetchLinkProps) {
  const prefetchPage = use(PrefetchPageContext);
  const pathname = to.split('#')[0] || '/';
  const ref = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    return onceVisible(element, () => prefetchPage(pathname));
  }, [prefetchPage, pathname]);
  return (
    <Link
      {...rest}
      ref={ref}
      to={to}
      onPointerEnter={(event) => {
        onPointerEnter?.(event);
        prefetchPage(pathname);
      }}
      onTouchStart={(event) => {
        onTouchStart?.(event);
        prefetchPage(pathname);
      }}
      onFocus={(event) => {
        onFocus?.(event);
        prefetchPage(pathname);
      }}
    />
  );
}

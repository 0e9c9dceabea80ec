/**
 * Every in-site link: a plain `<a href>` whose click navigates in the page (the navigation
 * context's `navigate`, react-router once its chunk is there: decision 043) and which fetches the
 * target page's code (and the router, if not there yet) before the tap: when the link has come into
 * view (at an idle moment, once the reader has done something on the page: a load nobody touches
 * fetches nothing ahead), and at the latest on touchstart, hover or focus. So a tap renders a page
 * whose chunk is already there. On a slow connection only on those intents, and not at all for a
 * reader who asks to save data (connection.ts).
 * Before hydration it is an ordinary link (a full page load). Nothing runs on the server: effects
 * and event handlers are browser-only.
 */
import { useEffect, useRef, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { prefetchesInView, savesData } from './connection.ts';
import { useNavigation } from './navigation.tsx';
import { whenEngaged, whenIdle } from './schedule.ts';
import { onceNearViewport } from './use-near-viewport.ts';

/**
 * A click the page handles itself, as react-router's <Link> decides: the primary button, no
 * modifier (those open a new tab or window), not already handled, and no other target.
 */
function isInPageClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const target = event.currentTarget.getAttribute('target');
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    (!target || target === '_self') &&
    !(event.metaKey || event.altKey || event.ctrlKey || event.shiftKey)
  );
}

export interface PrefetchLinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A path of this site, optionally with a ?query and a #hash. */
  to: string;
}

export function PrefetchLink({ to, onClick, onPointerEnter, onTouchStart, onFocus, ...rest }: PrefetchLinkProps) {
  const { navigate, prefetch } = useNavigation();
  const pathname = to.split(/[?#]/)[0] || '/';
  const ref = useRef<HTMLAnchorElement>(null);
  const onIntent = () => {
    if (!savesData()) prefetch(pathname);
  };
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined' || !prefetchesInView()) return;
    // At idle, once the link has come into view and the reader has done something on the page.
    return onceNearViewport(element, '0px', () => whenEngaged(() => whenIdle(() => prefetch(pathname))));
  }, [prefetch, pathname]);
  return (
    <a
      {...rest}
      ref={ref}
      href={to}
      onClick={(event) => {
        onClick?.(event);
        if (!isInPageClick(event)) return;
        event.preventDefault();
        navigate(to);
      }}
      onPointerEnter={(event) => {
        onPointerEnter?.(event);
        onIntent();
      }}
      onTouchStart={(event) => {
        onTouchStart?.(event);
        onIntent();
      }}
      onFocus={(event) => {
        onFocus?.(event);
        onIntent();
      }}
    />
  );
}

import { useEffect, useRef } from 'react';
import { useNavigation } from '../navigation.tsx';
import { afterNextPaint } from '../schedule.ts';
import { type ScrollAnchor, scrollToAnchor, viewportAnchor } from './scroll-anchor.ts';

/**
 * On the root, turns off the front page's `content-visibility: auto` (home.css): every block is laid
 * out with its real size while it is there.
 */
export const LAY_OUT_ALL_CLASS = 'lay-out-all';

/** Where the reader was in each of this document's history entries, by react-router's key, for back and forward. */
const positions = new Map<string, { y: number; anchor: ScrollAnchor | undefined }>();

/**
 * Where a page lands after an in-site navigation, and where the focus goes:
 * - back or forward: where the reader left that entry, the focus left alone;
 * - with a hash: at that element, which also takes the focus (the target needs tabindex="-1");
 * - otherwise: at the top, as a full page load would, with the focus on the page's main heading
 *   (made focusable with tabindex="-1"), so keyboard and screen-reader users start from the new
 *   page rather than from the link they clicked, which is gone. The focus moves once the new page has
 *   painted, so the tap's task only renders.
 * It runs in the router's chunk (src/client/router.tsx), mounted after hydration: its mount is no
 * navigation (the reader may have scrolled meanwhile), so it moves nothing then, and notes where the
 * reader is.
 */
export function useScrollOnNavigation(): void {
  const { location, attempt } = useNavigation();
  const { pathname, hash, key = 'default', pop = false } = location;
  const currentKey = useRef(key);
  const mounted = useRef(false);

  useEffect(() => {
    const remember = () => positions.set(currentKey.current, { y: window.scrollY, anchor: viewportAnchor() });
    // Back and forward within the document are ours: the browser's own restoration would come after
    // ours and put back the distance from the top, which is not the same view where the front page's
    // blocks have estimated sizes. A reload or a return to the page from elsewhere is the browser's.
    const manual = () => (history.scrollRestoration = 'manual');
    const auto = () => (history.scrollRestoration = 'auto');
    manual();
    remember();
    window.addEventListener('scroll', remember, { passive: true });
    window.addEventListener('pageshow', manual);
    window.addEventListener('pagehide', auto);
    return () => {
      window.removeEventListener('scroll', remember);
      window.removeEventListener('pageshow', manual);
      window.removeEventListener('pagehide', auto);
      auto();
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: every navigation (a new entry, or a page tried again) is the trigger.
  useEffect(() => {
    currentKey.current = key;
    if (!mounted.current) {
      mounted.current = true;
      return;
    }
    const target = hash ? document.getElementById(safeDecode(hash.slice(1))) : null;
    if (pop) withEverythingLaidOut(() => restore(positions.get(key)));
    else if (target) withEverythingLaidOut(() => target.scrollIntoView());
    // (0, 0) needs no layout: the browser does not clamp it, so nothing is computed before the paint.
    else window.scrollTo(0, 0);
    // Back or forward: the reader is where they left that entry; the focus stays out of the way
    // (a heading at the top would take the next Tab, and the view, back up there).
    if (pop) return;
    // After the new page has painted: focus() computes the page's styles at once, which would then be
    // computed again for the paint (the heading's tabindex, :focus-within), in the tap's task.
    return afterNextPaint(() => (target ?? mainHeading())?.focus({ preventScroll: true }));
  }, [pathname, hash, key, attempt]);
}

/** Back or forward: the reader's view of that entry again, or its distance from the top if the page has changed. */
function restore(position: { y: number; anchor: ScrollAnchor | undefined } | undefined): void {
  window.scrollTo(0, position?.y ?? 0);
  if (position?.anchor) scrollToAnchor(position.anchor);
}

/**
 * Scrolls to a place measured against real sizes. Blocks laid out only as they near the screen
 * (`content-visibility: auto`, the front page's) have estimated sizes until seen, so a restored
 * position or a section's top would land elsewhere (or past the page's end), and the blocks shown
 * around it would then move it: everything is laid out for one frame, long enough for each block to
 * remember its real size (`contain-intrinsic-size: auto`), then skipped again where off screen.
 */
function withEverythingLaidOut(scroll: () => void): void {
  const root = document.documentElement;
  root.classList.add(LAY_OUT_ALL_CLASS);
  scroll();
  requestAnimationFrame(() => requestAnimationFrame(() => root.classList.remove(LAY_OUT_ALL_CLASS)));
}

/** The page's main heading, made focusable; the main region if the page has none. */
function mainHeading(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
  if (!heading) return document.getElementById('main');
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  return heading;
}

function safeDecode(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

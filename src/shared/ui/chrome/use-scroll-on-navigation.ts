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
    restoreAfterReload();
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
    window.addEventListener('pagehide', keepForReload);
    document.addEventListener('visibilitychange', keepForReload);
    return () => {
      window.removeEventListener('scroll', remember);
      window.removeEventListener('pageshow', manual);
      window.removeEventListener('pagehide', auto);
      window.removeEventListener('pagehide', keepForReload);
      document.removeEventListener('visibilitychange', keepForReload);
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

/** Where the reader was when the document was last hidden or left, for a reload (sessionStorage: the tab's). */
const RELOAD_KEY = 'scroll-anchor';
const here = () => location.pathname + location.search;

/**
 * A reload, or a discarded tab restored (both full loads of the same entry), gets the browser's
 * restoration: the same distance from the top, which shows another part of the front page (its
 * lower blocks have estimated sizes until seen). The view is kept when the page is hidden or left,
 * and put back here: the element that was at the top of the screen is there again. Unless the
 * reader has scrolled since the load (neither at the top nor where the browser put them).
 */
function keepForReload(event: Event): void {
  if (event.type === 'visibilitychange' && document.visibilityState !== 'hidden') return;
  const view = { url: here(), y: window.scrollY, anchor: viewportAnchor() };
  try {
    sessionStorage.setItem(RELOAD_KEY, JSON.stringify(view));
  } catch {
    // Storage full or refused: the browser's restoration stays.
  }
}

function restoreAfterReload(): void {
  const type = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.type;
  if (type !== 'reload' && !document.wasDiscarded) return;
  let view: { url?: string; y?: number; anchor?: ScrollAnchor } | null = null;
  try {
    view = JSON.parse(sessionStorage.getItem(RELOAD_KEY) ?? 'null');
  } catch {
    return;
  }
  const { url, y, anchor } = view ?? {};
  if (url !== here() || typeof y !== 'number' || (window.scrollY > 1 && Math.abs(window.scrollY - y) > 1)) return;
  const valid = Array.isArray(anchor?.path) && typeof anchor.top === 'number';
  withEverythingLaidOut(() => restore({ y, anchor: valid ? anchor : undefined }));
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

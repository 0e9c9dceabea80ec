import { useEffect, useRef } from 'react';
import { useNavigation } from '../navigation.tsx';

/** Scroll positions of this document's history entries, by react-router's key, for back and forward. */
const positions = new Map<string, number>();

/**
 * Where a page lands after an in-site navigation, and where the focus goes:
 * - back or forward: where the reader left that entry;
 * - with a hash: at that element, which also takes the focus (the target needs tabindex="-1");
 * - otherwise: at the top, as a full page load would, with the focus on the page's main heading
 *   (made focusable with tabindex="-1"), so keyboard and screen-reader users start from the new
 *   page rather than from the link they clicked, which is gone.
 * Hydration is no navigation: the reader may have scrolled while the app loaded, so it moves nothing.
 */
export function useScrollOnNavigation(): void {
  const { location, attempt } = useNavigation();
  const { pathname, hash, key = 'default', pop = false } = location;
  const currentKey = useRef(key);
  const hydrated = useRef(false);

  useEffect(() => {
    const remember = () => positions.set(currentKey.current, window.scrollY);
    window.addEventListener('scroll', remember, { passive: true });
    return () => window.removeEventListener('scroll', remember);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: every navigation (a new entry, or a page tried again) is the trigger.
  useEffect(() => {
    currentKey.current = key;
    if (!hydrated.current) {
      hydrated.current = true;
      return;
    }
    const target = hash ? document.getElementById(safeDecode(hash.slice(1))) : null;
    if (pop) window.scrollTo(0, positions.get(key) ?? 0);
    else if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
    (target ?? mainHeading())?.focus({ preventScroll: true });
  }, [pathname, hash, key, attempt]);
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

import { useEffect, useRef } from 'react';
import { useNavigation } from '../navigation.tsx';

/**
 * Where a page lands after an in-site navigation: at its top, as a full page load would, or,
 * with a hash, at that element, which also takes the focus so keyboard and screen-reader users
 * continue from there (the browser only scrolls). The target needs tabindex="-1" to take it.
 * Hydration is no navigation: the reader may have scrolled while the app loaded, so it moves nothing.
 */
export function useScrollOnNavigation(): void {
  const { pathname, hash } = useNavigation().location;
  const hydrated = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: every navigation (a new pathname) is the trigger; only hash is read.
  useEffect(() => {
    if (!hydrated.current) {
      hydrated.current = true;
      return;
    }
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    const target = document.getElementById(safeDecode(hash.slice(1)));
    if (!target) return;
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  }, [pathname, hash]);
}

function safeDecode(id: string): string {
  try {
    return decodeURIComponent(id);
  } catch {
    return id;
  }
}

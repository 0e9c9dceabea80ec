import { useEffect } from 'react';

/**
 * Where a page lands after an in-site navigation: at its top, as a full page load would, or,
 * with a hash, at that element, which also takes the focus so keyboard and screen-reader users
 * continue from there (the browser only scrolls). The target needs tabindex="-1" to take it.
 */
export function useScrollOnNavigation(pathname: string, hash: string): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: every navigation (a new pathname) is the trigger; only hash is read.
  useEffect(() => {
    if (!hash) {
      window.scrollTo(0, 0);
      return;
    }
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    target.scrollIntoView();
    target.focus({ preventScroll: true });
  }, [pathname, hash]);
}

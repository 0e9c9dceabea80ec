/**
 * Where the reader is, for everything that renders: the location, the page it shows, and how to go
 * elsewhere in the site. Ours, not react-router's, so the first render (on the server, and the
 * hydration) needs no router: the server provides the request's page (StaticNavigation), the
 * browser its own state, which react-router drives once its chunk has loaded after hydration
 * (src/client/client-navigation.tsx, decision 043).
 */
import { createContext, use, type ReactNode } from 'react';
import type { PageId } from '../pages.ts';

export interface NavigationLocation {
  pathname: string;
  search: string;
  hash: string;
  /** The history entry (react-router's key; "default" for the document's first entry). */
  key?: string;
  /** Reached by back or forward (the scroll position of that entry is restored). */
  pop?: boolean;
}

export interface Navigation {
  location: NavigationLocation;
  /** The page the location shows (the route table's id). */
  page: PageId;
  /**
   * Counts the navigations asked for (links followed, the same one again included): a page that
   * failed to load is tried again when asked for again (PageErrorBoundary).
   */
  attempt: number;
  /** Goes to a path of this site (with an optional #hash) without reloading the document. */
  navigate(to: string): void;
  /** Fetches what showing the page at a path needs (its chunk, the router), ahead of a tap. */
  prefetch(pathname: string): void;
}

export const NavigationContext = createContext<Navigation | null>(null);

export function useNavigation(): Navigation {
  const value = use(NavigationContext);
  if (!value) throw new Error('useNavigation outside a navigation provider');
  return value;
}

/** A location that never changes: the server's render of one page. */
export function StaticNavigation({
  location,
  page,
  children,
}: {
  location: string;
  page: PageId;
  children: ReactNode;
}) {
  const value: Navigation = {
    location: { pathname: location, search: '', hash: '' },
    page,
    attempt: 0,
    navigate() {},
    prefetch() {},
  };
  return <NavigationContext value={value}>{children}</NavigationContext>;
}

/**
 * The route table of pages.ts as React, shared by server and client: which page a path shows, and
 * the page with its chrome. Each page is its own lazily imported chunk; the server loads it before
 * it streams and the client before it hydrates, so neither first render ever suspends. In the
 * browser a navigation suspends (in a transition: the old page stays) only if the new page's chunk
 * was not prefetched yet.
 */
import { Suspense, use, type ComponentType } from 'react';
import { pageById, pages, type PageEntry, type PageId } from './pages.ts';
import { useLocation } from './router.tsx';
import { RouteHead } from './ui/chrome/RouteHead.tsx';
import { SiteLayout } from './ui/chrome/SiteLayout.tsx';
import { useScrollOnNavigation } from './ui/chrome/use-scroll-on-navigation.ts';
import { PlayerBarSlot } from './ui/radio/PlayerBarSlot.tsx';
import { PlayerProvider } from './ui/radio/PlayerProvider.tsx';

type PageModule = () => Promise<ComponentType>;

/** Static import() calls, so esbuild splits one chunk per page. */
const pageModules: Record<PageId, PageModule> = {
  home: async () => (await import('./ui/pages/Home.tsx')).HomePage,
  about: async () => (await import('./ui/pages/About.tsx')).AboutPage,
  contact: async () => (await import('./ui/pages/Contact.tsx')).ContactPage,
  careers: async () => (await import('./ui/pages/Careers.tsx')).CareersPage,
  privacy: async () => (await import('./ui/pages/Privacy.tsx')).PrivacyPage,
  terms: async () => (await import('./ui/pages/Terms.tsx')).TermsPage,
  radio: async () => (await import('./ui/pages/Radio.tsx')).RadioPage,
  books: async () => (await import('./ui/pages/Books.tsx')).BooksPage,
  notFound: async () => (await import('./ui/pages/NotFound.tsx')).NotFoundPage,
};

const loading = new Map<PageId, Promise<ComponentType>>();
const loaded = new Map<PageId, ComponentType>();

/** Loads a page's module once; later renders of the page never suspend. */
export function preloadPage(id: PageId): Promise<ComponentType> {
  let promise = loading.get(id);
  if (!promise) {
    promise = pageModules[id]().then((component) => {
      loaded.set(id, component);
      return component;
    });
    loading.set(id, promise);
  }
  return promise;
}

const pagesByPath = new Map(pages.filter((p) => p.id !== 'notFound').map((p) => [p.path, p]));

/**
 * The page a path shows: the not-found page when nothing else matches. Like the browser's view of
 * a path, matching ignores letter case, one trailing slash and percent-escapes of plain letters.
 */
export function matchPage(pathname: string): PageEntry {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return pageById('notFound');
  }
  path = path.toLowerCase();
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return pagesByPath.get(path) ?? pageById('notFound');
}

/** Prefetches the page of a path (its chunk), for links. */
export function prefetchPath(pathname: string): void {
  void preloadPage(matchPage(pathname).id);
}

function Page({ entry }: { entry: PageEntry }) {
  const Component = loaded.get(entry.id) ?? use(preloadPage(entry.id));
  return (
    <>
      <RouteHead page={entry} />
      <Component />
    </>
  );
}

/** The current location's page, framed by the site's chrome unless the page has none. */
export function AppRoutes() {
  const { pathname, hash } = useLocation();
  useScrollOnNavigation(pathname, hash);
  const entry = matchPage(pathname);
  const page = <Page key={entry.id} entry={entry} />;
  // The radio's player sits above every page (the not-found page too), so navigating never silences it.
  return (
    <PlayerProvider>
      <Suspense>{entry.chrome ? <SiteLayout>{page}</SiteLayout> : page}</Suspense>
      <PlayerBarSlot />
    </PlayerProvider>
  );
}

/**
 * react-router's view of the route table in pages.ts, shared by server and client (declarative
 * mode: `useRoutes`, decision 001). Each page is its own lazily imported chunk; the server matches
 * the path with matchPage() (and so picks the status) and loads the page module before it streams;
 * the client loads it before it hydrates, so neither first render ever suspends. In the browser a
 * navigation is a transition (react-router's default): the old page stays until the new one can
 * render, which is at once when its chunk was prefetched (PrefetchLink).
 */
import { Suspense, use, type ComponentType } from 'react';
import { matchRoutes, Outlet, useRoutes, type RouteObject } from 'react-router-dom';
import { pageById, pages, type PageEntry, type PageId } from './pages.ts';
import { PrefetchPageContext } from './ui/PrefetchLink.tsx';
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

function Page({ id }: { id: PageId }) {
  const Component = loaded.get(id) ?? use(preloadPage(id));
  return (
    <>
      <RouteHead page={pageById(id)} />
      <Component />
    </>
  );
}

const pageRoute = (entry: PageEntry): RouteObject =>
  entry.path === '/'
    ? { index: true, id: entry.id, element: <Page id={entry.id} /> }
    : { path: entry.path, id: entry.id, element: <Page id={entry.id} /> };

const siteLayout = (
  <SiteLayout>
    <Outlet />
  </SiteLayout>
);

export const routeObjects: RouteObject[] = [
  {
    id: 'root',
    element: <Root />,
    children: [
      { id: 'site', element: siteLayout, children: pages.filter((p) => p.chrome).map(pageRoute) },
      ...pages.filter((p) => !p.chrome).map(pageRoute),
    ],
  },
];

/**
 * The page a path shows: the not-found page when nothing else matches. react-router matches
 * ignoring letter case and a trailing slash, on the decoded path.
 */
export function matchPage(pathname: string): PageEntry {
  const leaf = matchRoutes(routeObjects, pathname)?.at(-1)?.route.id as PageId | undefined;
  return pageById(leaf ?? 'notFound');
}

/** Prefetches the page of a path (its chunk), for links. */
export function prefetchPath(pathname: string): void {
  void preloadPage(matchPage(pathname).id);
}

export function AppRoutes() {
  return useRoutes(routeObjects);
}

function Root() {
  useScrollOnNavigation();
  // The radio's player sits above every page (the not-found page too), so navigating never silences it.
  return (
    <PrefetchPageContext value={prefetchPath}>
      <PlayerProvider>
        <Suspense>
          <Outlet />
        </Suspense>
        <PlayerBarSlot />
      </PlayerProvider>
    </PrefetchPageContext>
  );
}

/**
 * The router's view of the route table in pages.ts, shared by server and
 * client. Declarative react-router (useRoutes) keeps the client's router at
 * about 15 KB gzip; each page is its own lazily imported chunk. The server
 * matches the path with matchPage() (and so picks the status) and loads the
 * page module before it streams; the client loads it before it hydrates, so
 * neither first render ever suspends.
 */
import { Suspense, use, type ComponentType } from 'react';
import { matchRoutes, Outlet, useLocation, useRoutes, type RouteObject } from 'react-router-dom';
import { pageById, pages, type PageEntry, type PageId } from './pages.ts';
import { RouteHead } from './ui/chrome/RouteHead.tsx';
import { SiteLayout } from './ui/chrome/SiteLayout.tsx';
import { useScrollOnNavigation } from './ui/chrome/use-scroll-on-navigation.ts';

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

export const routeObjects: RouteObject[] = [
  {
    id: 'root',
    element: <Root />,
    children: [
      { id: 'site', element: <SiteLayout />, children: pages.filter((p) => p.chrome).map(pageRoute) },
      ...pages.filter((p) => !p.chrome).map(pageRoute),
    ],
  },
];

/** The page a path shows: the not-found page when nothing else matches. */
export function matchPage(pathname: string): PageEntry {
  const leaf = matchRoutes(routeObjects, pathname)?.at(-1)?.route.id as PageId | undefined;
  return pageById(leaf ?? 'notFound');
}

export function AppRoutes() {
  return useRoutes(routeObjects);
}

function Root() {
  const { pathname, hash } = useLocation();
  useScrollOnNavigation(pathname, hash);
  return (
    <Suspense>
      <Outlet />
    </Suspense>
  );
}

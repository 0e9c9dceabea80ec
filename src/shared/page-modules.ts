/**
 * The page modules: one lazily imported chunk per page of the route table (pages.ts). The server
 * loads a page's module before it renders, the client before it hydrates and before it shows the
 * page after a navigation (the links prefetch it), so no first render ever suspends. No router
 * here: a first load needs none (decision 043).
 */
import type { ComponentType } from 'react';
import type { PageId } from './pages.ts';

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
const failed = new Set<PageId>();

function load(id: PageId): Promise<ComponentType> {
  failed.delete(id);
  const promise = pageModules[id]().then(
    (component) => {
      loaded.set(id, component);
      return component;
    },
    (error: unknown) => {
      failed.add(id);
      throw error;
    },
  );
  loading.set(id, promise);
  return promise;
}

/**
 * Loads a page's module once; later renders of the page never suspend. A failed load (the network
 * dropped, a deploy removed the chunk) is not remembered: the next call fetches again.
 */
export function preloadPage(id: PageId): Promise<ComponentType> {
  const promise = loading.get(id);
  return promise && !failed.has(id) ? promise : load(id);
}

/**
 * The load a render waits for: the latest attempt, failed or not, so rendering the page region
 * again (an error boundary's retry) does not start a fetch per render; a new attempt is
 * preloadPage's, when the reader asks for the page again.
 */
export function pageLoad(id: PageId): Promise<ComponentType> {
  return loading.get(id) ?? load(id);
}

/** A page's component if its module has loaded, else undefined. */
export function loadedPage(id: PageId): ComponentType | undefined {
  return loaded.get(id);
}

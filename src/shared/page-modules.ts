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

/**
 * Loads a page's module once; later renders of the page never suspend. A failed load (the network
 * dropped, a deploy removed the chunk) is forgotten, so the next attempt fetches again.
 */
export function preloadPage(id: PageId): Promise<ComponentType> {
  let promise = loading.get(id);
  if (!promise) {
    promise = pageModules[id]().then(
      (component) => {
        loaded.set(id, component);
        return component;
      },
      (error: unknown) => {
        loading.delete(id);
        throw error;
      },
    );
    loading.set(id, promise);
  }
  return promise;
}

/** A page's component if its module has loaded, else undefined. */
export function loadedPage(id: PageId): ComponentType | undefined {
  return loaded.get(id);
}

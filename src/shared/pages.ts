/**
 * The route table: every page of the site, its path, and the words search
 * engines and link previews show. The server uses it to decide the status
 * before streaming, to write the sitemap and the head; the client uses it
 * through the router built in routes.tsx.
 */
export type PageId = 'home' | 'about' | 'contact' | 'careers' | 'privacy' | 'terms' | 'radio' | 'books' | 'notFound';

export interface PageEntry {
  id: PageId;
  /** react-router path; the not-found page is the splat. */
  path: string;
  /** The page module's file name in src/shared/ui/pages (the build maps it to its JS chunk). */
  module: string;
  title: string;
  description: string;
  /** Whether the shared header and footer frame the page. */
  chrome: boolean;
  /** Listed in sitemap.xml. */
  indexable: boolean;
}

export const pages: readonly PageEntry[] = [
  {
    id: 'home',
    path: '/',
    module: 'Home',
    title: 'Chicago news, politics, business, sports and culture',
    description:
      'Independent reporting on Chicago: local news, politics, business, sports, arts and culture, plus opinion and live radio.',
    chrome: true,
    indexable: true,
  },
  {
    id: 'about',
    path: '/about',
    module: 'About',
    title: 'About us',
    description: 'Who we are: an independent Chicago newsroom founded in 2025, our mission, our values and our team.',
    chrome: true,
    indexable: true,
  },
  {
    id: 'contact',
    path: '/contact',
    module: 'Contact',
    title: 'Contact us',
    description: 'Reach our newsroom: general inquiries, news tips and corrections, advertising and subscriptions.',
    chrome: true,
    indexable: true,
  },
  {
    id: 'careers',
    path: '/careers',
    module: 'Careers',
    title: 'Careers',
    description: 'Join our Chicago newsroom: open positions in editorial, business and digital, benefits and culture.',
    chrome: true,
    indexable: true,
  },
  {
    id: 'privacy',
    path: '/privacy',
    module: 'Privacy',
    title: 'Privacy Policy',
    description: 'How we collect, use, share and protect your information. Last updated April 17, 2025.',
    chrome: true,
    indexable: true,
  },
  {
    id: 'terms',
    path: '/terms',
    module: 'Terms',
    title: 'Terms of Service',
    description: 'The terms that govern your use of our website and services. Last updated April 17, 2025.',
    chrome: true,
    indexable: true,
  },
  {
    id: 'radio',
    path: '/radio',
    module: 'Radio',
    title: 'Live Radio',
    description: 'Listen to our station live, 24/7, right in your browser.',
    chrome: true,
    indexable: true,
  },
  {
    id: 'books',
    path: '/books',
    module: 'Books',
    title: 'Books',
    description:
      'Books on spiritual growth and wealth, with links to the retailer, and study at a spiritual university.',
    chrome: true,
    indexable: true,
  },
  {
    id: 'notFound',
    path: '*',
    module: 'NotFound',
    title: 'Page not found',
    description: 'The page you were looking for does not exist.',
    chrome: false,
    indexable: false,
  },
];

export function pageById(id: PageId): PageEntry {
  const page = pages.find((p) => p.id === id);
  if (!page) throw new Error(`unknown page ${id}`);
  return page;
}

const pagesByPath: ReadonlyMap<string, PageEntry> = new Map(
  pages.filter((p) => p.id !== 'notFound').map((p) => [p.path, p]),
);

/**
 * The page at exactly its canonical path (every in-site link names one), with no pattern matching;
 * undefined for any other path (react-router's matchPage() in routes.tsx decides those).
 */
export function pageAtPath(pathname: string): PageEntry | undefined {
  return pagesByPath.get(pathname);
}

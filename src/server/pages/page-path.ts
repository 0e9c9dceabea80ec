/**
 * Which page a path names, decided before anything renders. Each page has one canonical path
 * (its entry in pages.ts). The router also accepts variants of it (any case, trailing slashes,
 * percent-encoded letters: `/RADIO`, `/radio/`, `/ra%64io`); those are redirected to the
 * canonical path, so a page is only ever rendered, cached and indexed at one address.
 */
import { pageAtPath, pageById, type PageEntry } from '../../shared/pages.ts';
import { matchPage } from '../../shared/routes.tsx';
import { queryOf } from '../request-target.ts';

export type PathMatch =
  /** The canonical path of a page. */
  | { kind: 'page'; page: PageEntry }
  /** Another spelling of a page's path: answer 301 to `page.path`. */
  | { kind: 'variant'; page: PageEntry }
  /** No page: the not-found page, with status 404. */
  | { kind: 'notFound'; page: PageEntry };

/**
 * matchPage() behind a small memo (react-router compiles every route pattern on each call). A
 * path with a malformed percent-escape names no page: it is the not-found page, not a 400.
 */
export function createPathMatcher(): (pathname: string) => PathMatch {
  const memo = new Map<string, PathMatch>();
  const notFound: PathMatch = { kind: 'notFound', page: pageById('notFound') };
  return (pathname) => {
    let match = memo.get(pathname);
    if (match) return match;
    const exact = pageAtPath(pathname);
    if (exact) match = { kind: 'page', page: exact };
    else {
      const page = decodable(pathname) ? matchPage(pathname) : notFound.page;
      match = page.id === 'notFound' ? notFound : { kind: 'variant', page };
    }
    if (memo.size >= 512) memo.clear();
    memo.set(pathname, match);
    return match;
  };
}

function decodable(path: string): boolean {
  if (!path.includes('%')) return true;
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The query string of a request target, kept across a redirect. Node reads the target as latin1,
 * one character per byte: anything outside printable ASCII is percent-encoded byte by byte.
 */
export function keptQuery(url: string): string {
  const query = queryOf(url);
  if (query === null) return '';
  return `?${query}`.replace(/[^\x21-\x7e]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * react-router's view of the route table in pages.ts: which page a path shows, by react-router's
 * own matching (`matchRoutes`). The server decides a request's page and status with it before it
 * streams; in the browser only the router chunk (src/client/router.tsx) uses it, after a
 * navigation, so no first load carries react-router (decision 043).
 */
import { matchRoutes, type RouteObject } from 'react-router-dom';
import { pageById, pages, type PageEntry, type PageId } from './pages.ts';

/** One route per page, with the page's id; the not-found page is the splat, matched last. */
export const routeObjects: RouteObject[] = pages.map((p) => ({ id: p.id, path: p.path }));

/**
 * The page a path shows: the not-found page when nothing else matches. react-router matches
 * ignoring letter case and a trailing slash, on the decoded path.
 */
export function matchPage(pathname: string): PageEntry {
  const leaf = matchRoutes(routeObjects, pathname)?.at(-1)?.route.id as PageId | undefined;
  return pageById(leaf ?? 'notFound');
}

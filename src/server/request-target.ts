/**
 * A request target split into its path and its query: the one place the server does it. Origin
 * form (`/path?query`), as browsers and nginx send it, and absolute form (`http://host/path?query`,
 * which a server must accept: RFC 9112 §3.2.2) name the same path. Nothing is decoded: each part
 * is read as received.
 */

/** Where the path starts: after `scheme://authority` in absolute form, else at the start. */
function pathStart(target: string): number {
  if (target.charCodeAt(0) === 0x2f) return 0;
  const scheme = target.indexOf('://');
  if (scheme < 0) return 0;
  const slash = target.indexOf('/', scheme + 3);
  const query = target.indexOf('?', scheme + 3);
  if (slash < 0 || (query >= 0 && query < slash)) return -1;
  return slash;
}

/** The path of a request target (`/` for an absolute form with none: `http://host?q`). */
export function pathOf(target: string): string {
  const start = pathStart(target);
  const q = target.indexOf('?');
  if (start < 0) return '/';
  return q < 0 ? target.slice(start) : target.slice(start, q);
}

/** The query after the first `?`, as received; null when there is no `?`. */
export function queryOf(target: string): string | null {
  const q = target.indexOf('?');
  return q < 0 ? null : target.slice(q + 1);
}

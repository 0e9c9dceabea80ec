/** Request helpers shared by the HTTP tests, the browser-free checks of the built app and the benchmarks. */
import { untilValue } from './wait.ts';

/** A desktop Chrome user agent: the server streams pages to browsers and buffers them for crawlers. */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';

/** For a request that must not hang: only stops a hung test, far beyond any answer on a busy machine. */
export const HANG_LIMIT_MS = 60_000;

const etagHeader = (res: unknown) => (res as { headers: Record<string, unknown> }).headers.etag;

/**
 * Repeats a page request until the page cache answers it (the answer has an ETag): the first render
 * streams, and its compressed copy is stored just after. `etagOf` reads the ETag (default: headers.etag;
 * a raw-socket answer: `(res) => res.header('etag')`).
 */
export function untilCached<T>(send: () => PromiseLike<T>, etagOf: (res: T) => unknown = etagHeader): Promise<T> {
  return untilValue('the page to come from the page cache', async () => {
    const res = await send();
    return etagOf(res) ? res : undefined;
  });
}

/**
 * The markup inside <body>: the page's content, without the head, whose inlined CSS (decision 044)
 * names every class and would match any search for one.
 */
export function bodyOf(html: string): string {
  const start = html.indexOf('<body');
  const end = html.lastIndexOf('</body>');
  if (start < 0 || end < start) throw new Error('the HTML has no <body>…</body>');
  return html.slice(start, end);
}

/**
 * The fixed files (robots.txt, sitemap.xml, the icons, the web manifest, the service worker, ...)
 * have one spelling each, as pages do (pages/page-path.ts): another spelling of one (`/ROBOTS.TXT`,
 * `/robots.txt/`, `/robots%2Etxt`, `//favicon.ico`) is redirected to it, so a cache in front keeps
 * one entry per file and nobody fills it with spellings. Hashed files under /assets/ are not here:
 * a wrong name there is a fast 404 (assets.ts).
 */
import type { RequestHandler } from 'express';
import { keptQuery } from './pages/page-path.ts';

/** The spelling a path would have as a fixed file's: escapes decoded, slashes collapsed, lower case. */
function folded(pathname: string): string | undefined {
  let decoded = pathname;
  if (pathname.includes('%')) {
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return undefined;
    }
  }
  return decoded
    .replace(/\/{2,}/g, '/')
    .replace(/(.)\/+$/, '$1')
    .toLowerCase();
}

/** The fixed file a path is another spelling of, or undefined (the path itself, or no such file). */
export function fixedFileVariants(paths: Iterable<string>): (pathname: string) => string | undefined {
  const byFolded = new Map<string, string>();
  for (const path of paths) if (!byFolded.has(path.toLowerCase())) byFolded.set(path.toLowerCase(), path);
  return (pathname) => {
    const key = folded(pathname);
    const file = key === undefined ? undefined : byFolded.get(key);
    return file !== pathname ? file : undefined;
  };
}

/** GET/HEAD of another spelling of a fixed file: 301 to the file, query kept, as for a page's variant. */
export function fixedFileRedirects(paths: Iterable<string>): RequestHandler {
  const variantOf = fixedFileVariants(paths);
  return (req, res, next) => {
    const file = req.method === 'GET' || req.method === 'HEAD' ? variantOf(req.path) : undefined;
    if (file === undefined) return next();
    // Browsers may keep it; shared caches must not (anyone can invent spellings).
    res
      .status(301)
      .set({ Location: file + keptQuery(req.url), 'Cache-Control': 'private, max-age=3600' })
      .type('text/plain')
      .send('Moved Permanently');
  };
}

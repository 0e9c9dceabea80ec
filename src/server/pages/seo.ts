import { Router } from 'express';
import { pages } from '../../shared/pages.ts';
import type { SiteConfig } from '../../shared/site.ts';

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/** The two files seoRoutes answers, each at this one spelling (fixed-files.ts redirects the others). */
export const SEO_PATHS = ['/robots.txt', '/sitemap.xml'] as const;

/** robots.txt and sitemap.xml, written from the route table so they list every page. */
export function seoRoutes(site: SiteConfig): Router {
  // Express matches any case and a trailing slash by default: each file has one spelling.
  const router = Router({ caseSensitive: true, strict: true });
  const robots = `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${site.url}/sitemap.xml\n`;
  const sitemap =
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    pages
      .filter((p) => p.indexable)
      .map(
        (p) =>
          `  <url><loc>${escapeXml(site.url + p.path)}</loc><changefreq>${p.id === 'home' ? 'hourly' : 'monthly'}</changefreq></url>\n`,
      )
      .join('') +
    '</urlset>\n';
  router.get('/robots.txt', (_req, res) => {
    res.type('text/plain').set('Cache-Control', 'public, max-age=3600').send(robots);
  });
  router.get('/sitemap.xml', (_req, res) => {
    res.type('application/xml').set('Cache-Control', 'public, max-age=3600').send(sitemap);
  });
  return router;
}

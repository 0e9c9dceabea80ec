import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pages } from '../src/shared/pages.ts';
import { defaultSite } from '../src/shared/site.ts';
import { navSections } from '../src/shared/sections-nav.ts';
import { captureLogger, linesWrittenBy, testApp } from './support/test-app.ts';
import { BROWSER_UA, bodyOf, untilCached } from './support/http.ts';

// 05:30 UTC on New Year's Day is still New Year's Eve in Chicago: the header must say so.
const now = () => new Date('2026-01-01T05:30:00Z');
const knownPages = pages.filter((p) => p.id !== 'notFound');

describe('every route of the spec', () => {
  const app = testApp({}, { now });

  it.each(knownPages.map((p) => [p.path, p] as const))(
    '%s answers 200 with its server-rendered page',
    async (path, page) => {
      const res = await request(app).get(path).set('User-Agent', BROWSER_UA);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const html = res.text;
      expect(html.startsWith('<!DOCTYPE html><html lang="en"')).toBe(true);
      expect(html).toMatch(new RegExp(`<title>[^<]*${page.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^<]*</title>`));
      expect(html).toContain(`<meta name="description" content="${page.description}"/>`);
      // Shared chrome: header with Chicago's date, masthead, tagline, nine anchors, menu button; footer.
      expect(html).toContain('<time dateTime="2025-12-31">Wednesday, December 31, 2025</time>');
      expect(html).toContain(defaultSite.masthead);
      expect(html).toContain(defaultSite.tagline);
      // The nine section anchors: in-page on the front page, the front page's sections elsewhere.
      const base = path === '/' ? '' : '/';
      for (const s of navSections)
        expect(html).toMatch(new RegExp(`<a href="${base}#${s.anchor}"[^>]*>${s.label}</a>`));
      expect(html).toMatch(/<button[^>]*aria-expanded="false" aria-controls="mobile-nav"/);
      expect(html).toContain('>Subscribe</button>');
      expect(html).toContain('>Sign In</button>');
      expect(html).toContain('href="/privacy"');
      expect(html).toContain('href="/terms"');
      expect(html).toContain('Subscribe Now');
      expect(html).toContain('© 2025');
      for (const s of defaultSite.sisterSites) expect(html).toContain(`href="${s.url}"`);
      expect(html.trimEnd().endsWith('</html>')).toBe(true);
    },
  );
});

describe('unknown paths', () => {
  const unknown = [
    '/nope',
    '/about/extra',
    '/%E2%9C%93-missing',
    '/..%2f..%2fetc%2fpasswd',
    '/assets-like/../../etc/passwd',
    '/radio/live/now',
  ];

  it.each(unknown)('%s is a real 404 with the not-found page and one log line saying so', async (path) => {
    const log = captureLogger();
    const app = testApp({}, { logger: log.logger, now });
    const res = await request(app).get(path).set('User-Agent', BROWSER_UA);
    expect(res.status).toBe(404);
    expect(res.text).toContain('>404<');
    expect(res.text).toContain('Oops! Page not found');
    expect(res.text).toMatch(/<a[^>]*href="\/"[^>]*>Return to Home<\/a>/);
    expect(bodyOf(res.text)).not.toContain('site-header');
    expect(res.text).toContain('<meta name="robots" content="noindex"/>');
    // One line per request: the request line itself says the page was not found (counted once a
    // later request's line is in: lines are written as responses close).
    await linesWrittenBy(
      log,
      async () => undefined,
      (url) => request(app).get(url),
    );
    const logged = log.lines().filter((l) => (l.req as { url?: string } | undefined)?.url === path);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 40, msg: 'request completed', notFound: true, res: { statusCode: 404 } });
  });

  it('keeps the 404 status when served from the page cache', async () => {
    const app = testApp({}, { now });
    await request(app).get('/first-miss').set('User-Agent', BROWSER_UA);
    const res = await untilCached(() => request(app).get('/second-miss').set('User-Agent', BROWSER_UA));
    expect(res.status).toBe(404);
    expect(res.headers.etag).toBeTruthy();
  });
});

describe('HEAD, crawlers, validators and methods', () => {
  const app = testApp({}, { now });

  it('HEAD answers headers only', async () => {
    const res = await request(app).head('/about');
    expect(res.status).toBe(200);
    expect(res.text ?? '').toBe('');
    expect(Number(res.headers['content-length'])).toBeGreaterThan(1000);
  });

  it('crawlers get the complete document with a length', async () => {
    const res = await request(app).get('/careers').set('User-Agent', 'Googlebot/2.1 (+http://www.google.com/bot.html)');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBeDefined();
    expect(res.text.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('answers 304 to a matching If-None-Match and 200 to a stale one', async () => {
    const first = await request(app).get('/terms').set('User-Agent', BROWSER_UA);
    // The first render streams; its compressed copy is cached a moment later.
    const second = await untilCached(() => request(app).get('/terms').set('User-Agent', BROWSER_UA));
    const etag = second.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.text).toBe(second.text);
    const revalidated = await request(app).get('/terms').set('If-None-Match', etag);
    expect(revalidated.status).toBe(304);
    const stale = await request(app).get('/terms').set('If-None-Match', 'W/"something-else"');
    expect(stale.status).toBe(200);
  });

  it('refuses other methods on pages with 405 and Allow', async () => {
    const res = await request(app).post('/').send('x=1');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

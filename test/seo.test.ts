/**
 * SEO and sharing (issue 5): robots.txt and sitemap.xml list every route, each
 * page has its canonical URL, Open Graph and Twitter card, the JSON-LD
 * describes the publication from configuration, and the favicon, icons, web
 * manifest and share image are served and true to their declared sizes. In
 * Chromium: the JSON-LD block survives hydration unchanged and the CSP reports
 * nothing.
 */
import type { Page } from 'playwright-core';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { pages } from '../src/shared/pages.ts';
import { defaultSite } from '../src/shared/site.ts';
import { useAppAndBrowser } from './support/app-and-browser.ts';
import { blockThirdParties, collectConsoleProblems, ownProblems } from './support/browser.ts';
import { testApp } from './support/test-app.ts';

// The routes of SPEC §2, written out here so a page dropped from the route table fails the test.
const SPEC_ROUTES = ['/', '/about', '/contact', '/careers', '/privacy', '/terms', '/radio', '/books'];

const SITE_URL = 'https://news.example.org';
const ENV = {
  SITE_URL,
  SITE_MASTHEAD: 'The Test Lakefront Gazette',
  SITE_NETWORK_NAME: 'Test Press Network',
  SITE_SISTER_SITES: 'Gary Gazette|https://gary.example.org, Joliet Gazette|https://joliet.example.org/news',
};

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

const attributes = (source: string): Record<string, string> =>
  Object.fromEntries([...source.matchAll(/([\w:-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), decode(m[2]!)]));

/** The <meta>, <link> and <script> tags of a page's <head>, with their attributes. */
function headTags(html: string) {
  const head = html.slice(0, html.indexOf('</head>'));
  const tags = [...head.matchAll(/<(meta|link)\b([^>]*)>/g)].map((m) => ({ name: m[1]!, attr: attributes(m[2]!) }));
  const meta = (key: string) =>
    tags
      .filter((t) => t.name === 'meta' && (t.attr.property === key || t.attr.name === key))
      .map((t) => t.attr.content);
  const links = (rel: string) => tags.filter((t) => t.name === 'link' && t.attr.rel === rel).map((t) => t.attr);
  return { meta, links };
}

function jsonLdBlocks(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
}

/** Width and height from a PNG's IHDR chunk (after checking the signature). */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

const binary = (res: request.Response, callback: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
};

/** robots.txt rules for `*`: the longest matching Allow/Disallow prefix wins, Allow on a tie. */
function robotsAllows(robots: string, path: string): boolean {
  const rules = robots
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .map((l) => /^(allow|disallow):\s*(.*)$/i.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ allow: m[1]!.toLowerCase() === 'allow', prefix: m[2]! }))
    .filter((r) => r.prefix !== '' && path.startsWith(r.prefix))
    .sort((a, b) => b.prefix.length - a.prefix.length || Number(b.allow) - Number(a.allow));
  return rules[0]?.allow ?? true;
}

describe('robots.txt', () => {
  const app = testApp(ENV);

  it('is valid, lets crawlers reach every page, keeps them off the API and names the sitemap', async () => {
    const res = await request(app).get('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const lines = res.text
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    // Every line is a directive crawlers know (what Lighthouse's robots-txt audit checks).
    for (const line of lines) expect(line).toMatch(/^(user-agent|allow|disallow|sitemap|crawl-delay):\s*\S*/i);
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toContain(`Sitemap: ${SITE_URL}/sitemap.xml`);
    for (const path of SPEC_ROUTES) expect(robotsAllows(res.text, path), path).toBe(true);
    expect(robotsAllows(res.text, '/api/stream')).toBe(false);
  });
});

describe('sitemap.xml', () => {
  it('lists every route of the spec once, with absolute URLs on SITE_URL, and nothing else', async () => {
    const app = testApp(ENV);
    const res = await request(app).get('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/xml/);
    expect(res.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
    expect(res.text).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    const locs = [
      ...res.text.matchAll(
        /<url><loc>([^<]+)<\/loc>(?:<changefreq>(?:always|hourly|daily|weekly|monthly|yearly|never)<\/changefreq>)?<\/url>/g,
      ),
    ].map((m) => m[1]);
    expect(res.text.match(/<url>/g)?.length).toBe(locs.length);
    expect(locs.sort()).toEqual(SPEC_ROUTES.map((p) => SITE_URL + p).sort());
    // Every listed URL is a real page.
    for (const loc of locs) expect((await request(app).get(new URL(loc!).pathname)).status, loc).toBe(200);
  });

  it('escapes its URLs as XML', async () => {
    const res = await request(testApp({ SITE_URL: 'https://example.org/a&b' })).get('/sitemap.xml');
    expect(res.text).toContain('<loc>https://example.org/a&amp;b/about</loc>');
    expect(res.text).not.toMatch(/&(?!amp;)/);
  });
});

describe("every page's head", () => {
  const app = testApp(ENV);
  const withTitles = pages.filter((p) => p.id !== 'notFound');

  it.each(withTitles.map((p) => [p.path, p] as const))(
    '%s has one canonical URL, Open Graph and Twitter card meta',
    async (path, page) => {
      const res = await request(app).get(path);
      expect(res.status).toBe(200);
      const { meta, links } = headTags(res.text);
      const canonical = `${SITE_URL}${path}`;
      expect(links('canonical').map((l) => l.href)).toEqual([canonical]);
      expect(meta('robots')).toEqual([]);
      expect(meta('description')).toEqual([page.description]);
      expect(meta('og:url')).toEqual([canonical]);
      expect(meta('og:site_name')).toEqual([ENV.SITE_MASTHEAD]);
      expect(meta('og:type')).toEqual([path === '/' ? 'website' : 'article']);
      expect(meta('og:title')).toEqual([page.title]);
      expect(meta('og:description')).toEqual([page.description]);
      expect(meta('og:image')).toEqual([`${SITE_URL}/og-image.png`]);
      expect(meta('og:image:width')).toEqual(['1200']);
      expect(meta('og:image:height')).toEqual(['630']);
      expect(meta('og:image:alt')).toEqual([ENV.SITE_MASTHEAD]);
      expect(meta('twitter:card')).toEqual(['summary_large_image']);
      expect(meta('twitter:title')).toEqual([page.title]);
      expect(meta('twitter:description')).toEqual([page.description]);
      // Icons and manifest, linked from every page.
      expect(
        links('icon')
          .map((l) => l.href)
          .sort(),
      ).toEqual(['/favicon.ico', '/favicon.svg']);
      expect(links('apple-touch-icon').map((l) => l.href)).toEqual(['/apple-touch-icon.png']);
      expect(links('manifest').map((l) => l.href)).toEqual(['/manifest.webmanifest']);
      expect(meta('theme-color')).toEqual(['#ffffff']);
    },
  );

  it('the not-found page is not indexed and claims no canonical URL', async () => {
    const res = await request(app).get('/no/such/page');
    expect(res.status).toBe(404);
    const { meta, links } = headTags(res.text);
    expect(meta('robots')).toEqual(['noindex']);
    expect(links('canonical')).toEqual([]);
    expect(meta('og:url')).toEqual([]);
  });

  it.each([...SPEC_ROUTES, '/no/such/page'])(
    '%s describes the publication in one JSON-LD block, from configuration',
    async (path) => {
      const res = await request(app).get(path);
      const blocks = jsonLdBlocks(res.text);
      expect(blocks).toHaveLength(1);
      expect(blocks[0]).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'NewsMediaOrganization',
        name: ENV.SITE_MASTHEAD,
        url: `${SITE_URL}/`,
        logo: { '@type': 'ImageObject', url: `${SITE_URL}/icon-512.png`, width: 512, height: 512 },
        parentOrganization: {
          '@type': 'Organization',
          name: ENV.SITE_NETWORK_NAME,
          subOrganization: [
            { '@type': 'NewsMediaOrganization', name: 'Gary Gazette', url: 'https://gary.example.org' },
            { '@type': 'NewsMediaOrganization', name: 'Joliet Gazette', url: 'https://joliet.example.org/news' },
          ],
        },
      });
      // No executable inline script: every script without src is a data block (the CSP allows no inline script).
      for (const m of res.text.matchAll(/<script\b([^>]*)>/g)) {
        const attr = attributes(m[1]!);
        if (!attr.src) expect(['application/json', 'application/ld+json']).toContain(attr.type);
      }
    },
  );

  it('keeps configured text from breaking out of the JSON-LD block', async () => {
    const res = await request(testApp({ SITE_MASTHEAD: 'Evil </script><script>alert(1)</script> & Co' })).get('/');
    const blocks = jsonLdBlocks(res.text);
    expect(blocks).toHaveLength(1);
    expect((blocks[0] as { name: string }).name).toBe('Evil </script><script>alert(1)</script> & Co');
    expect(res.text).not.toContain('<script>alert(1)');
  });
});

describe('icons, web manifest and share image', () => {
  const app = testApp(ENV);
  const get = (path: string) => request(app).get(path).buffer(true).parse(binary);

  it.each([
    ['/icon-192.png', 192, 192],
    ['/icon-512.png', 512, 512],
    ['/icon-maskable-512.png', 512, 512],
    ['/apple-touch-icon.png', 180, 180],
    ['/og-image.png', 1200, 630],
  ] as const)('%s is a %ix%i PNG', async (path, width, height) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(pngSize(res.body as Buffer)).toEqual({ width, height });
  });

  it('/favicon.ico holds a 32 px PNG icon and /favicon.svg is an SVG', async () => {
    const ico = await get('/favicon.ico');
    expect(ico.status).toBe(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
    const bytes = ico.body as Buffer;
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([0, 1, 1]);
    expect([bytes.readUInt8(6), bytes.readUInt8(7)]).toEqual([32, 32]);
    const offset = bytes.readUInt32LE(18);
    expect(bytes.readUInt32LE(14)).toBe(bytes.length - offset);
    expect(pngSize(bytes.subarray(offset))).toEqual({ width: 32, height: 32 });
    const svg = await request(app).get('/favicon.svg');
    expect(svg.status).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
  });

  it('the web manifest is complete, and every icon it lists is served at its declared size', async () => {
    const res = await request(app).get('/manifest.webmanifest');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    const manifest = JSON.parse(res.text) as Record<string, unknown> & {
      icons: { src: string; sizes: string; type: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ name: defaultSite.masthead, start_url: '/', scope: '/', id: '/' });
    expect(typeof manifest.short_name).toBe('string');
    expect((manifest.short_name as string).length).toBeLessThanOrEqual(12);
    expect(typeof manifest.description).toBe('string');
    expect(['fullscreen', 'standalone', 'minimal-ui', 'browser']).toContain(manifest.display);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    const png = manifest.icons.filter((i) => i.type === 'image/png');
    expect(
      png
        .filter((i) => (i.purpose ?? 'any').split(' ').includes('any'))
        .map((i) => i.sizes)
        .sort(),
    ).toEqual(['192x192', '512x512']);
    expect(png.some((i) => i.purpose?.split(' ').includes('maskable'))).toBe(true);
    for (const icon of png) {
      const file = await get(icon.src);
      expect(file.status, icon.src).toBe(200);
      const { width, height } = pngSize(file.body as Buffer);
      expect(`${width}x${height}`, icon.src).toBe(icon.sizes);
    }
  });
});

describe('in Chromium', () => {
  const site = useAppAndBrowser();

  /** Opens a page that records every CSP violation it meets in window.__cspViolations. */
  async function open(path: string): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
    const context = await site.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await blockThirdParties(page, site.app.url);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    const problems = collectConsoleProblems(page);
    await page.goto(`${site.app.url}${path}`, { waitUntil: 'load' });
    return { page, problems, close: () => context.close() };
  }

  const violations = (page: Page) =>
    page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);

  it.each(['/', '/radio', '/books'])(
    '%s: the JSON-LD block survives hydration unchanged, with no CSP report',
    async (path) => {
      const server = await (await fetch(`${site.app.url}${path}`)).text();
      const { page, problems, close } = await open(path);
      // Hydrated once the theme toggle works; theme-color follows the page's theme.
      const toggle = page.getByTestId('theme-toggle');
      const themeColor = page.locator('meta[name="theme-color"]');
      await expect
        .poll(async () => {
          await toggle.click();
          return page.locator('html').getAttribute('class');
        })
        .toBe('dark');
      expect(await themeColor.getAttribute('content')).toBe('#121212');
      await toggle.click();
      expect(await themeColor.getAttribute('content')).toBe('#ffffff');

      const live = await page.evaluate(() =>
        [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) =>
          JSON.parse(s.textContent ?? 'null'),
        ),
      );
      expect(live).toEqual(jsonLdBlocks(server));
      expect(live).toHaveLength(1);
      expect(await violations(page)).toEqual([]);
      // Third parties are blocked on purpose; any other console error (CSP, hydration) is a failure.
      expect(ownProblems(problems)).toEqual([]);
      await close();
    },
  );

  it('sitemap.xml is well-formed XML in the sitemap namespace', async () => {
    const xml = await (await fetch(`${site.app.url}/sitemap.xml`)).text();
    const { page, close } = await open('/');
    const parsed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, 'application/xml');
      const ns = 'http://www.sitemaps.org/schemas/sitemap/0.9';
      return {
        errors: doc.getElementsByTagName('parsererror').length,
        root: `${doc.documentElement.namespaceURI} ${doc.documentElement.localName}`,
        locs: [...doc.getElementsByTagNameNS(ns, 'url')].map(
          (u) => u.getElementsByTagNameNS(ns, 'loc')[0]?.textContent ?? '',
        ),
      };
    }, xml);
    expect(parsed.errors).toBe(0);
    expect(parsed.root).toBe('http://www.sitemaps.org/schemas/sitemap/0.9 urlset');
    expect(parsed.locs.map((l) => new URL(l).pathname).sort()).toEqual([...SPEC_ROUTES].sort());
    await close();
  });

  it('the violation check works: an injected inline script is refused and reported', async () => {
    const { page, close } = await open('/');
    const ran = await page.evaluate(() => {
      const w = window as unknown as { __inlineRan?: boolean };
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true;';
      // An inline script runs during append, if at all: nothing to wait for.
      document.head.append(script);
      return w.__inlineRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations(page)).toEqual([expect.stringMatching(/^script-src-elem inline/)]);
    await close();
  });
});

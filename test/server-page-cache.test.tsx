/**
 * The page cache's fast lane, one render per page and day, odd paths and content coding.
 */
import { readFileSync } from 'node:fs';
import { use, type ReactNode } from 'react';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../src/server/manifest.ts';
import { securityHeaders } from '../src/server/security.ts';
import { matchPage } from '../src/shared/routes.tsx';
import { defaultSite } from '../src/shared/site.ts';
import { captureLogger, testApp } from './support/test-app.ts';
import { BROWSER_UA, HANG_LIMIT_MS, untilCached } from './support/http.ts';

const CHROME_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
const manifest = JSON.parse(readFileSync('dist/manifest.json', 'utf8')) as Manifest;

/** Requests a page until the cache answers it. */
const cachedPage = (app: ReturnType<typeof testApp>, path: string, headers: Record<string, string> = {}) =>
  untilCached(() => request(app).get(path).set('User-Agent', BROWSER_UA).set(headers));

/** A test page with its route's <title>: only a document that is its page is cached. */
function Titled({ location, children }: { location: string; children: ReactNode }) {
  return (
    <>
      <title>{matchPage(location).title}</title>
      {children}
    </>
  );
}

/** Headers that describe the particular body rather than the page. */
const BODY_HEADERS = new Set([
  'date',
  'etag',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);
const pageHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([k]) => !BODY_HEADERS.has(k))
      .sort(([a], [b]) => a.localeCompare(b)),
  );

describe('cached pages (fast lane)', () => {
  it('answers with the same headers as the full middleware chain, plus validators', async () => {
    const app = testApp();
    const first = await request(app).get('/about').set('User-Agent', BROWSER_UA).set('Accept-Encoding', 'gzip');
    expect(first.headers.etag).toBeUndefined(); // streamed by the full chain
    const cached = await cachedPage(app, '/about', { 'Accept-Encoding': 'gzip' });
    expect(pageHeaders(cached.headers)).toEqual(pageHeaders(first.headers));
    expect(cached.headers['content-security-policy']).toContain("default-src 'self'");
    expect(cached.headers['content-length']).toBeDefined();
    expect(cached.text).toBe(first.text);
  });

  it('logs each cached answer like the request logger, with the client address', async () => {
    const { logger, lines } = captureLogger();
    const app = testApp({ TRUST_PROXY: 'loopback' }, { logger });
    await cachedPage(app, '/careers');
    const before = lines().length;
    const res = await request(app)
      .get('/careers?utm=x')
      .set('User-Agent', 'test-agent/1')
      .set('X-Forwarded-For', '198.51.100.23');
    expect(res.headers.etag).toBeDefined();
    const line = lines()
      .slice(before)
      .find((l) => l.msg === 'request completed');
    expect(line).toMatchObject({
      level: 30,
      clientIp: '198.51.100.23',
      req: { method: 'GET', url: '/careers?utm=x', userAgent: 'test-agent/1' },
      res: { statusCode: 200 },
    });
    expect(typeof line?.responseTime).toBe('number');
  });

  it('answers HEAD and If-None-Match from memory', async () => {
    const app = testApp();
    const cached = await cachedPage(app, '/privacy');
    const head = await request(app).head('/privacy');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(cached.headers.etag);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    const revalidated = await request(app)
      .get('/privacy')
      .set('If-None-Match', cached.headers.etag as string);
    expect(revalidated.status).toBe(304);
    expect(revalidated.text ?? '').toBe('');
  });

  it('does not touch other methods or unknown paths', async () => {
    const app = testApp();
    await cachedPage(app, '/terms');
    const post = await request(app).post('/terms').send('x=1');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const missing = await request(app).get('/terms/nope').set('User-Agent', BROWSER_UA);
    expect(missing.status).toBe(404);
  });
});

describe('the security headers both lanes send', () => {
  it('are one list from security.ts, with HSTS only for an https site', () => {
    const https = new Map(securityHeaders({ ...defaultSite, url: 'https://news.example.com' }));
    expect(https.get('Content-Security-Policy')).toContain("script-src 'self'");
    expect(https.get('Content-Security-Policy')).toContain('upgrade-insecure-requests');
    expect(https.get('Strict-Transport-Security')).toBe('max-age=15552000; includeSubDomains');
    const http = new Map(securityHeaders({ ...defaultSite, url: 'http://news.example.com' }));
    expect(http.has('Strict-Transport-Security')).toBe(false);
    expect(http.get('Content-Security-Policy')).not.toContain('upgrade-insecure-requests');
  });
});

describe('one render per page and day', () => {
  it('concurrent first requests wait for a single render and all get the page', async () => {
    let renders = 0;
    function Counted() {
      renders++;
      return <main>counted page</main>;
    }
    const app = testApp(
      {},
      {
        appTree: (location) => (
          <Titled location={location}>
            <Counted />
          </Titled>
        ),
      },
    );
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        request(app)
          .get('/books')
          .set('User-Agent', i % 3 === 0 ? 'Googlebot/2.1' : BROWSER_UA),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(200));
    for (const res of responses) expect(res.text).toContain('counted page');
    expect(renders).toBe(1);
  });

  it('when that render fails, the waiting requests render for themselves instead of hanging', async () => {
    let calls = 0;
    function FailsFirst() {
      calls++;
      if (calls === 1) throw new Error('first render fails');
      return <main>second try</main>;
    }
    const app = testApp(
      {},
      {
        appTree: (location) => (
          <Titled location={location}>
            <FailsFirst />
          </Titled>
        ),
      },
    );
    const responses = await Promise.all(
      Array.from({ length: 4 }, () => request(app).get('/radio').set('User-Agent', BROWSER_UA).timeout(HANG_LIMIT_MS)),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 500)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
  });

  it('a render begun before midnight (Chicago) does not evict the new day’s pages', async () => {
    let clock = new Date('2026-01-15T05:59:59.500Z'); // 23:59:59 in Chicago (CST), January 14
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const rendersOf = new Map<string, number>();
    function Page({ location }: { location: string }) {
      rendersOf.set(location, (rendersOf.get(location) ?? 0) + 1);
      if (location === '/') use(gate);
      return <main>{location}</main>;
    }
    const app = testApp(
      {},
      {
        appTree: (location) => (
          <Titled location={location}>
            <Page location={location} />
          </Titled>
        ),
        now: () => clock,
      },
    );
    // A crawler's render of the home page begins before midnight and waits on the gate across it.
    // (then() sends the request now: supertest sends only when awaited.)
    const slowHome = request(app)
      .get('/')
      .set('User-Agent', 'Googlebot/2.1')
      .then((res) => res);
    await expect.poll(() => rendersOf.get('/')).toBe(1);
    clock = new Date('2026-01-15T06:00:01Z'); // the next day in Chicago
    await cachedPage(app, '/contact');
    release();
    expect((await slowHome).status).toBe(200);
    const again = await request(app).get('/contact').set('User-Agent', BROWSER_UA);
    expect(again.headers.etag).toBeDefined();
    expect(rendersOf.get('/contact')).toBe(1);
  });

  it.each([
    ['a crawler (the whole document at once)', 'Googlebot/2.1'],
    ['a browser (a stream)', BROWSER_UA],
  ])(
    'a render begun one second before midnight (Chicago) and sent after it is kept no longer than that midnight: %s',
    async (_who, ua) => {
      let clock = new Date('2026-01-15T05:59:59.000Z'); // 23:59:59 in Chicago (CST), January 14
      let release: () => void = () => {};
      const gate = new Promise<void>((r) => (release = r));
      let started = false;
      function Page({ location }: { location: string }) {
        started = true;
        use(gate);
        return <main>{location}</main>;
      }
      const app = testApp(
        {},
        {
          appTree: (location) => (
            <Titled location={location}>
              <Page location={location} />
            </Titled>
          ),
          now: () => clock,
        },
      );
      const late = request(app)
        .get('/about')
        .set('User-Agent', ua)
        .then((res) => res);
      await expect.poll(() => started).toBe(true);
      clock = new Date('2026-01-15T06:00:01Z'); // 00:00:01, January 15: a new day's page could be kept 60 s
      release();
      const res = await late;
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe(
        'public, max-age=0, s-maxage=0, stale-while-revalidate=0, stale-if-error=86400',
      );
    },
  );

  it('with PAGE_CACHE=off renders every request and sends no validator', async () => {
    let renders = 0;
    function Counted() {
      renders++;
      return <main>fresh</main>;
    }
    const app = testApp({ PAGE_CACHE: 'off' }, { appTree: () => <Counted /> });
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/about').set('User-Agent', BROWSER_UA).set('Accept-Encoding', 'gzip');
      expect(res.status).toBe(200);
      expect(res.headers.etag).toBeUndefined();
      expect(res.headers['content-encoding']).toBe('gzip');
    }
    expect(renders).toBe(3);
  });
});

describe('odd paths', () => {
  const app = testApp();
  const malformed = ['/%', '/%zz', '/about%', '/about/%FF', '/%E0%A4%A', '/%C0%AE%C0%AE/', '/api/%FF', '/books?x=%FF'];

  it.each(malformed)('%s is answered without a 5xx: a 404 page for an unknown path, never a 400', async (path) => {
    const res = await request(app).get(path).set('User-Agent', BROWSER_UA);
    if (path.startsWith('/books?')) {
      expect(res.status).toBe(200);
    } else {
      expect(res.status).toBe(404);
      expect(res.text).toContain('Oops! Page not found');
    }
  });

  it('other methods on / and on malformed paths get 405, not an automatic answer', async () => {
    for (const [method, path] of [
      ['options', '/'],
      ['post', '/'],
      ['delete', '/%FF'],
    ] as const) {
      const res = await request(app)[method](path);
      expect(res.status, `${method} ${path}`).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
  });
});

describe('content coding', () => {
  const cases: Array<[string, string | undefined]> = [
    [CHROME_ACCEPT_ENCODING, 'br'],
    ['gzip, br', 'br'],
    ['gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['identity', undefined],
    ['gzip;q=0.5, identity', undefined],
  ];

  it.each(cases)('Accept-Encoding "%s" gets %s for cached pages and assets', async (accept, expected) => {
    const app = testApp();
    await cachedPage(app, '/');
    const page = await request(app).get('/').set('User-Agent', BROWSER_UA).set('Accept-Encoding', accept);
    expect(page.headers['content-encoding']).toBe(expected);
    const asset = await request(app).get(manifest.entry.js).set('Accept-Encoding', accept);
    expect(asset.headers['content-encoding']).toBe(expected);
    expect(page.headers.vary).toMatch(/Accept-Encoding/);
  });
});

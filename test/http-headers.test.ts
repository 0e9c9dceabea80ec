import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../src/server/manifest.ts';
import { captureLogger, testApp } from './support/test-app.ts';
import { BROWSER_UA, untilCached } from './support/http.ts';

const manifest = JSON.parse(readFileSync('dist/manifest.json', 'utf8')) as Manifest;

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe('security headers', () => {
  it('sends a CSP allowing exactly the configured third parties and no inline script', async () => {
    const app = testApp({
      AD_SCRIPT_URL: 'https://ads.network-one.example/tag.js',
      IMAGEBOARD_URL: 'https://board.example.org/feed',
      CONTACT_FORM_URL: 'https://forms.example.net/embed/contact',
      CONTACT_FORM_SCRIPT_URL: 'https://static.forms.example.net/embed.js',
      BOOK_COVER_ORIGIN: 'https://images.covers.example',
    });
    const res = await request(app).get('/').set('User-Agent', BROWSER_UA);
    const csp = directives(res.headers['content-security-policy'] as string);
    expect(csp.get('script-src')?.sort()).toEqual(
      ["'self'", 'https://ads.network-one.example', 'https://static.forms.example.net'].sort(),
    );
    expect(csp.get('frame-src')?.sort()).toEqual(['https://board.example.org', 'https://forms.example.net'].sort());
    expect(csp.get('img-src')).toContain('https://images.covers.example');
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(res.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('renders pages without any inline executable script', async () => {
    const app = testApp();
    for (const path of ['/', '/radio', '/books', '/nope']) {
      const res = await request(app).get(path).set('User-Agent', BROWSER_UA);
      const scripts = [...res.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attrs = '', body = ''] of scripts) {
        const dataBlock = /type="application\/(json|ld\+json)"/.test(attrs);
        const external = /\bsrc="/.test(attrs) && body.trim() === '';
        expect(dataBlock || external, `inline script on ${path}: <script${attrs}>`).toBe(true);
      }
    }
  });

  it('hides X-Powered-By and sets the usual hardening headers', async () => {
    const res = await request(testApp()).get('/about').set('User-Agent', BROWSER_UA);
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cache-control']).toMatch(
      /^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+, stale-if-error=86400$/,
    );
  });

  it('keeps the not-found page out of shared caches, first render and cached alike', async () => {
    const app = testApp();
    for (let i = 0; i < 3; i++) {
      const res = await request(app).get('/no-such-page').set('User-Agent', BROWSER_UA);
      expect(res.status).toBe(404);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('GET /healthz says ok and is not cached', async () => {
    const res = await request(testApp()).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('compression of pages', () => {
  it('gzips a streamed first render and serves cached pages pre-compressed with brotli', async () => {
    const app = testApp();
    const first = await request(app).get('/privacy').set('User-Agent', BROWSER_UA).set('Accept-Encoding', 'gzip');
    expect(first.headers['content-encoding']).toBe('gzip');
    expect(first.text).toContain('</html>');
    const cached = await untilCached(() =>
      request(app).get('/privacy').set('User-Agent', BROWSER_UA).set('Accept-Encoding', 'br, gzip'),
    );
    expect(cached.headers['content-encoding']).toBe('br');
    expect(cached.headers.vary).toMatch(/Accept-Encoding/i);
    expect(cached.text).toBe(first.text);
  });
});

describe('static assets', () => {
  const app = testApp();
  const assets = [manifest.entry.js, ...manifest.entry.imports];

  it.each(assets)('%s is long-cached and served pre-compressed', async (url) => {
    const br = await request(app).get(url).set('Accept-Encoding', 'br');
    expect(br.status).toBe(200);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers['content-encoding']).toBe('br');
    // The very bytes the build compressed, not a fresh compression per request.
    expect(br.headers['content-length']).toBe(String(readFileSync(`dist/client${url}.br`).length));

    const gz = await request(app).get(url).set('Accept-Encoding', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-length']).toBe(String(readFileSync(`dist/client${url}.gz`).length));
    const plain = await request(app).get(url).set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-length']).toBe(String(readFileSync(`dist/client${url}`).length));
  });

  it('a missing asset is a quick plain 404, not a page', async () => {
    const res = await request(app).get('/assets/entry-DOESNOTEXIST.js');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('<html');
  });

  it('does not serve source maps or the server manifest', async () => {
    const map = await request(app).get(`${manifest.entry.js}.map`);
    expect(map.status).toBe(404);
    const server = await request(app).get('/manifest.json');
    expect(server.text).not.toContain('"pages"');
    const js = await request(app).get(manifest.entry.js).set('Accept-Encoding', 'identity');
    expect(js.text).not.toContain('sourceMappingURL');
  });
});

describe('client address in request logs', () => {
  async function loggedClientIp(env: Record<string, string>): Promise<unknown> {
    const { logger, lines } = captureLogger();
    const app = testApp(env, { logger });
    await request(app).get('/about').set('X-Forwarded-For', '203.0.113.7');
    return lines().find((l) => l.msg === 'request completed')?.clientIp;
  }

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    expect(await loggedClientIp({})).toMatch(/127\.0\.0\.1|::1/);
  });

  it('uses X-Forwarded-For from a trusted proxy', async () => {
    expect(await loggedClientIp({ TRUST_PROXY: 'loopback' })).toBe('203.0.113.7');
  });
});

describe('raw paths', () => {
  const server = testApp().listen(0, '127.0.0.1');
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each(['/../../etc/passwd', '//about', '/%2e%2e/%2e%2e/etc/passwd', '/about/..%2f..%2fsecret'])(
    '%s (sent unnormalised) is a 404 page',
    async (path) => {
      const { port } = server.address() as AddressInfo;
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(404);
    },
  );
});

/**
 * Issue 11's findings on the request path, on a real socket (raw, since supertest and Node's
 * client cannot send absolute-form targets, repeated Host headers or odd Transfer-Encodings):
 * a poisoned page cache, logs an attacker can inflate, framing nginx refuses, and route variants.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/server/config.ts';
import { startRuntime } from '../src/server/runtime.ts';
import { pages, type PageEntry } from '../src/shared/pages.ts';
import { defaultSite } from '../src/shared/site.ts';
import { BROWSER_UA } from './support/http.ts';
import { rawGet, rawGetCached, rawRequest, type RawResponse } from './support/raw-http.ts';
import { captureLogger, linesWrittenBy, testConfig } from './support/test-app.ts';

const knownPages = pages.filter((p) => p.id !== 'notFound');

interface TestServer {
  port: number;
  log: ReturnType<typeof captureLogger>;
  stop(): Promise<void>;
}

async function serve(env: Record<string, string> = {}): Promise<TestServer> {
  const config: Config = { ...testConfig(env), port: 0 };
  const log = captureLogger();
  const running = await startRuntime(config, { logger: log.logger });
  return {
    port: (running.server.address() as AddressInfo).port,
    log,
    stop: () => running.stop('test'),
  };
}

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
const expectFullPage = (html: string, page: PageEntry) => {
  expect(titleOf(html)).toContain(page.title);
  if (page.chrome) expect(html).toContain(defaultSite.masthead);
  expect(html.trimEnd().endsWith('</html>')).toBe(true);
};

describe('absolute-form request targets cannot poison the page cache (11.1)', () => {
  const routes = [...knownPages, { ...pages.find((p) => p.id === 'notFound')!, path: '/no-such-page' }];

  it.each(routes.flatMap((p) => (['HEAD', 'GET'] as const).map((m) => [p.path, m, p] as const)))(
    '%s: after %s of its absolute form, every later visitor gets the full page',
    async (path, method, page) => {
      const server = await serve();
      try {
        const poisoned = await rawGet(server.port, `http://x${path}`, { 'User-Agent': 'curl/8.14.1' }, method);
        expect(poisoned.status).toBe(page.id === 'notFound' ? 404 : 200);
        if (method === 'GET') expectFullPage(poisoned.body.toString(), page);
        const later = await rawGetCached(server.port, path);
        expect(later.status).toBe(page.id === 'notFound' ? 404 : 200);
        expectFullPage(later.body.toString(), page);
      } finally {
        await server.stop();
      }
    },
  );
});

describe('one bounded log line per request (11.3)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve({ MAX_HEADER_SIZE: '65536' });
  });
  afterAll(() => server.stop());

  /** The raw log lines `send`'s request wrote (up to the line of a request sent after it). */
  async function linesOf(send: () => Promise<RawResponse>): Promise<{ res: RawResponse; written: string[] }> {
    const { result, lines } = await linesWrittenBy(server.log, send, (url) => rawGet(server.port, url));
    return { res: result, written: lines };
  }

  it('a 404 with a 15 KB URL and a 15 KB user agent writes one line of about 2 KB', async () => {
    const url = `/${'a'.repeat(15_000)}`;
    const { res, written } = await linesOf(() => rawGet(server.port, url, { 'User-Agent': 'b'.repeat(15_000) }));
    expect(res.status).toBe(404);
    expect(written).toHaveLength(1);
    expect(Buffer.byteLength(written[0]!)).toBeLessThan(3_000);
    const line = JSON.parse(written[0]!) as { level: number; notFound?: boolean; req: Record<string, string> };
    expect(line.level).toBeLessThanOrEqual(40);
    expect(line.notFound).toBe(true);
    expect(line.req.url!.startsWith('/aaaa')).toBe(true);
    expect(line.req.url).toMatch(/…\[cut: 15001 bytes\]$/);
    expect(line.req.userAgent).toMatch(/^b+…\[cut: 15000 bytes\]$/);
  });

  it.each([
    ['405', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n', 405],
    ['400 (two Host headers)', 'GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\nConnection: close\r\n\r\n', 400],
    ['501 (Transfer-Encoding)', 'GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n', 501],
  ])('an expected refusal (%s) is one line below error level, without a stack', async (_name, request, status) => {
    const { res, written } = await linesOf(() => rawRequest(server.port, request));
    expect(res.status).toBe(status);
    expect(written).toHaveLength(1);
    const line = JSON.parse(written[0]!) as { level: number; res: { statusCode: number } };
    expect(line.level).toBeLessThan(50);
    expect(line.res.statusCode).toBe(status);
    expect(written[0]).not.toContain('"stack"');
  });
});

describe('framing nginx refuses is refused before the app (11.5)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await serve();
    await rawGetCached(server.port, '/'); // so the page fast lane could answer
  });
  afterAll(() => server.stop());

  it.each(['/', '/about', '/healthz', '/nope'])(
    'two Host headers on %s: 400 and the connection closes',
    async (path) => {
      const res = await rawRequest(server.port, `GET ${path} HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n`);
      expect(res.status).toBe(400);
      expect(res.header('connection')).toBe('close');
      // Refused at the front door, which gives every answer the security headers.
      expect(res.header('content-security-policy')).toContain("default-src 'self'");
      expect(res.header('x-content-type-options')).toBe('nosniff');
      expect(res.text).not.toContain('200 OK');
    },
  );

  it.each(['xchunked', 'gzip, chunked', 'identity', 'chunked;x=1'])(
    'Transfer-Encoding: %s answers 501 and closes',
    async (te) => {
      const res = await rawRequest(
        server.port,
        `GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${te}\r\n\r\n0\r\n\r\nGET /about HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(res.status).toBe(501);
      expect(res.header('connection')).toBe('close');
      expect(res.header('content-security-policy')).toContain("default-src 'self'");
      expect(res.text).not.toContain('200 OK');
    },
  );

  it.each(['/about#x', '/#', '/about?q=1#top', '/healthz#x', '/api/now-playing?port=8076#x'])(
    'a fragment in the request target (%s): 400, never the page',
    async (target) => {
      const res = await rawRequest(server.port, `GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(res.status).toBe(400);
      expect(res.header('content-security-policy')).toContain("default-src 'self'");
      expect(res.header('cache-control') ?? '').not.toMatch(/public|max-age/);
    },
  );

  it('Transfer-Encoding: chunked (any case) is still served', async () => {
    for (const te of ['chunked', 'Chunked']) {
      const res = await rawRequest(
        server.port,
        `GET /about HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: ${te}\r\nConnection: close\r\n\r\n0\r\n\r\n`,
      );
      expect(res.status).toBe(200);
    }
  });
});

describe('fixed files have one spelling: the others redirect to it (issue 33)', () => {
  const files = ['/robots.txt', '/sitemap.xml', '/favicon.ico', '/favicon.svg', '/manifest.webmanifest', '/sw.js'];
  const spellings = (file: string) => [
    file.toUpperCase(),
    `${file}/`,
    `/${file}`,
    `/%${file.charCodeAt(1).toString(16).toUpperCase()}${file.slice(2)}`,
  ];
  let server: TestServer;
  beforeAll(async () => {
    server = await serve();
  });
  afterAll(() => server.stop());

  it.each(files)(
    '%s: 200 at its own path, 301 to it from every other spelling, stored by no shared cache',
    async (file) => {
      expect((await rawGet(server.port, file, { 'User-Agent': BROWSER_UA })).status).toBe(200);
      for (const spelling of spellings(file)) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await rawGet(server.port, `${spelling}?v=1`, { 'User-Agent': BROWSER_UA }, method);
          expect(res.status, `${method} ${spelling}`).toBe(301);
          expect(res.header('location'), spelling).toBe(`${file}?v=1`);
          expect(res.header('cache-control'), spelling).toMatch(/^private/);
        }
      }
    },
  );

  it('a path that only looks like one is the 404 page', async () => {
    for (const path of ['/robots.txtx', '/ROBOTS.TXT.BAK', '/favicon'])
      expect((await rawGet(server.port, path, { 'User-Agent': BROWSER_UA })).status, path).toBe(404);
  });
});

describe('route variants redirect to the canonical path (11.6)', () => {
  const variants: Array<[string, string]> = [
    ['/RADIO', '/radio'],
    ['/radio/', '/radio'],
    ['/ra%64io', '/radio'],
    ['/Radio//', '/radio'],
    ['/%72adio?utm_source=x&q=%20a', '/radio?utm_source=x&q=%20a'],
    ['/ABOUT/?a=1', '/about?a=1'],
    ['/a%62out', '/about'],
    ['/Books', '/books'],
  ];

  it('answers 301 with the query kept, and neither keys nor fills the page cache', async () => {
    const server = await serve();
    try {
      for (const [variant, location] of variants) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await rawGet(server.port, variant, { 'User-Agent': BROWSER_UA }, method);
          expect(res.status, `${method} ${variant}`).toBe(301);
          expect(res.header('location'), variant).toBe(location);
        }
      }
      // No variant rendered or cached a page: the first visit to the canonical path renders it.
      for (const path of ['/radio', '/about', '/books']) {
        const first = await rawGet(server.port, path, { 'User-Agent': BROWSER_UA });
        expect(first.status).toBe(200);
        expect(first.header('etag'), `${path} came from the cache`).toBeUndefined();
        expectFullPage(first.body.toString(), knownPages.find((p) => p.path === path)!);
      }
      // Nor does a cached page answer its variants.
      await rawGetCached(server.port, '/radio');
      const cachedVariant = await rawGet(server.port, '/RADIO', { 'User-Agent': BROWSER_UA });
      expect(cachedVariant.status).toBe(301);
    } finally {
      await server.stop();
    }
  });
});

/**
 * The page fast lane answers exactly as the Express chain would: for every route, content
 * coding, conditional request and method, the same status, header lines (but Date) in the same
 * order, body bytes and request-log line. Both lanes are served by one app, so they share its
 * page cache; the fast-lane server answers 599 if the fast lane ever passes a request on.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/server/app.ts';
import type { Lane } from '../src/server/front-door.ts';
import { pages } from '../src/shared/pages.ts';
import { BROWSER_UA } from './support/http.ts';
import { rawGet, rawGetCached, rawRequest, type RawResponse } from './support/raw-http.ts';
import { appFor, captureLogger, linesWrittenBy, testConfig } from './support/test-app.ts';

const routes = pages.filter((p) => p.id !== 'notFound').map((p) => p.path);
const ENCODINGS = [
  undefined,
  'br',
  'gzip',
  'identity',
  'gzip, deflate, br, zstd',
  'gzip;q=1, br;q=0.5',
  'br;q=0, gzip',
  'gzip;q=0.5, identity',
  '*',
  'deflate',
];

const listen = (handler: RequestListener) =>
  new Promise<Server>((resolve) => {
    const server = createServer(handler).listen(0, '127.0.0.1', () => resolve(server));
  });
const portOf = (server: Server) => (server.address() as AddressInfo).port;

/** Two front doors over one app: the fast lane alone (599 when it passes a request on), and every lane but it. */
function fastAndFull(app: App): { fast: RequestListener; full: RequestListener } {
  const fastLane = app.lanes.find((lane) => lane.name === 'cached page')!;
  const passedOn: Lane = {
    name: 'rendered page',
    handle(_req, res) {
      res.statusCode = 599;
      res.end('the fast lane passed this request on');
      return true;
    },
  };
  return {
    fast: app.doorOver([fastLane, passedOn]),
    full: app.doorOver(app.lanes.filter((lane) => lane !== fastLane)),
  };
}

describe('the page fast lane and the full chain', () => {
  const log = captureLogger();
  let app: App;
  let fast: Server;
  let full: Server;

  beforeAll(async () => {
    app = appFor(testConfig({ TRUST_PROXY: 'loopback' }), { logger: log.logger });
    const doors = fastAndFull(app);
    fast = await listen(doors.fast);
    full = await listen(doors.full);
    // Fill the cache through the full chain (the first render streams; its copy is cached a moment later).
    for (const path of routes) await rawGetCached(portOf(full), path);
  });
  afterAll(async () => {
    for (const server of [fast, full]) await new Promise((r) => server.close(r));
  });

  /** The response and the log line it wrote. */
  async function answer(server: Server, target: string, headers: Record<string, string>, method: 'GET' | 'HEAD') {
    // Up to the line of a request sent after it, to the chain (which logs every request).
    const { result: res, lines } = await linesWrittenBy(
      log,
      () => rawGet(portOf(server), target, headers, method),
      (url) => rawGet(portOf(full), url),
    );
    return { res, lines: lines.map((l) => l.replace(/"time":\d+,/, '').replace(/"responseTime":\d+/, '')) };
  }

  const comparable = (res: RawResponse) => ({
    status: res.status,
    headers: res.headerLines.filter((l) => !/^date:/i.test(l)),
    body: res.body.toString('base64'),
  });

  it.each(routes)('%s: every encoding, validator and method gives the same bytes and log line', async (path) => {
    const etag = (await rawGet(portOf(full), path)).header('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    const conditions = [
      undefined,
      etag,
      etag.slice(2), // the same tag sent strong: If-None-Match compares weakly
      'W/"not-this-one"',
      `"other", ${etag} , W/"another"`,
      '*',
    ];
    let compared = 0;
    for (const method of ['GET', 'HEAD'] as const) {
      for (const encoding of ENCODINGS) {
        for (const condition of conditions) {
          const headers: Record<string, string> = {
            'User-Agent': BROWSER_UA,
            'X-Forwarded-For': '198.51.100.7',
            ...(encoding !== undefined && { 'Accept-Encoding': encoding }),
            ...(condition !== undefined && { 'If-None-Match': condition }),
          };
          const target = `${path}?from=test`;
          const a = await answer(fast, target, headers, method);
          const b = await answer(full, target, headers, method);
          const what = `${method} ${path} Accept-Encoding: ${encoding} If-None-Match: ${condition}`;
          expect(a.res.status, what).not.toBe(599);
          expect(comparable(a.res), what).toEqual(comparable(b.res));
          expect(a.lines, what).toHaveLength(1);
          expect(a.lines, what).toEqual(b.lines);
          compared++;
        }
      }
    }
    expect(compared).toBe(2 * ENCODINGS.length * conditions.length);
  });

  it('answers 304 to a matching validator and the chosen encoding otherwise (sanity of the pair above)', async () => {
    const etag = (await rawGet(portOf(fast), '/')).header('etag')!;
    expect((await rawGet(portOf(fast), '/', { 'If-None-Match': etag })).status).toBe(304);
    expect((await rawGet(portOf(fast), '/', { 'Accept-Encoding': 'gzip, br' })).header('content-encoding')).toBe('br');
    const line = JSON.parse(log.rawLines().at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'request completed',
      req: { method: 'GET', url: '/' },
      res: { statusCode: 200 },
    });
  });

  it.each([
    ['a page not cached yet', 'GET /never-cached-404 HTTP/1.1'],
    ['a variant of a page path', 'GET /ABOUT HTTP/1.1'],
    ['a trailing slash', 'GET /about/ HTTP/1.1'],
    ['an absolute-form target', 'GET http://x/about HTTP/1.1'],
    ['another method', 'POST /about HTTP/1.1'],
    ['a static file', 'GET /favicon.ico HTTP/1.1'],
    ['the API', 'GET /api/now-playing HTTP/1.1'],
    ['robots.txt', 'GET /robots.txt HTTP/1.1'],
  ])('passes %s on to Express', async (_what, requestLine) => {
    const res = await rawRequest(
      portOf(fast),
      `${requestLine}\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
    );
    expect(res.status).toBe(599);
  });
});

describe('the page fast lane and the full chain before midnight', () => {
  it('send the same shortened Cache-Control as Chicago midnight nears, for 200 and 304', async () => {
    // 11 p.m. in Chicago when the page is rendered and cached, 23:59:00 when it is asked for again.
    let now = new Date('2026-11-26T05:00:00Z');
    const app = appFor(testConfig(), { now: () => now });
    const doors = fastAndFull(app);
    const fast = await listen(doors.fast);
    const full = await listen(doors.full);
    try {
      const first = await rawGetCached(portOf(full), '/about');
      expect(first.header('cache-control')).toBe(
        'public, max-age=0, s-maxage=60, stale-while-revalidate=60, stale-if-error=86400',
      );
      now = new Date('2026-11-26T05:59:00Z');
      const late = 'public, max-age=0, s-maxage=58, stale-while-revalidate=0, stale-if-error=86400';
      const asked: Record<string, string>[] = [{ 'Accept-Encoding': 'br' }, { 'If-None-Match': first.header('etag')! }];
      for (const headers of asked) {
        const a = await rawGet(portOf(fast), '/about', headers);
        const b = await rawGet(portOf(full), '/about', headers);
        expect(a.status).not.toBe(599);
        expect(a.header('cache-control')).toBe(late);
        expect(comparableHeaders(a)).toEqual(comparableHeaders(b));
      }
    } finally {
      for (const server of [fast, full]) await new Promise((r) => server.close(r));
    }
  });
});

function comparableHeaders(res: RawResponse) {
  return { status: res.status, headers: res.headerLines.filter((l) => !/^date:/i.test(l)) };
}

/**
 * deploy/nginx.conf's page cache, with real nginx in front of built app processes: one render for
 * a burst of misses, one gzip entry per page that every client is served from, stale pages for
 * every reader while every app is down, nothing of yesterday after Chicago's midnight, and nothing stored for /api.
 */
import { execFileSync } from 'node:child_process';
import type { ClientRequest } from 'node:http';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondsToChicagoMidnight } from '../../src/server/pages/shared-cache.ts';
import { chicagoIsoDate, formatLongDate } from '../../src/shared/date.ts';
import { pages } from '../../src/shared/pages.ts';
import { shippedServerArgs, startApp, type AppProcess } from '../support/app-process.ts';
import { BROWSER_UA } from '../support/http.ts';
import { startNginx, type DeployNginx } from '../support/nginx.ts';

const pagePaths = pages.filter((p) => p.id !== 'notFound').map((p) => p.path);
const SHIFTED_CLOCK = join(import.meta.dirname, '../support/shifted-clock.mjs');
/** As deploy/README.md runs them: the same public origin for every process, so they render the same bytes. */
const DEPLOYED = { SITE_URL: 'https://news.example.com', TRUST_PROXY: 'loopback' };

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function client(nginx: DeployNginx) {
  const agent = new Agent({ keepAlive: true, maxSockets: 600, ca: nginx.certificate.cert });
  /** `from`: the client's address (127.x.y.z: loopback has them all), as many readers have many. */
  const get = (path: string, headers: Record<string, string> = {}, from?: string): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = request(
        `${nginx.httpsUrl}${path}`,
        {
          agent,
          headers: { 'User-Agent': BROWSER_UA, ...headers },
          timeout: 60_000,
          ...(from && { localAddress: from }),
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`hung: ${path}`)));
      req.on('error', reject);
      req.end();
    });
  return { get, close: () => agent.destroy() };
}

/** The bytes a client gets after undoing the Content-Encoding. */
function decoded(reply: Reply): string {
  const coding = reply.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(reply.body).toString();
  if (coding === 'gzip') return gunzipSync(reply.body).toString();
  if (coding !== undefined) throw new Error(`unexpected Content-Encoding ${String(coding)}`);
  return reply.body.toString();
}

/** How many answers for `path` the app processes logged (each one a request that reached an app). */
const atApps = (apps: AppProcess[], path: string) =>
  apps
    .flatMap((app) => app.logLines())
    .filter((l) => l.msg === 'request completed' && (l.req as { url?: string } | undefined)?.url === path).length;

async function stopAll(apps: AppProcess[]) {
  await Promise.all(apps.map((app) => app.stop()));
}

/**
 * Two app processes with `env` behind deploy/nginx.conf, and a client: started before the
 * describe's tests, stopped after them. A test may replace `apps` (a restart).
 */
function twoAppsBehindNginx(env: Record<string, string>, edit?: (source: string) => string) {
  const site = {} as { apps: AppProcess[]; nginx: DeployNginx; http: ReturnType<typeof client> };
  beforeAll(async () => {
    site.apps = await Promise.all([startApp(env, { name: 'app-a' }), startApp(env, { name: 'app-b' })]);
    site.nginx = await startNginx({ upstreams: site.apps.map((a) => a.port), ...(edit && { edit }) });
    site.http = client(site.nginx);
  });
  afterAll(async () => {
    site.http?.close();
    await site.nginx?.stop();
    await stopAll(site.apps ?? []);
  });
  return site;
}

describe('the page cache in deploy/nginx.conf', () => {
  // The caps on streams per client lifted (the app's, and nginx's across processes, tested in
  // nginx-one-client.test.ts), so the connection limit is what a client meets.
  const site = twoAppsBehindNginx({ ...DEPLOYED, STREAM_MAX_LISTENERS_PER_CLIENT: '1000' }, (source) =>
    source.replace(/limit_conn news_streams_per_client \d+;/, 'limit_conn news_streams_per_client 1000;'),
  );

  it('sends one request to the apps for 500 concurrent first requests of a page', async () => {
    const replies = await Promise.all(
      // From 500 addresses: one client's connections are limited (limit_conn), a crowd's are not.
      Array.from({ length: 500 }, (_, i) =>
        site.http.get('/about', { 'Accept-Encoding': 'gzip, deflate, br' }, `127.1.${i >> 7}.${1 + (i & 0x7f)}`),
      ),
    );
    const statuses = new Set(replies.map((r) => r.status));
    const cacheStatus = new Map<string, number>();
    for (const r of replies) {
      const s = String(r.headers['x-cache-status']);
      cacheStatus.set(s, (cacheStatus.get(s) ?? 0) + 1);
    }
    console.log(`500 first requests of /about: ${JSON.stringify(Object.fromEntries(cacheStatus))}`);
    expect([...statuses]).toEqual([200]);
    expect(new Set(replies.map((r) => decoded(r))).size).toBe(1);
    // The log line of the request that reached an app, then one more page's: by the time that one
    // is logged, any second /about line would be too. (Polled to at least one, so a broken lock
    // fails at once with its count rather than after the poll's limit.)
    await expect.poll(() => atApps(site.apps, '/about')).toBeGreaterThanOrEqual(1);
    await site.http.get('/');
    await expect.poll(() => atApps(site.apps, '/')).toBe(1);
    expect(atApps(site.apps, '/about')).toBe(1);
  });

  it('gives identity, gzip and brotli readers bytes that decode to the same page, all from one gzip entry', async () => {
    // Pages are stored once, gzip: a reader who accepts no gzip gets them inflated by nginx.
    const codings: Array<[string | undefined, string | undefined]> = [
      [undefined, undefined],
      ['identity', undefined],
      ['gzip', 'gzip'],
      ['br', undefined],
      ['gzip, deflate, br, zstd', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['gzip;q=0, br', undefined],
    ];
    for (const path of pagePaths) {
      const texts = new Set<string>();
      for (const [i, [accept, expected]] of codings.entries()) {
        const reply = await site.http.get(path, accept === undefined ? {} : { 'Accept-Encoding': accept });
        const what = `${path}, Accept-Encoding: ${accept}`;
        expect(reply.status, what).toBe(200);
        expect(reply.headers['content-encoding'], what).toBe(expected);
        // The first reader of a page fills the one entry; every other reader is answered from it.
        if (i > 0) expect(reply.headers['x-cache-status'], what).toBe('HIT');
        texts.add(decoded(reply));
      }
      expect(texts.size, path).toBe(1);
      expect([...texts][0]).toContain('</html>');
    }
    // Behind a proxy (a CDN adds Via), a gzip reader still gets gzip, not bytes nginx inflated.
    const proxied = await site.http.get('/', { 'Accept-Encoding': 'gzip', Via: '1.1 cdn.example' });
    expect(proxied.headers['content-encoding']).toBe('gzip');
  });

  it('lets one client hold at most 32 connections (429 beyond), and pages keep answering others', async () => {
    const held: ClientRequest[] = [];
    const statuses = await Promise.all(
      Array.from(
        { length: 40 },
        () =>
          new Promise<number>((resolve, reject) => {
            const req = request(
              `${site.nginx.httpsUrl}/api/stream?port=8076`,
              { ca: site.nginx.certificate.cert, agent: false, localAddress: '127.0.0.9' },
              (res) => {
                if (res.statusCode !== 200) res.resume();
                resolve(res.statusCode ?? 0);
              },
            );
            req.on('error', reject);
            req.end();
            held.push(req);
          }),
      ),
    );
    try {
      const count = (s: number) => statuses.filter((x) => x === s).length;
      console.log(`40 streams from one client: ${count(200)} × 200, ${count(429)} × 429`);
      expect(count(200)).toBe(32);
      expect(count(429)).toBe(8);
      for (const path of pagePaths) expect((await site.http.get(path, {}, '127.0.0.10')).status, path).toBe(200);
    } finally {
      for (const req of held) req.destroy();
    }
  });

  it("takes deploy/README.md's purge (the cache's files deleted) without a reload", async () => {
    // Asked from its own address, so no other test's requests reuse this entry meanwhile.
    const careers = () => site.http.get('/careers', { 'Accept-Encoding': 'gzip' }, '127.0.0.11');
    await expect.poll(async () => (await careers()).headers['x-cache-status']).toBe('HIT');
    const before = atApps(site.apps, '/careers');
    execFileSync('find', [join(site.nginx.dir, 'cache'), '-type', 'f', '-delete']);
    // The workers keep hot cache files open (open_file_cache): until they look again, a deleted
    // file still reads. They must look within the poll's limit, and ask an app.
    await expect.poll(async () => (await careers()).headers['x-cache-status']).toBe('MISS');
    await expect.poll(() => atApps(site.apps, '/careers') - before).toBe(1);
  });

  it('stores nothing under /api, nor the 404 page', async () => {
    for (const path of ['/api/now-playing?port=8076', '/no-such-page']) {
      const before = atApps(site.apps, path);
      const replies = [await site.http.get(path), await site.http.get(path)];
      for (const reply of replies) expect(reply.headers['x-cache-status'] ?? 'MISS', path).toMatch(/^(MISS)$/);
      await expect.poll(() => atApps(site.apps, path) - before).toBe(2);
    }
  });
});

describe('deploy/nginx.conf while every app process is down', () => {
  // Short ages, so the copies are stale by the time the apps are stopped and fresh soon after a restart.
  const env = { ...DEPLOYED, PAGE_S_MAXAGE: '1', PAGE_STALE_WHILE_REVALIDATE: '0' };
  const site = twoAppsBehindNginx(env);

  it('serves the pages it has with their full HTML to every reader, answers the stream 502/503 at once, and is fresh again after a restart', async () => {
    // One brotli reader per page before the outage; then every process killed, as a crash would.
    for (const path of pagePaths) expect((await site.http.get(path, { 'Accept-Encoding': 'br' })).status).toBe(200);
    const ports = site.apps.map((a) => a.port);
    await Promise.all(site.apps.map((app) => app.stop('SIGKILL')));

    for (const path of pagePaths) {
      const texts = new Set<string>();
      // gzip, brotli and no Accept-Encoding at all (a monitor, curl, an old proxy).
      for (const accept of ['gzip', 'br', undefined]) {
        const reply = await site.http.get(path, accept === undefined ? {} : { 'Accept-Encoding': accept });
        const what = `${path}, Accept-Encoding: ${accept}`;
        expect(reply.status, what).toBe(200);
        expect(['STALE', 'HIT'], what).toContain(reply.headers['x-cache-status']);
        texts.add(decoded(reply));
      }
      expect(texts.size, path).toBe(1);
      expect([...texts][0], path).toMatch(/^<!DOCTYPE html>[\s\S]*<\/html>$/i);
    }
    const askedAt = Date.now();
    const stream = await site.http.get('/api/stream?port=8076');
    console.log(`/api/stream with every app down: ${stream.status} after ${Date.now() - askedAt} ms`);
    expect([502, 503]).toContain(stream.status);

    site.apps = await Promise.all(
      ports.map((port, i) => startApp({ ...env, PORT: String(port) }, { name: `app-${i}` })),
    );
    for (const path of pagePaths) {
      await expect
        .poll(async () => (await site.http.get(path, { 'Accept-Encoding': 'br' })).headers['x-cache-status'])
        .toMatch(/^(MISS|EXPIRED|REVALIDATED)$/);
    }
  });
});

describe('deploy/nginx.conf at Chicago midnight', () => {
  let app: AppProcess;
  let nginx: DeployNginx;
  let http: ReturnType<typeof client>;
  let midnight: number;
  let offset: number;

  /** The app's clock 20 s before the next Chicago midnight; nginx keeps real time. */
  async function startBeforeMidnight(): Promise<void> {
    // A whole number of seconds apart, so both turn their seconds at the same moment, as on one host.
    const second = Date.now() - (Date.now() % 1000);
    midnight = second + secondsToChicagoMidnight(new Date(second)) * 1000;
    offset = midnight - 20_000 - second;
    app = await startApp(
      { ...DEPLOYED, FAKE_CLOCK_OFFSET_MS: String(offset) },
      { args: ['--import', SHIFTED_CLOCK, ...shippedServerArgs()] },
    );
    nginx = await startNginx({ upstreams: [app.port] });
    http = client(nginx);
  }

  beforeAll(async () => {
    // A busy machine can spend most of the 20 s starting both: then start again, a bounded number
    // of times, so slowness makes the test longer instead of failing it.
    for (let attempt = 1; ; attempt++) {
      await startBeforeMidnight();
      if (Date.now() + offset < midnight - 8_000 || attempt === 3) return;
      http.close();
      await nginx.stop();
      await app.stop();
    }
  });
  afterAll(async () => {
    http?.close();
    await nginx?.stop();
    await app?.stop();
  });

  it('does not serve a page cached before midnight after it', async () => {
    const before = formatLongDate(chicagoIsoDate(new Date(midnight - 60_000)));
    const after = formatLongDate(chicagoIsoDate(new Date(midnight + 60_000)));
    const first = await http.get('/', { 'Accept-Encoding': 'br' });
    expect(Date.now() + offset, 'the app started too slowly to test before midnight').toBeLessThan(midnight);
    console.log(`before midnight: ${String(first.headers['cache-control'])}`);
    expect(decoded(first)).toContain(before);
    const again = await http.get('/', { 'Accept-Encoding': 'br' });
    // Fresh until a second before midnight (the app's margin for the cache's clock).
    if (Date.now() + offset < midnight - 2000) expect(again.headers['x-cache-status']).toBe('HIT');

    await expect.poll(() => Date.now() + offset > midnight + 200).toBe(true);
    const late = await http.get('/', { 'Accept-Encoding': 'br' });
    console.log(`after midnight: ${String(late.headers['x-cache-status'])}`);
    expect(decoded(late)).toContain(after);
    expect(decoded(late)).not.toContain(before);
  });
});

/**
 * One entry in deploy/nginx.conf's page cache per page and fixed file: a fragment in the request
 * line (which no browser sends) never reaches a cache key, and other spellings of a fixed file are
 * redirects no shared cache keeps, so one client inventing either cannot fill the cache and evict
 * the pages nginx must serve stale while every app is down.
 */
import { readdirSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { BROWSER_UA } from '../support/http.ts';
import { startNginx, type DeployNginx } from '../support/nginx.ts';

const DEPLOYED = { SITE_URL: 'https://news.example.com', TRUST_PROXY: 'loopback' };
/** As the outside audit sent them, from one client. */
const FRAGMENTS = 5_000;
/** Requests in flight at once: below the shipped limit_conn (32 per client). */
const PARALLEL = 16;

interface Reply {
  status: number;
  cache: string;
}

/** Every file under `dir` (the cache's entries, in levels=1:2 folders). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('deploy/nginx.conf keys its page cache on the path alone', () => {
  let app: AppProcess;
  let nginx: DeployNginx;
  let agent: Agent;

  /** GET of a raw request target (Node sends `path` as given, a fragment included). */
  const get = (path: string) =>
    new Promise<Reply>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: nginx.tlsPort,
          path,
          agent,
          headers: { 'User-Agent': BROWSER_UA, 'Accept-Encoding': 'gzip' },
          timeout: 60_000,
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, cache: String(res.headers['x-cache-status']) }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`hung: ${path}`)));
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    app = await startApp(DEPLOYED);
    nginx = await startNginx({ upstreams: [app.port] });
    agent = new Agent({ keepAlive: true, maxSockets: PARALLEL, ca: nginx.certificate.cert });
  });
  afterAll(async () => {
    agent?.destroy();
    await nginx?.stop();
    await app?.stop();
  });

  it(`answers ${FRAGMENTS} requests for /about#<random> from the one /about entry`, async () => {
    await expect.poll(async () => (await get('/about')).cache).toBe('HIT');
    const counts = new Map<string, number>();
    for (let sent = 0; sent < FRAGMENTS; sent += PARALLEL) {
      const replies = await Promise.all(
        Array.from({ length: Math.min(PARALLEL, FRAGMENTS - sent) }, () =>
          get(`/about#${Math.random().toString(36).slice(2)}`),
        ),
      );
      for (const { status, cache } of replies)
        counts.set(`${status} ${cache}`, (counts.get(`${status} ${cache}`) ?? 0) + 1);
    }
    const entries = filesUnder(join(nginx.dir, 'cache'));
    console.log(
      `${FRAGMENTS} × /about#<random>: ${JSON.stringify(Object.fromEntries(counts))}; cache files: ${entries.length}`,
    );
    expect(Object.fromEntries(counts)).toEqual({ '200 HIT': FRAGMENTS });
    expect(entries).toHaveLength(1);
  });

  it('keeps one entry for robots.txt, however it is spelled', async () => {
    const before = filesUnder(join(nginx.dir, 'cache')).length;
    await expect.poll(async () => (await get('/robots.txt')).cache).toBe('HIT');
    for (const spelling of ['/ROBOTS.TXT', '/Robots.txt', '/robots.txt/', '//robots.txt', '/robots%2Etxt']) {
      // Twice: a spelling nginx stored would be a HIT the second time.
      for (const round of [1, 2]) expect((await get(spelling)).status, `${spelling} (${round})`).toBe(301);
    }
    expect(filesUnder(join(nginx.dir, 'cache'))).toHaveLength(before + 1);
  });
});

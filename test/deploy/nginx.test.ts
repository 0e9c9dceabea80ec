/**
 * deploy/nginx.conf, run by real nginx on loopback in front of two app processes.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/shared/pages.ts';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { DEPLOY_CONFIG, NGINX_BIN, startNginx, type NginxProcess } from '../support/nginx.ts';

const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0 Safari/537.36';
const pagePaths = pages.filter((p) => p.id !== 'notFound').map((p) => p.path);

interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** One GET with Node's http client (no automatic decompression, every header visible). */
function get(url: string, headers: Record<string, string> = {}, timeoutMs = 5_000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { 'User-Agent': BROWSER_UA, ...headers }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The body of `location <path> { ... }` in deploy/nginx.conf. */
function locationBlock(config: string, path: string): string {
  const start = config.indexOf(`location ${path} {`);
  if (start < 0) return '';
  return config.slice(start, config.indexOf('\n    }', start));
}

function seconds(value: string | undefined): number {
  const m = /^(\d+)(ms|s|m|h|d)?$/.exec(value ?? '');
  if (!m) return Number.NaN;
  return Number(m[1]) * { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h' | 'd'];
}

describe('deploy/nginx.conf', () => {
  const config = readFileSync(DEPLOY_CONFIG, 'utf8').replace(/#.*$/gm, '');

  it('proxies to an upstream group with keep-alive connections and forwards the client', () => {
    const upstream = /upstream\s+(\w+)\s*\{([\s\S]*?)\n\}/.exec(config);
    expect(upstream).not.toBeNull();
    expect(upstream![2]!.match(/^\s*server\s/gm)?.length).toBeGreaterThanOrEqual(2);
    expect(upstream![2]).toMatch(/^\s*keepalive\s+\d+;/m);
    expect(config).toContain(`proxy_pass http://${upstream![1]};`);
    expect(config).toMatch(/proxy_http_version 1\.1;/);
    expect(config).toMatch(/proxy_set_header Connection "";/);
    expect(config).toMatch(/proxy_set_header X-Forwarded-For \$proxy_add_x_forwarded_for;/);
    expect(config).toMatch(/proxy_set_header X-Forwarded-Proto \$scheme;/);
    expect(config).toMatch(/proxy_next_upstream error timeout;/);
  });

  it('does not compress again what the app compressed', () => {
    expect(config).toMatch(/^\s*gzip off;/m);
    expect(config).not.toMatch(/^\s*gzip on;/m);
  });

  it('turns buffering off for the stream and lets it run for as long as audio flows', () => {
    const stream = locationBlock(config, '/api/stream');
    expect(stream).toMatch(/proxy_buffering off;/);
    expect(stream).toMatch(/proxy_request_buffering off;/);
    expect(seconds(/proxy_read_timeout (\S+);/.exec(stream)?.[1])).toBeGreaterThanOrEqual(600);
  });

  it('has a location for the hashed assets', () => {
    expect(locationBlock(config, '/assets/')).toMatch(/proxy_pass|root|alias/);
  });
});

describe.skipIf(!NGINX_BIN)('behind nginx (deploy/nginx.conf)', () => {
  let apps: AppProcess[] = [];
  let nginx: NginxProcess;

  beforeAll(async () => {
    apps = await Promise.all([startApp({ TRUST_PROXY: 'loopback' }), startApp({ TRUST_PROXY: 'loopback' })]);
    nginx = await startNginx({ upstreams: apps.map((a) => a.port) });
  });

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(apps.map((a) => a.stop()));
  });

  it.each(pagePaths)('%s answers 200 through nginx, compressed once (by the app)', async (path) => {
    const res = await get(`${nginx.url}${path}`, { 'Accept-Encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    // Exactly one coding: the app's pre-compressed brotli passed through, not gzipped again.
    expect(res.headers['content-encoding']).toBe('br');
    const html = (await import('node:zlib')).brotliDecompressSync(res.body).toString('utf8');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers.server).toBe('nginx'); // server_tokens off: no version
  });

  it('an unknown path is a 404 page through nginx, and a missing asset a plain 404', async () => {
    const page = await get(`${nginx.url}/no/such/page`, { 'Accept-Encoding': 'identity' });
    expect(page.status).toBe(404);
    expect(page.body.toString()).toContain('Oops! Page not found');
    const asset = await get(`${nginx.url}/assets/entry-MISSING.js`);
    expect(asset.status).toBe(404);
    expect(asset.body.toString()).not.toContain('<html');
  });

  it('passes hashed assets on with their immutable cache header', async () => {
    const home = await get(`${nginx.url}/`, { 'Accept-Encoding': 'identity' });
    const script = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(home.body.toString())?.[1];
    expect(script).toBeDefined();
    const res = await get(`${nginx.url}${script}`, { 'Accept-Encoding': 'gzip, br' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
  });

  it('logs the client address from X-Forwarded-For (clientIp)', async () => {
    // A unique query string finds our request's line in whichever process served it; the
    // second request of each pair comes from the page cache's fast lane, which logs too.
    const marker = `xff-${Date.now()}`;
    for (const path of ['/about', '/about', '/nope']) {
      const res = await get(`${nginx.url}${path}?${marker}`, { 'X-Forwarded-For': '203.0.113.7' });
      expect(res.status).toBeLessThan(500);
    }
    let lines: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 40 && lines.length < 3; i++) {
      lines = apps
        .flatMap((a) => a.logs)
        .filter((l) => l.includes(marker))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'request completed');
      if (lines.length < 3) await sleep(50);
    }
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line.clientIp).toBe('203.0.113.7');
  });

  it('relays the live stream as it plays (no buffering)', async (ctx) => {
    const streamUrl = `${nginx.url}/api/stream?port=8076`;
    const started = Date.now();
    const arrivals: Array<{ at: number; bytes: number }> = [];
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        streamUrl,
        { headers: { 'User-Agent': BROWSER_UA, 'Accept-Encoding': 'gzip, br' } },
        (res) => {
          if (res.statusCode !== 200 || !String(res.headers['content-type']).startsWith('audio/')) {
            res.resume();
            resolve(res.statusCode ?? 0);
            return;
          }
          expect(res.headers['content-encoding']).toBeUndefined();
          expect(res.headers['content-length']).toBeUndefined();
          res.on('data', (c: Buffer) => arrivals.push({ at: Date.now() - started, bytes: c.length }));
          setTimeout(() => {
            req.destroy();
            resolve(200);
          }, 3_000);
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? resolve(200) : reject(e)));
      req.end();
    });
    if (status !== 200) {
      ctx.skip(`/api/stream answered ${status} without audio: the stream proxy (issue 4) is not serving yet`);
      return;
    }
    // The first audio arrives at once and the rest keeps coming in small pieces, every half
    // second of the window; a buffering proxy would hold it back and deliver it in bursts.
    expect(arrivals.length).toBeGreaterThan(0);
    expect(arrivals[0]!.at).toBeLessThan(1_500);
    for (let slice = 500; slice < 3_000; slice += 500) {
      expect(
        arrivals.some((a) => a.at >= slice && a.at < slice + 500),
        `no audio between ${slice} and ${slice + 500} ms`,
      ).toBe(true);
    }
    expect(arrivals.reduce((n, a) => n + a.bytes, 0)).toBeGreaterThan(8_000);
  });

  it('loses no request while one app process stops (SIGTERM) under a steady request loop', async () => {
    const [stopping, staying] = apps as [AppProcess, AppProcess];
    const servedBy = (app: AppProcess) => app.logs.filter((l) => l.includes('"msg":"request completed"')).length;
    const before = { stopping: servedBy(stopping), staying: servedBy(staying) };

    const results: Array<{ at: number; status: number; error?: string; bytes: number }> = [];
    const started = Date.now();
    const deadline = started + 3_000;
    let stoppedAt = 0;
    let exitCode: number | null = null;
    const loop = async (worker: number) => {
      // Bounded in time and count.
      for (let i = 0; Date.now() < deadline && i < 5_000; i++) {
        const path = pagePaths[(worker + i) % pagePaths.length]!;
        try {
          const res = await get(`${nginx.url}${path}`, { 'Accept-Encoding': 'gzip, br' }, 5_000);
          results.push({ at: Date.now() - started, status: res.status, bytes: res.body.length });
        } catch (error) {
          results.push({ at: Date.now() - started, status: 0, error: String(error), bytes: 0 });
        }
      }
    };
    const stopper = (async () => {
      await sleep(1_000);
      stoppedAt = Date.now() - started;
      exitCode = await stopping.stop('SIGTERM');
    })();
    await Promise.all([...Array.from({ length: 6 }, (_, w) => loop(w)), stopper]);

    const failures = results.filter((r) => r.status < 200 || r.status >= 300 || r.bytes === 0);
    expect(failures, JSON.stringify(failures.slice(0, 5))).toEqual([]);
    expect(results.filter((r) => r.at < stoppedAt).length).toBeGreaterThan(20);
    expect(results.filter((r) => r.at > stoppedAt + 500).length).toBeGreaterThan(20);
    expect(exitCode).toBe(0);
    // Both processes had served the loop before one stopped; the other carried on alone.
    expect(servedBy(stopping)).toBeGreaterThan(before.stopping);
    expect(servedBy(staying)).toBeGreaterThan(before.staying);
    expect(nginx.errorLog()).not.toMatch(/\[(emerg|alert|crit)\]/);
  });
});

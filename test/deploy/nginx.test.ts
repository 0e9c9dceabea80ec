/**
 * deploy/nginx.conf, run by real nginx on loopback (ports, certificate and ACME webroot swapped,
 * a self-signed certificate made per run) in front of two built app processes, with the real
 * Icecast fixture behind the stream. Every assertion is about behaviour; the time limits below
 * only keep a broken setup from hanging and are generous on purpose.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect as http2Connect } from 'node:http2';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/shared/pages.ts';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { changeTitleUntilSeen, startEzstream, startIcecast, type Ezstream, type Icecast } from '../support/icecast.ts';
import { BROWSER_UA, HANG_LIMIT_MS } from '../support/http.ts';
import { DEPLOY_CONFIG, startNginx, type DeployNginx } from '../support/nginx.ts';
import { requireCommands } from '../support/system-deps.ts';
import { until } from '../support/wait.ts';

const pagePaths = pages.filter((p) => p.id !== 'notFound').map((p) => p.path);
const STREAM = '/api/stream?port=8076';

const shipped = readFileSync(DEPLOY_CONFIG, 'utf8');
const config = shipped.replace(/#.*$/gm, '');
const serverName = /server_name\s+(\S+);/.exec(config)?.[1] ?? '';
const HSTS = /add_header Strict-Transport-Security "([^"]+)"/.exec(config)?.[1] ?? '(none)';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

interface GetOptions {
  method?: string;
  headers?: Record<string, string>;
  /** The self-signed certificate to trust (https: URLs). */
  ca?: string;
  agent?: HttpsAgent;
  /** Hang guard only. */
  timeoutMs?: number;
}

/** One request with Node's http(s) client (no automatic decompression, every header visible). */
function get(url: string, options: GetOptions = {}): Promise<Reply> {
  const timeoutMs = options.timeoutMs ?? HANG_LIMIT_MS;
  const https = url.startsWith('https:');
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(
      url,
      {
        method: options.method ?? 'GET',
        headers: { 'User-Agent': BROWSER_UA, ...options.headers },
        timeout: timeoutMs,
        ...(https && { ca: options.ca, ...(options.agent && { agent: options.agent }) }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms: ${url}`)));
    req.on('error', reject);
    req.end();
  });
}

/** How many times a header was sent (Node joins repeated headers in `headers`; `rawHeaders` keeps each). */
function count(rawHeaders: string[], name: string): number {
  return rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === name).length;
}

/** The body of `location <path> { ... }` in deploy/nginx.conf. */
function locationBlock(path: string): string {
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
    const stream = locationBlock('/api/stream');
    expect(stream).toMatch(/proxy_buffering off;/);
    expect(stream).toMatch(/proxy_request_buffering off;/);
    expect(seconds(/proxy_read_timeout (\S+);/.exec(stream)?.[1])).toBeGreaterThanOrEqual(600);
  });

  it('passes the now-playing push on unbuffered, uncompressed and without a short read timeout', () => {
    const events = locationBlock('= /api/now-playing/events');
    expect(events).toMatch(/proxy_buffering off;/);
    expect(events).toMatch(/gzip off;/);
    expect(seconds(/proxy_read_timeout (\S+);/.exec(events)?.[1])).toBeGreaterThanOrEqual(600);
  });

  it('has a location for the hashed assets', () => {
    expect(locationBlock('/assets/')).toMatch(/proxy_pass|root|alias/);
  });

  it('allows TLS 1.2 and 1.3 only, and offers OCSP stapling as a commented option', () => {
    // Checked here as well as live: this OpenSSL refuses TLS 1.0/1.1 at its default security
    // level whatever nginx allows, so only the directive shows what the site asks for.
    expect(
      config
        .match(/^\s*ssl_protocols\s+([^;]+);/m)?.[1]
        ?.split(/\s+/)
        .sort(),
    ).toEqual(['TLSv1.2', 'TLSv1.3']);
    expect(shipped).toMatch(/^\s*#\s*ssl_stapling on;/m);
    expect(shipped).toMatch(/^\s*#\s*ssl_stapling_verify on;/m);
  });
});

/** One TLS handshake with Node's client; the error if nginx refused it. */
interface Handshake {
  protocol: string | null;
  cipher: string;
  alpn: string | false | null;
  ticket: Buffer | undefined;
  reused: boolean;
  session: Buffer | undefined;
}

function handshake(port: number, ca: string, options: ConnectionOptions = {}): Promise<Handshake | Error> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, ca, ...options });
    socket.setTimeout(10_000, () => socket.destroy(new Error('handshake timed out'))); // hang guard
    socket.once('secureConnect', () => {
      resolve({
        protocol: socket.getProtocol(),
        cipher: socket.getCipher().name,
        alpn: socket.alpnProtocol,
        ticket: socket.getTLSTicket(),
        reused: socket.isSessionReused(),
        session: socket.getSession(),
      });
      socket.end();
    });
    socket.once('error', (error) => resolve(error));
  });
}

/** A listener on the stream: counts body bytes, and knows when nginx ended the response. */
interface StreamListener {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  received(): number;
  /** The first MiB of the body as text. */
  text(): string;
  ended: boolean;
  close(): void;
}

/** Counts the body's bytes and keeps its first MiB as text. */
function bodyCounter() {
  let bytes = 0;
  let text = '';
  return {
    take: (c: Buffer) => {
      bytes += c.length;
      if (text.length < 1 << 20) text += c.toString('utf8');
    },
    received: () => bytes,
    text: () => text,
  };
}

function listenHttp1(url: string, ca: string): Promise<StreamListener> {
  return new Promise((resolve, reject) => {
    const body = bodyCounter();
    const req = httpsRequest(url, { ca, agent: false, headers: { 'User-Agent': BROWSER_UA } }, (res) => {
      const listener: StreamListener = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        received: body.received,
        text: body.text,
        ended: false,
        close: () => req.destroy(),
      };
      res.on('data', body.take);
      res.on('end', () => (listener.ended = true));
      res.on('error', () => {});
      resolve(listener);
    });
    req.on('error', reject);
    req.end();
  });
}

function listenHttp2(origin: string, path: string, ca: string): Promise<StreamListener> {
  return new Promise((resolve, reject) => {
    const body = bodyCounter();
    const session = http2Connect(origin, { ca });
    session.on('error', reject);
    const req = session.request({ ':path': path, 'user-agent': BROWSER_UA });
    req.on('response', (headers) => {
      const listener: StreamListener = {
        status: Number(headers[':status']),
        headers,
        received: body.received,
        text: body.text,
        ended: false,
        close: () => {
          req.close();
          session.close();
        },
      };
      req.on('data', body.take);
      req.on('end', () => {
        listener.ended = true;
        session.close();
      });
      resolve(listener);
    });
    req.on('error', reject);
    req.end();
  });
}

// No skip when nginx is missing: startNginx fails naming the Debian package (CI has it).
describe('behind nginx (deploy/nginx.conf)', () => {
  let ice: Icecast;
  let source: Ezstream;
  let apps: AppProcess[] = [];
  let nginx: DeployNginx;
  let ca: string;

  beforeAll(async () => {
    requireCommands('the nginx tests', { curl: 'curl' });
    ice = await startIcecast();
    source = await startEzstream(ice);
    const env = {
      TRUST_PROXY: 'loopback',
      // An https:// site: the app then sends HSTS itself, which nginx must not repeat.
      SITE_URL: `https://${serverName}`,
      STREAM_UPSTREAM_HOST: '127.0.0.1',
      STREAM_PORT_MAP: `8076:${ice.port}`,
      // Pages say s-maxage=0, so nginx stores none and every request here reaches an app (the
      // rolling restart, the client address); the cache has its own file, nginx-cache.test.ts.
      PAGE_S_MAXAGE: '0',
      PAGE_STALE_WHILE_REVALIDATE: '0',
    };
    // One after the other: two cold starts at once can outlast startApp's limit on a busy machine.
    apps = [await startApp(env), await startApp(env)];
    nginx = await startNginx({ upstreams: apps.map((a) => a.port) });
    ca = nginx.certificate.cert;
  }, 90_000);

  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(apps.map((a) => a.stop()));
    await source?.stop();
    await ice?.stop();
  });

  describe('port 80', () => {
    it.each(['/', '/radio', '/books?page=2&sort=new', `${STREAM}`, '/no/such/page?x=%2F'])(
      '%s redirects permanently to the same path and query on https://',
      async (path) => {
        for (const method of ['GET', 'HEAD']) {
          const res = await get(`${nginx.url}${path}`, { method });
          expect([301, 308]).toContain(res.status);
          expect(res.headers.location).toBe(`https://${serverName}${path}`);
        }
      },
    );

    it('never redirects to the Host the client sent', async () => {
      const res = await get(`${nginx.url}/about`, { headers: { Host: 'evil.example' } });
      expect(res.headers.location).toBe(`https://${serverName}/about`);
    });

    it('serves ACME challenge files from the webroot, and 404 for a missing one', async () => {
      const folder = join(nginx.acmeRoot, '.well-known', 'acme-challenge');
      mkdirSync(folder, { recursive: true, mode: 0o755 });
      const token = `token-${process.pid}-${Date.now()}`;
      writeFileSync(join(folder, token), `${token}.key-authorization`, { mode: 0o644 });

      const res = await get(`${nginx.url}/.well-known/acme-challenge/${token}`);
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe(`${token}.key-authorization`);
      const missing = await get(`${nginx.url}/.well-known/acme-challenge/not-${token}`);
      expect(missing.status).toBe(404);
    });
  });

  describe('TLS', () => {
    it('negotiates HTTP/2 (curl --http2)', () => {
      const version = execFileSync(
        'curl',
        [
          '--http2',
          '--cacert',
          nginx.certificate.certFile,
          '-sS',
          '-o',
          '/dev/null',
          '-w',
          '%{http_version}',
          '--max-time',
          '20',
          `${nginx.httpsUrl}/`,
        ],
        { encoding: 'utf8' },
      );
      expect(version).toBe('2');
    });

    it('speaks TLS 1.3, and TLS 1.2 with a forward-secret AEAD cipher', async () => {
      const tls13 = await handshake(nginx.tlsPort, ca, { ALPNProtocols: ['h2', 'http/1.1'] });
      expect(tls13).not.toBeInstanceOf(Error);
      expect(tls13).toMatchObject({ protocol: 'TLSv1.3', alpn: 'h2' });
      const tls12 = await handshake(nginx.tlsPort, ca, { maxVersion: 'TLSv1.2' });
      expect(tls12).toMatchObject({ protocol: 'TLSv1.2' });
      expect((tls12 as Handshake).cipher).toMatch(/^ECDHE-.*(GCM|CHACHA20)/);
    });

    it('refuses TLS 1.1 and TLS 1.2 with a CBC cipher', async () => {
      const old = await handshake(nginx.tlsPort, ca, {
        minVersion: 'TLSv1',
        maxVersion: 'TLSv1.1',
        ciphers: 'DEFAULT@SECLEVEL=0',
      });
      expect(old).toBeInstanceOf(Error);
      const cbc = await handshake(nginx.tlsPort, ca, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA' });
      expect(cbc).toBeInstanceOf(Error);
    });

    it('resumes sessions from its cache and issues no session tickets', async () => {
      const first = await handshake(nginx.tlsPort, ca, { maxVersion: 'TLSv1.2' });
      expect(first).not.toBeInstanceOf(Error);
      expect((first as Handshake).ticket).toBeUndefined();
      const again = await handshake(nginx.tlsPort, ca, {
        maxVersion: 'TLSv1.2',
        session: (first as Handshake).session!,
      });
      expect(again).toMatchObject({ reused: true });
      expect((again as Handshake).ticket).toBeUndefined();
    });
  });

  describe('HTTPS', () => {
    const appSecurityHeaders = [
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
    ];

    it.each(pagePaths)(
      '%s answers 200, compressed once (by the app), with one HSTS and one of each app header',
      async (path) => {
        const res = await get(`${nginx.httpsUrl}${path}`, { ca, headers: { 'Accept-Encoding': 'gzip, br' } });
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        // Exactly one coding: the app's pre-compressed gzip (the one copy nginx stores of a page,
        // for every reader) passed through, not compressed again.
        expect(res.headers['content-encoding']).toBe('gzip');
        const html = gunzipSync(res.body).toString('utf8');
        expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
        expect(html.trimEnd().endsWith('</html>')).toBe(true);
        expect(res.headers['content-security-policy']).toContain("default-src 'self'");
        expect(res.headers.server).toBe('nginx'); // server_tokens off: no version
        // nginx's HSTS, once: the app's own is hidden.
        expect(count(res.rawHeaders, 'strict-transport-security')).toBe(1);
        expect(res.headers['strict-transport-security']).toBe(HSTS);
        for (const name of appSecurityHeaders) expect(count(res.rawHeaders, name), name).toBe(1);
      },
    );

    it('serves pages over HTTP/2 too, with HSTS', async () => {
      const session = http2Connect(nginx.httpsUrl, { ca });
      try {
        const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
          const req = session.request({ ':path': '/about', 'user-agent': BROWSER_UA, 'accept-encoding': 'gzip, br' });
          req.on('response', (h) => {
            req.resume();
            req.on('end', () => resolve(h));
          });
          req.on('error', reject);
          req.end();
        });
        expect(headers[':status']).toBe(200);
        expect(headers['strict-transport-security']).toBe(HSTS);
        expect(headers['content-encoding']).toBe('gzip');
      } finally {
        session.close();
      }
    });

    it('an unknown path is a 404 page, a missing asset a plain 404, both with HSTS (always)', async () => {
      const page = await get(`${nginx.httpsUrl}/no/such/page`, { ca, headers: { 'Accept-Encoding': 'identity' } });
      expect(page.status).toBe(404);
      expect(page.body.toString()).toContain('Oops! Page not found');
      expect(page.headers['strict-transport-security']).toBe(HSTS);
      const asset = await get(`${nginx.httpsUrl}/assets/entry-MISSING.js`, { ca });
      expect(asset.status).toBe(404);
      expect(asset.body.toString()).not.toContain('<html');
      expect(asset.headers['strict-transport-security']).toBe(HSTS);
    });

    it('/api has one spelling: /API/now-playing and /Api/now-playing/events are 404, and not stored', async () => {
      for (const path of ['/API/now-playing?port=8076', '/Api/now-playing/events?port=8076']) {
        for (const round of [1, 2]) {
          const res = await get(`${nginx.httpsUrl}${path}`, { ca });
          expect(res.status, `${path} (${round})`).toBe(404);
          expect(res.headers['x-cache-status'], `${path} (${round})`).not.toBe('HIT');
        }
      }
    });

    it('passes hashed assets on with their immutable cache header', async () => {
      const home = await get(`${nginx.httpsUrl}/`, { ca, headers: { 'Accept-Encoding': 'identity' } });
      const script = /<script type="module" src="(\/assets\/[^"]+\.js)"/.exec(home.body.toString())?.[1];
      expect(script).toBeDefined();
      const res = await get(`${nginx.httpsUrl}${script}`, { ca, headers: { 'Accept-Encoding': 'gzip, br' } });
      expect(res.status).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['strict-transport-security']).toBe(HSTS);
    });

    it('logs the client address from X-Forwarded-For (clientIp)', async () => {
      // A unique query string finds our request's line in whichever process served it; the
      // second request of each pair comes from the page cache's fast lane, which logs too.
      const marker = `xff-${Date.now()}`;
      for (const path of ['/about', '/about', '/nope']) {
        const res = await get(`${nginx.httpsUrl}${path}?${marker}`, {
          ca,
          headers: { 'X-Forwarded-For': '203.0.113.7' },
        });
        expect(res.status).toBeLessThan(500);
      }
      const lines = () =>
        apps
          .flatMap((a) => a.logs)
          .filter((l) => l.includes(marker))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .filter((l) => l.msg === 'request completed');
      await expect.poll(() => lines().length).toBe(3);
      for (const line of lines()) expect(line.clientIp).toBe('203.0.113.7');
    });
  });

  it('passes a title change on as an event, over HTTP/1.1 and HTTP/2, without holding it back', async () => {
    const EVENTS = '/api/now-playing/events?port=8076';
    const clients = [
      await listenHttp1(`${nginx.httpsUrl}${EVENTS}`, ca),
      await listenHttp2(nginx.httpsUrl, EVENTS, ca),
    ];
    try {
      for (const c of clients) {
        expect(c.status).toBe(200);
        expect(c.headers['content-type']).toBe('text/event-stream; charset=utf-8');
        expect(c.headers['content-encoding']).toBeUndefined();
      }
      await until('the current state', () => clients.every((c) => c.text().includes('data: {')));
      const title = `Through nginx ${Date.now()}`;
      // One event of a few hundred bytes: a buffering proxy would hold it until its buffer filled.
      const ms = await changeTitleUntilSeen(ice, title, () =>
        clients.every((c) => c.text().includes(JSON.stringify(title))),
      );
      console.log(`title change through nginx (HTTP/1.1 and HTTP/2) after ${ms.toFixed(0)} ms`);
    } finally {
      for (const c of clients) c.close();
    }
  }, 90_000);

  it('relays the live stream over HTTP/1.1 and HTTP/2 without holding bytes back', async () => {
    const listeners = [
      await listenHttp1(`${nginx.httpsUrl}${STREAM}`, ca),
      await listenHttp2(nginx.httpsUrl, STREAM, ca),
    ];
    try {
      for (const l of listeners) {
        expect(l.status).toBe(200);
        expect(l.headers['content-type']).toBe('audio/mpeg');
        expect(l.headers['content-encoding']).toBeUndefined();
        expect(l.headers['content-length']).toBeUndefined();
        expect(l.headers['strict-transport-security']).toBe(HSTS);
      }
      // Past Icecast's 64 KB burst: audio is flowing in real time.
      await until('audio past the burst', () => listeners.every((l) => l.received() > 96_000));

      // Pause the source: nothing new enters the chain. An unbuffered relay has then delivered
      // every byte the app wrote; a buffering one keeps a partly filled buffer until the end.
      process.kill(source.pid, 'SIGSTOP');
      let last = listeners.map((l) => l.received());
      let quietSince = Date.now();
      // Quiet for 3 s (within Icecast's 10 s source timeout): a wait long enough for anything in
      // flight to land on a busy machine, not a speed requirement.
      await until('the listeners to go quiet', () => {
        const now = listeners.map((l) => l.received());
        if (now.some((n, i) => n !== last[i])) [last, quietSince] = [now, Date.now()];
        return Date.now() - quietSince >= 3_000;
      });
      expect(listeners.some((l) => l.ended)).toBe(false);
      const delivered = listeners.map((l) => l.received());

      // End the source: Icecast ends the mount, the app ends its responses, nginx ends ours, and
      // would now flush whatever it had held back.
      process.kill(source.pid, 'SIGKILL');
      await until('the responses to end', () => listeners.every((l) => l.ended));
      expect(listeners.map((l) => l.received())).toEqual(delivered);
    } finally {
      for (const l of listeners) l.close();
    }
  }, 90_000);

  it('loses no request while one app process stops (SIGTERM) under a steady request loop', async () => {
    const [stopping, staying] = apps as [AppProcess, AppProcess];
    const servedBy = (app: AppProcess) => app.logs.filter((l) => l.includes('"msg":"request completed"')).length;
    const agent = new HttpsAgent({ keepAlive: true, ca, maxSockets: 6 });
    const start = { stopping: servedBy(stopping), staying: servedBy(staying) };

    // Phases by request counts, not by time: enough requests before the stop, during it, and
    // after the process has exited, whatever the speed of the machine.
    type Phase = 'before' | 'stopping' | 'after';
    let phase: Phase = 'before';
    const results: Array<{ phase: Phase; status: number; error?: string; bytes: number }> = [];
    const inPhase = (p: Phase) => results.filter((r) => r.phase === p).length;
    let finished = false;
    const loop = async (worker: number) => {
      for (let i = 0; !finished && i < 5_000; i++) {
        const path = pagePaths[(worker + i) % pagePaths.length]!;
        const at = phase;
        try {
          const res = await get(`${nginx.httpsUrl}${path}`, { ca, agent, headers: { 'Accept-Encoding': 'gzip, br' } });
          results.push({ phase: at, status: res.status, bytes: res.body.length });
        } catch (error) {
          results.push({ phase: at, status: 0, error: String(error), bytes: 0 });
        }
      }
    };
    let exitCode: number | null = null;
    let servedBeforeStop = { stopping: 0, staying: 0 };
    const conductor = (async () => {
      try {
        await until('requests before the stop', () => inPhase('before') >= 60);
        servedBeforeStop = { stopping: servedBy(stopping), staying: servedBy(staying) };
        phase = 'stopping';
        exitCode = await stopping.stop('SIGTERM');
        phase = 'after';
        await until('requests after the exit', () => inPhase('after') >= 60);
      } finally {
        finished = true;
      }
    })();
    await Promise.all([...Array.from({ length: 6 }, (_, w) => loop(w)), conductor]);
    agent.destroy();

    const failures = results.filter((r) => r.status < 200 || r.status >= 300 || r.bytes === 0);
    expect(failures, JSON.stringify(failures.slice(0, 5))).toEqual([]);
    expect(exitCode).toBe(0);
    // Both processes served the loop before one stopped; the other carried on alone.
    expect(servedBeforeStop.stopping).toBeGreaterThan(start.stopping);
    expect(servedBeforeStop.staying).toBeGreaterThan(start.staying);
    expect(inPhase('after')).toBeGreaterThanOrEqual(60);
    expect(servedBy(staying)).toBeGreaterThan(servedBeforeStop.staying);
    expect(nginx.errorLog()).not.toMatch(/\[(emerg|alert|crit)\]/);
  }, 120_000);
});

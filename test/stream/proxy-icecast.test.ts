/**
 * /api/stream against a real Icecast 2 fed by ezstream (test/support/icecast.ts),
 * through the real Express app on a real socket.
 */
import { request } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findFrameSync, frameHeaderAt, splitFrames } from '../../src/server/audio/mp3-frames.ts';
import { startEzstream, startIcecast, type Ezstream, type Icecast } from '../support/icecast.ts';
import { captureLogger } from '../support/test-app.ts';
import { until } from '../support/wait.ts';
import { fetchAll, NEVER_IDLE_MS, openStream, startProxyApp, type OpenStream, type ProxyApp } from './helpers.ts';

const BYTES_PER_SECOND = 128_000 / 8; // the test tone is 128 kbps CBR
const STREAM = '/api/stream?port=8076';

let ice: Icecast;
let source: Ezstream;
let limitedSource: Ezstream;
let app: ProxyApp;
const open: OpenStream[] = [];

async function listen(url: string, options: Parameters<typeof openStream>[1] = {}): Promise<OpenStream> {
  const stream = await openStream(url, options);
  open.push(stream);
  return stream;
}

beforeAll(async () => {
  ice = await startIcecast({
    clients: 300,
    // Icecast repeats Access-Control-Allow-Origin when both the server and the mount set it.
    headers: { 'Access-Control-Allow-Origin': '*' },
    mounts: [
      {
        name: '/stream',
        // An internal address, as operators' Icecast configs often give it.
        headers: { 'Access-Control-Allow-Origin': 'http://icecast.example', 'icy-url': 'http://10.0.0.5:8000/' },
      },
      { name: '/limited', maxListeners: 1 },
    ],
  });
  source = await startEzstream(ice);
  limitedSource = await startEzstream(ice, { mount: '/limited' });
  // Never idle: a listener's response ends only because the listener or Icecast ended it.
  app = await startProxyApp({
    upstreamPorts: { 8076: ice.port },
    mount: '/stream',
    maxListenersPerClient: 100,
    idleTimeoutMs: NEVER_IDLE_MS,
  });
});

// A failed assertion must not leave a listener behind to skew the next test's counts.
afterEach(() => {
  for (const s of open.splice(0)) s.destroy();
});

afterAll(async () => {
  await app?.close();
  await source?.stop();
  await limitedSource?.stop();
  await ice?.stop();
});

describe('audio through the proxy', () => {
  it('keeps flowing after the initial burst, as MP3 frames', async () => {
    const stream = await listen(`${app.url}${STREAM}`);
    expect(stream.status).toBe(200);
    // Icecast's burst (64 KB), then two seconds of audio more: it flows on in real time.
    await stream.waitForBytes(64 * 1024 + 2 * BYTES_PER_SECOND);
    const a = stream.received();
    const t0 = performance.now();
    await stream.waitForBytes(a + 2 * BYTES_PER_SECOND);
    // A figure, not a check: the rate depends on how busy the machine is.
    console.log(`stream rate ${((stream.received() - a) / ((performance.now() - t0) / 1000) / 1000).toFixed(1)} kB/s`);

    // Icecast's burst starts mid-frame; the proxy starts the listener on a frame boundary.
    const body = stream.body();
    expect(findFrameSync(body, 0, 20)).toBe(0);
    expect(frameHeaderAt(body, 0)).toMatchObject({ bitrateKbps: 128, sampleRate: 44_100 });
    // Every byte relayed intact: the whole body is one unbroken run of frames (the last may be partial).
    const whole = splitFrames(body).reduce((n, f) => n + f.length, 0);
    expect(body.length - whole).toBeLessThan(frameHeaderAt(body, 0)!.length);
    stream.destroy();
  });

  it('sends the stream headers: type, icy-*, no-store, no buffering; not Server, Connection, icy-url or ACAO', async () => {
    const stream = await listen(`${app.url}${STREAM}`, {
      headers: { 'Icy-MetaData': '1', Range: 'bytes=0-', Connection: 'keep-alive' },
    });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('audio/mpeg');
    expect(stream.headers['cache-control']).toBe('no-store');
    expect(stream.headers['x-accel-buffering']).toBe('no');
    expect(stream.headers['icy-name']).toBe('Test Station');
    expect(stream.headers['icy-pub']).toBe('0');
    expect(stream.headers.server).toBeUndefined();
    // Ours (the body ends with the connection, as Icecast's does), not Icecast's "Connection: Close".
    const connection = stream.rawHeaders.filter(
      (_, i) => i % 2 === 1 && stream.rawHeaders[i - 1]!.toLowerCase() === 'connection',
    );
    expect(connection).toEqual(['close']);
    expect(stream.headers.expires).toBeUndefined();
    expect(stream.headers.pragma).toBeUndefined();
    expect(stream.headers['content-length']).toBeUndefined();
    // Our own Cross-Origin-Resource-Policy stands; the upstream's CORS and internal URL stay there.
    expect(stream.headers['access-control-allow-origin']).toBeUndefined();
    expect(stream.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(stream.headers['icy-url']).toBeUndefined();
    // Range and Icy-MetaData stay here: a plain 200 live stream, no metadata interleaved.
    expect(stream.headers['content-range']).toBeUndefined();
    expect(stream.headers['icy-metaint']).toBeUndefined();
    await stream.waitForBytes(32 * 1024);
    expect(findFrameSync(stream.body(), 0, 20)).toBeGreaterThanOrEqual(0);
    stream.destroy();
  });

  it('never compresses, even when the client asks for gzip', async () => {
    const stream = await listen(`${app.url}${STREAM}`, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-encoding']).toBeUndefined();
    await stream.waitForBytes(16 * 1024);
    const body = stream.body();
    expect(body[0] === 0x1f && body[1] === 0x8b).toBe(false);
    expect(findFrameSync(body, 0, 20)).toBeGreaterThanOrEqual(0);
    stream.destroy();
  });

  it('answers HEAD with the headers GET sends, without opening an Icecast listener', async () => {
    const before = await ice.waitForListeners(0);
    const head = await fetchAll(`${app.url}${STREAM}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe('audio/mpeg');
    expect(head.headers['cache-control']).toBe('no-store');
    // No slot here, and no listener held upstream: Icecast's count settles back to where it was (its
    // stats lag behind connections, and a straggler from an earlier test may pass through meanwhile;
    // a listener the HEAD held open would keep the count up and fail this).
    expect(app.streams.activeListeners).toBe(0);
    expect(await ice.waitForListeners(before)).toBe(before);

    const get = await listen(`${app.url}${STREAM}`);
    get.destroy();
    const again = await fetchAll(`${app.url}${STREAM}`, { method: 'HEAD' });
    const { date: _d1, ...headHeaders } = again.headers;
    const { date: _d2, ...getHeaders } = get.headers;
    expect(headHeaders).toEqual(getHeaders);
  });

  it('answers OPTIONS with 405, like every other path', async () => {
    for (const path of [STREAM, '/api/now-playing?port=8076']) {
      const res = await fetchAll(`${app.url}${path}`, { method: 'OPTIONS' });
      expect(res.status, path).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
    }
    expect(app.streams.activeListeners).toBe(0);
  });

  it('opens one Icecast connection per mount, whatever the number of listeners, and closes it after the last', async () => {
    await ice.waitForListeners(0);
    const streams = [];
    for (let i = 0; i < 3; i++) streams.push(await listen(`${app.url}${STREAM}`));
    for (const stream of streams) await stream.waitForBytes(16 * 1024);
    expect(app.streams.activeListeners).toBe(3);
    // Icecast's stats lag: one listener of our own, straight to Icecast, is counted after any second
    // connection of the app's would have been, so the count then says whether there was one.
    const direct = await listen(`${ice.url}/stream`);
    expect(await ice.waitForListeners(2)).toBe(2);
    direct.destroy();
    expect(await ice.waitForListeners(1)).toBe(1);
    // A listener who comes later starts at once from the burst, MP3 frames from its first byte.
    const late = await listen(`${app.url}${STREAM}`);
    await late.waitForBytes(16 * 1024);
    expect(findFrameSync(late.body(), 0, 3)).toBe(0);
    streams[0]!.destroy();
    await until('the first listener to leave', () => app.streams.activeListeners === 3);
    expect(await ice.listeners()).toBe(1);
    for (const stream of [...streams, late]) stream.destroy();
    expect(await ice.waitForListeners(0)).toBe(0);
  });
});

describe('now playing', () => {
  it("reports the title and listener count from Icecast's status", async () => {
    const other = await startProxyApp({ upstreamPorts: { 8076: ice.port }, statusCacheMs: 500 });
    try {
      await ice.waitForListeners(0);
      const stream = await listen(`${other.url}${STREAM}`);
      await stream.waitForBytes(1);
      await ice.waitForListeners(1);
      const res = await fetchAll(`${other.url}/api/now-playing?port=8076`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ live: true, title: 'icecast-test-tone-128k-10s', listeners: 1 });
    } finally {
      await other.close();
    }
  });
});

describe('bad port requests', () => {
  // (A target with a fragment, `?port=8076#frag`, is the front door's own 400: framing.ts.)
  const cases = [
    '/api/stream',
    '/api/stream?',
    '/api/stream?port',
    '/api/stream?port=',
    '/api/stream?port=abc',
    '/api/stream?port=8077',
    '/api/stream?port=80',
    '/api/stream?port=0',
    '/api/stream?port=65536',
    '/api/stream?port=80760',
    '/api/stream?port=99999999999999999999',
    '/api/stream?port=8076&port=8076',
    '/api/stream?port=8076&port=8077',
    '/api/stream?port=8076,8077',
    '/api/stream?port=8076;port=8077',
    '/api/stream?port[]=8076',
    '/api/stream?port[0]=8076',
    '/api/stream?PORT=8076',
    '/api/stream?p%6Frt=8076',
    '/api/stream?port=+8076',
    '/api/stream?port=-8076',
    '/api/stream?port=%2B8076',
    '/api/stream?port=08076',
    '/api/stream?port=0008076',
    '/api/stream?port=8076.0',
    '/api/stream?port=8076e0',
    '/api/stream?port=0x1F8C',
    '/api/stream?port=%38076',
    '/api/stream?port=%3880%376',
    '/api/stream?port=8076%00',
    '/api/stream?port=8076%20',
    '/api/stream?port=%208076',
    '/api/stream?port=8076%0d%0aX:1',
    '/api/stream?port=%EF%BC%98%EF%BC%90%EF%BC%97%EF%BC%96',
    '/api/stream?port=8076&',
    '/api/stream?&port=8076',
    '/api/stream?port=8076&x=1',
    '/api/stream?x=1&port=8076',
    '/api/stream?port=8076/../../admin',
    '/api/stream?port=8076@evil.example',
    '/api/stream?port=http://127.0.0.1:8076',
  ];

  it('answers 400 with the same short text for every case, opening no Icecast listener', async () => {
    const before = await ice.waitForListeners(0);
    const bodies = new Set<string>();
    for (const path of cases) {
      const get = await fetchAll(`${app.url}${path}`);
      const head = await fetchAll(`${app.url}${path}`, { method: 'HEAD' });
      for (const res of [get, head]) {
        expect(res.status, path).toBe(400);
        expect(res.headers['cache-control'], path).toBe('no-store');
      }
      // HEAD says what GET would send, its length included.
      expect(head.headers['content-length'], path).toBe(get.headers['content-length']);
      bodies.add(get.text);
    }
    expect([...bodies]).toEqual(['Invalid stream request']);
    expect(app.streams.activeListeners).toBe(0);
    // Icecast's count settles back where it was: none of these reached it (see the HEAD test).
    expect(await ice.waitForListeners(before)).toBe(before);
  });
});

describe('listeners come and go', () => {
  it('releases the Icecast listener when the listener disconnects', async () => {
    await ice.waitForListeners(0);
    const stream = await listen(`${app.url}${STREAM}`);
    await stream.waitForBytes(1);
    expect(await ice.waitForListeners(1)).toBe(1);
    const t0 = performance.now();
    stream.destroy();
    // The audio never stops and the proxy is never idle: only the disconnect can release it.
    expect(await ice.waitForListeners(0)).toBe(0);
    console.log(`Icecast listener released ${(performance.now() - t0).toFixed(0)} ms after the disconnect`);
  });

  it('after thousands of connect and disconnect cycles, Icecast is back to its listener count', async () => {
    const baseline = await ice.waitForListeners(0);
    const total = Number(process.env.STREAM_CYCLES ?? 2_000);
    const t0 = performance.now();
    let started = 0;
    const finished = { early: 0, headers: 0, audio: 0 };
    const errors: string[] = [];
    const { hostname, port } = new URL(app.url);
    // Listeners leave at every stage: before the upstream answered, right after the headers, mid-audio.
    const cycle = (stage: number) =>
      new Promise<void>((resolve) => {
        const req = request({ hostname, port, path: STREAM, agent: false });
        let left = false;
        const done = (what: keyof typeof finished) => {
          if (left) return;
          left = true;
          finished[what] += 1;
          req.destroy();
          resolve();
        };
        req.on('error', (e) => {
          if (left) return; // our own destroy() before the response: "socket hang up"
          left = true;
          errors.push(e.message);
          resolve();
        });
        req.on('response', (res) => {
          if (res.statusCode !== 200) errors.push(`status ${res.statusCode}`);
          if (stage === 1) return done('headers');
          res.once('data', () => done('audio'));
        });
        req.end();
        if (stage === 0) setTimeout(() => done('early'), Math.floor(Math.random() * 30));
      });
    // 16 at a time: enough to hide Icecast's ~250 ms before first audio, few enough for its listen backlog of 5.
    const worker = async () => {
      while (started < total) {
        await cycle(started++ % 3);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const cycles = finished.early + finished.headers + finished.audio;
    expect(errors.slice(0, 5)).toEqual([]);
    expect(cycles).toBe(total);
    expect(await ice.waitForListeners(baseline)).toBe(baseline);
    expect(app.streams.activeListeners).toBe(0);
    const seconds = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(`stream cycles: ${cycles} in ${seconds} s (${JSON.stringify(finished)}); Icecast back to ${baseline}`);
  }, 300_000);
});

describe('Icecast refusing a listener', () => {
  it('maps a missing mount (404) to 503 with Retry-After and no-store, without Icecast HTML', async () => {
    const other = await startProxyApp({ upstreamPorts: { 8076: ice.port }, mount: '/no-such-mount' });
    try {
      const res = await fetchAll(`${other.url}${STREAM}`);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toBe('Stream temporarily unavailable');
      expect(res.headers.server).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it("maps Icecast's listener limit (403) to 503 with Retry-After and no-store", async () => {
    const other = await startProxyApp({ upstreamPorts: { 8076: ice.port }, mount: '/limited' });
    try {
      // The mount's one listener slot is taken at Icecast itself (our listeners share one connection).
      const first = await listen(`http://127.0.0.1:${ice.port}/limited`);
      expect(first.status).toBe(200);
      await first.waitForBytes(1);
      const res = await fetchAll(`${other.url}${STREAM}`);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toBe('Stream temporarily unavailable');
      expect(res.text).not.toMatch(/max listeners/i);
      first.destroy();
    } finally {
      await other.close();
    }
  });
});

describe('listener caps', () => {
  it('answers 503 with Retry-After beyond the per-client and per-process caps, without reaching Icecast', async () => {
    const capped = await startProxyApp({
      upstreamPorts: { 8076: ice.port },
      maxListeners: 3,
      maxListenersPerClient: 2,
    });
    try {
      await ice.waitForListeners(0);
      const a = await listen(`${capped.url}${STREAM}`, { localAddress: '127.0.0.1' });
      const b = await listen(`${capped.url}${STREAM}`, { localAddress: '127.0.0.1' });
      expect([a.status, b.status]).toEqual([200, 200]);

      const thirdFromSameClient = await fetchAll(`${capped.url}${STREAM}`, { localAddress: '127.0.0.1' });
      expect(thirdFromSameClient.status).toBe(503);
      expect(thirdFromSameClient.headers['retry-after']).toMatch(/^\d+$/);
      expect(thirdFromSameClient.headers['cache-control']).toBe('no-store');

      const otherClient = await listen(`${capped.url}${STREAM}`, { localAddress: '127.0.0.2' });
      expect(otherClient.status).toBe(200);

      const overProcessCap = await fetchAll(`${capped.url}${STREAM}`, { localAddress: '127.0.0.3' });
      expect(overProcessCap.status).toBe(503);
      expect(overProcessCap.headers['retry-after']).toMatch(/^\d+$/);

      // Three listeners served through one Icecast connection; the refused ones reached nothing.
      expect(capped.streams.activeListeners).toBe(3);
      expect(await ice.waitForListeners(1)).toBe(1);
      // Icecast's stats lag: one listener of our own, straight to Icecast, is counted after any the
      // refused requests had opened, so the count then says whether they reached it.
      const direct = await listen(`${ice.url}/stream`);
      expect(direct.status).toBe(200);
      expect(await ice.waitForListeners(2)).toBe(2);

      // A slot comes back when its listener leaves.
      a.destroy();
      await until('a slot to come back', () => capped.streams.activeListeners === 2);
      const again = await listen(`${capped.url}${STREAM}`, { localAddress: '127.0.0.3' });
      expect(again.status).toBe(200);
      for (const s of [b, otherClient, again, direct]) s.destroy();
      expect(await ice.waitForListeners(0)).toBe(0);
    } finally {
      await capped.close();
    }
  });
});

describe('what refusals write to the log', () => {
  it('logs listener-cap 503s as warnings without a stack, one line per request', async () => {
    const { logger, lines } = captureLogger();
    const capped = await startProxyApp({ upstreamPorts: { 8076: ice.port }, maxListenersPerClient: 1 }, {}, logger);
    try {
      const first = await listen(`${capped.url}${STREAM}`);
      expect(first.status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await fetchAll(`${capped.url}${STREAM}`)).status).toBe(503);
      // Lines are written as responses close: once a later request's line is in, theirs are too.
      expect((await fetchAll(`${capped.url}/api/stream?port=1`)).status).toBe(400);
      await until('the later request’s line', () =>
        lines().some((l) => (l.req as { url?: string } | undefined)?.url === '/api/stream?port=1'),
      );
      const refusals = lines().filter((l) => (l.res as { statusCode?: number } | undefined)?.statusCode === 503);
      expect(refusals).toHaveLength(5);
      for (const line of refusals) {
        expect(line.level).toBe(40);
        expect(JSON.stringify(line)).not.toContain('stack');
      }
      expect(lines().filter((l) => (l.level as number) >= 50)).toEqual([]);
      first.destroy();
    } finally {
      await capped.close();
    }
  });

  it('says once that the mount is missing, not once per listener', async () => {
    const { logger, lines } = captureLogger();
    const other = await startProxyApp({ upstreamPorts: { 8076: ice.port }, mount: '/no-such-mount' }, {}, logger);
    try {
      for (let i = 0; i < 5; i++) expect((await fetchAll(`${other.url}${STREAM}`)).status).toBe(503);
      const own = lines().filter((l) => l.res === undefined);
      expect(own.map((l) => [l.level, l.msg])).toEqual([[40, 'stream upstream has no source (or is full)']]);
    } finally {
      await other.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('closeAll ends open listener responses and refuses new ones', async () => {
    const other = await startProxyApp({ upstreamPorts: { 8076: ice.port } });
    try {
      const stream = await listen(`${other.url}${STREAM}`);
      await stream.waitForBytes(1);
      other.streams.closeAll();
      await stream.ended;
      const after = await fetchAll(`${other.url}${STREAM}`);
      expect(after.status).toBe(503);
      expect(await ice.waitForListeners(0)).toBe(0);
    } finally {
      await other.close();
    }
  });
});

// Last: it stops and restarts the source.
describe('the source stopping mid-stream', () => {
  it('ends the listener response, keeps the server healthy, and serves audio again once the source is back', async () => {
    const stream = await listen(`${app.url}${STREAM}`);
    await stream.waitForBytes(70 * 1024);
    await source.stop();
    // The proxy is never idle (see beforeAll): the response ends because Icecast ended the listener.
    await stream.ended;

    const health = await fetchAll(`${app.url}/healthz`);
    expect(health.status).toBe(200);
    await ice.waitForMountGone('/stream');
    const gone = await fetchAll(`${app.url}${STREAM}`);
    expect(gone.status).toBe(503);
    expect(gone.headers['retry-after']).toMatch(/^\d+$/);

    source = await startEzstream(ice);
    const next = await listen(`${app.url}${STREAM}`);
    expect(next.status).toBe(200);
    await next.waitForBytes(32 * 1024);
    expect(findFrameSync(next.body(), 0, 20)).toBeGreaterThanOrEqual(0);
    next.destroy();
  });
});

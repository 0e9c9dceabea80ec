/**
 * /api/stream when the upstream misbehaves, with local fake upstreams that do
 * exactly one bad thing each: refuse, hang, stall, reset, redirect, fail.
 */
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../support/app-process.ts';
import { rawExchange, statusOf } from '../support/raw-http.ts';
import { captureLogger } from '../support/test-app.ts';
import { sleep, until } from '../support/wait.ts';
import {
  connectionsBeforeOurs,
  fetchAll,
  NEVER_IDLE_MS,
  openStream,
  startFakeUpstream,
  startProxyApp,
  startSilentUpstream,
  type FakeUpstream,
  type ProxyApp,
  type TcpProbe,
} from './helpers.ts';

const STREAM = '/api/stream?port=8076';
const cleanup: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function appFor(
  upstreamPort: number,
  overrides: Parameters<typeof startProxyApp>[0] = {},
  env: Record<string, string> = {},
): Promise<ProxyApp> {
  const app = await startProxyApp({ upstreamPorts: { 8076: upstreamPort }, ...overrides }, env);
  cleanup.push(() => app.close());
  return app;
}

async function fake(handler: Parameters<typeof startFakeUpstream>[0]): Promise<FakeUpstream> {
  const upstream = await startFakeUpstream(handler);
  cleanup.push(() => upstream.close());
  return upstream;
}

/** A TCP upstream that writes whatever the test scripts, as Icecast writes its HTTP/1.0 answer. */
async function rawUpstream(onRequest: (socket: Socket) => void): Promise<{ port: number; readonly open: number }> {
  const connections = new Set<Socket>();
  const server = createTcpServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => onRequest(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  cleanup.push(
    () =>
      new Promise<void>((resolve) => {
        for (const c of connections) c.destroy();
        server.close(() => resolve());
      }),
  );
  return {
    port: (server.address() as AddressInfo).port,
    get open() {
      return connections.size;
    },
  };
}

interface Scripted {
  port: number;
  /** Resolves when the proxy's request has arrived and the headers are out. */
  connected: Promise<void>;
  send(bytes: Buffer): void;
  end(): void;
  reset(): void;
  /** Upstream sockets still open. */
  readonly open: number;
}

/** An upstream the test drives by hand, answering as Icecast does (HTTP/1.0, close-delimited) or chunked. */
async function scripted(kind: 'icecast' | 'chunked'): Promise<Scripted> {
  let socket: Socket | undefined;
  let res: import('node:http').ServerResponse | undefined;
  let ready!: () => void;
  const connected = new Promise<void>((resolve) => (ready = resolve));
  let port: number;
  let open: () => number;
  if (kind === 'icecast') {
    const upstream = await rawUpstream((s) => {
      socket = s;
      s.write('HTTP/1.0 200 OK\r\nContent-Type: audio/aac\r\n\r\n');
      ready();
    });
    port = upstream.port;
    open = () => upstream.open;
  } else {
    const upstream = await fake((_req, r) => {
      audioHeaders(r);
      res = r;
      socket = r.socket ?? undefined;
      ready();
    });
    port = upstream.port;
    open = () => upstream.open;
  }
  return {
    port,
    connected,
    send: (bytes) => void (res ? res.write(bytes) : socket!.write(bytes)),
    end: () => void (res ? res.end() : socket!.end()),
    reset: () => void socket!.resetAndDestroy(),
    get open() {
      return open();
    },
  };
}

async function silent(): Promise<TcpProbe> {
  const probe = await startSilentUpstream();
  cleanup.push(() => probe.close());
  return probe;
}

/**
 * A fake Icecast's response headers. Opaque bytes by default: an audio/mpeg stream is held back
 * until its first frame (tested on its own below), which would get in the way of byte counting.
 */
function audioHeaders(res: import('node:http').ServerResponse, type = 'audio/aac'): void {
  res.writeHead(200, { 'Content-Type': type, Server: 'FakeCast', 'icy-name': 'Fake' });
  res.flushHeaders();
}

describe('upstream down or hanging', () => {
  it('answers 502 (not a timeout) when the upstream refuses connections', async () => {
    const app = await appFor(await freePort()); // nothing listens there
    const res = await fetchAll(`${app.url}${STREAM}`);
    expect(res.status).toBe(502);
    expect(res.text).toBe('Stream upstream error');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(app.streams.activeListeners).toBe(0);
  });

  it('answers 504 after the configured timeout when the upstream accepts and never answers, and lets go of it', async () => {
    const hung = await silent();
    const app = await appFor(hung.port, { connectTimeoutMs: 800 });
    const res = await fetchAll(`${app.url}${STREAM}`);
    expect(res.status).toBe(504);
    // Not before the timeout (a busy machine can only make it later).
    expect(res.ms).toBeGreaterThanOrEqual(750);
    expect(res.text).toBe('Stream upstream timed out');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(hung.connections).toBe(1);
    await expect.poll(() => hung.open).toBe(0);
    expect(app.streams.activeListeners).toBe(0);
  });
});

describe('upstream answers that are not audio', () => {
  it('does not follow a redirect, and answers 502', async () => {
    const elsewhere = await silent();
    const upstream = await fake((_req, res) => {
      res.writeHead(302, { Location: `http://127.0.0.1:${elsewhere.port}/stream` }).end('moved');
    });
    const app = await appFor(upstream.port);
    const res = await fetchAll(`${app.url}${STREAM}`);
    expect(res.status).toBe(502);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toBe('Stream upstream error');
    // A proxy that followed the redirect would have connected before answering: before our own connection.
    expect(await connectionsBeforeOurs(elsewhere)).toBe(0);
  });

  it('never echoes the upstream error text', async () => {
    const upstream = await fake((_req, res) => {
      res
        .writeHead(500, { 'Content-Type': 'text/html', Server: 'FakeCast' })
        .end('<h1>secret internal path /etc/icecast</h1>');
    });
    const app = await appFor(upstream.port);
    const res = await fetchAll(`${app.url}${STREAM}`);
    expect(res.status).toBe(502);
    expect(res.text).toBe('Stream upstream error');
    expect(res.headers.server).toBeUndefined();
  });
});

describe('only audio is relayed', () => {
  it.each(['text/html; charset=utf-8', 'application/octet-stream', 'image/svg+xml', undefined])(
    'refuses an upstream answering 200 with %s: 502, no byte of its body',
    async (type) => {
      const upstream = await fake((_req, res) => {
        res.writeHead(200, type ? { 'Content-Type': type } : {});
        res.write('<script>alert(document.cookie)</script>');
      });
      const app = await appFor(upstream.port);
      const res = await fetchAll(`${app.url}${STREAM}`);
      expect(res.status).toBe(502);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.text).toBe('Stream upstream error');
      const head = await fetchAll(`${app.url}${STREAM}`, { method: 'HEAD' });
      expect(head.status).toBe(502);
    },
  );
});

describe('what an outage writes to the log', () => {
  it('an upstream answering text/html under 20 listeners: one error line (the state change), the 502s warnings', async () => {
    const upstream = await fake((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1>It works!</h1>');
    });
    const { logger, lines } = captureLogger();
    const app = await startProxyApp({ upstreamPorts: { 8076: upstream.port } }, {}, logger);
    cleanup.push(() => app.close());
    const answers = await Promise.all(Array.from({ length: 20 }, () => fetchAll(`${app.url}${STREAM}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(502));
    // Lines are written as responses close: once a later request's line is in, theirs are too.
    expect((await fetchAll(`${app.url}/api/stream?port=1`)).status).toBe(400);
    await until('the later request’s line', () =>
      lines().some((l) => (l.req as { url?: string } | undefined)?.url === '/api/stream?port=1'),
    );
    const requestLines = lines().filter((l) => (l.res as { statusCode?: number } | undefined)?.statusCode === 502);
    expect(requestLines.map((l) => l.level)).toEqual(Array(20).fill(40));
    const errors = lines().filter((l) => (l.level as number) >= 50);
    expect(errors.map((l) => l.msg)).toEqual(['stream upstream unreachable or not sending audio']);
  });
});

describe('per-client cap', () => {
  it('counts one IPv6 /64 as one client: 40 listeners from one /64 behind a trusted proxy, 8 served', async () => {
    const upstream = await fake((_req, res) => {
      audioHeaders(res);
      res.write(Buffer.alloc(1024, 1));
    });
    const app = await appFor(upstream.port, { maxListenersPerClient: 8 }, { TRUST_PROXY: 'loopback' });
    const from = (address: string) => openStream(`${app.url}${STREAM}`, { headers: { 'X-Forwarded-For': address } });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => from(`2001:db8:42:7:${i.toString(16)}::1`)));
    const served = answers.filter((a) => a.status === 200);
    expect(served).toHaveLength(8);
    expect(answers.filter((a) => a.status === 503)).toHaveLength(32);
    // Another /64 of the same /48 is another client.
    const neighbour = await from('2001:db8:42:8::1');
    expect(neighbour.status).toBe(200);
    for (const a of [...answers, neighbour]) a.destroy();
    await until('every listener to be gone', () => app.streams.activeListeners === 0);
  });
});

describe('what the upstream is asked', () => {
  it('requests exactly the configured mount, without the query or the client headers it must not see', async () => {
    const upstream = await fake((_req, res) => {
      audioHeaders(res);
      res.write(Buffer.alloc(1024, 1));
    });
    const app = await appFor(upstream.port, { mount: '/live.mp3' });
    const stream = await openStream(`${app.url}${STREAM}`, {
      headers: {
        Range: 'bytes=0-',
        'Icy-MetaData': '1',
        Cookie: 'session=secret',
        Authorization: 'Bearer secret',
        'X-Forwarded-For': '203.0.113.9',
        Referer: 'http://127.0.0.1/radio',
        'User-Agent': 'radio-test',
      },
    });
    expect(stream.status).toBe(200);
    await stream.waitForBytes(1024);
    stream.destroy();
    expect(upstream.requests).toHaveLength(1);
    const seen = upstream.requests[0]!;
    expect(seen.method).toBe('GET');
    expect(seen.url).toBe('/live.mp3');
    for (const header of ['range', 'icy-metadata', 'cookie', 'authorization', 'x-forwarded-for', 'referer']) {
      expect(seen.headers[header], header).toBeUndefined();
    }
    // The upstream connection is the process's, shared by its listeners: it names the relay, not a listener.
    expect(seen.headers['user-agent']).toBe('chicago-city-news-relay');
    expect(seen.headers.host).toBe(`127.0.0.1:${upstream.port}`);
  });

  it('opens no upstream socket for bad ports or a request with a body', async () => {
    const probe = await silent();
    const app = await appFor(probe.port);
    for (const path of [
      '/api/stream',
      '/api/stream?port=8077',
      '/api/stream?port=08076',
      '/api/stream?port=8076&port=8076',
    ]) {
      expect((await fetchAll(`${app.url}${path}`)).status).toBe(400);
    }
    const withBody = await fetchAll(`${app.url}${STREAM}`, {
      headers: { 'Content-Length': '0', 'Transfer-Encoding': 'chunked' },
    });
    expect(withBody.status).toBe(400);
    // An upstream socket opened for any of them would have been accepted before our own connection.
    expect(await connectionsBeforeOurs(probe)).toBe(0);
  });
});

describe('streaming', () => {
  it('passes non-MP3 audio through byte for byte, uncompressed even when the client accepts gzip', async () => {
    // Highly compressible bytes: any compression on the way would show.
    const payload = Buffer.alloc(64 * 1024, 0);
    const upstream = await fake((_req, res) => {
      audioHeaders(res, 'audio/aac');
      res.write(payload);
    });
    const app = await appFor(upstream.port);
    const stream = await openStream(`${app.url}${STREAM}`, { headers: { 'Accept-Encoding': 'gzip, br' } });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('audio/aac');
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.headers.server).toBeUndefined();
    expect(stream.headers['x-accel-buffering']).toBe('no');
    await stream.waitForBytes(payload.length);
    expect(stream.body().equals(payload)).toBe(true);
    stream.destroy();
  });

  it('starts an MP3 stream on a frame boundary, dropping only the partial frame before it', async () => {
    // Three 128 kbps / 44.1 kHz frames (417 bytes each), preceded by the tail of an earlier frame.
    const frame = Buffer.alloc(417, 0x55);
    frame.set([0xff, 0xfb, 0x90, 0x00]);
    const partial = Buffer.from([0x12, 0xff, 0x34, 0x56, 0x78, 0x9a]);
    const frames = Buffer.concat([frame, frame, frame, frame]);
    let more: (() => void) | undefined;
    const upstream = await fake((_req, res) => {
      audioHeaders(res, 'audio/mpeg');
      res.write(partial);
      setTimeout(() => res.write(frames), 50); // the frame start may come in a later chunk
      more = () => res.write(frame);
    });
    const app = await appFor(upstream.port);
    const stream = await openStream(`${app.url}${STREAM}`);
    await stream.waitForBytes(frames.length);
    // One frame more: once it is here, anything relayed before it (the partial frame) would be too.
    more!();
    await stream.waitForBytes(frames.length + frame.length);
    expect(stream.received()).toBe(frames.length + frame.length);
    expect(stream.body().equals(Buffer.concat([frames, frame]))).toBe(true);
    stream.destroy();
  });

  it('relays a close-delimited upstream (as Icecast answers) with its own headers, and ends when it closes', async () => {
    const frame = Buffer.alloc(417, 0x55);
    frame.set([0xff, 0xfb, 0x90, 0x00]);
    let close: (() => void) | undefined;
    const upstream = await rawUpstream((socket) => {
      socket.write(
        'HTTP/1.0 200 OK\r\nServer: FakeCast 1.0\r\nConnection: Close, X-Hop\r\nContent-Type: audio/mpeg\r\nicy-name: Raw\r\n\r\n',
      );
      socket.write(Buffer.concat([Buffer.from([1, 2, 3]), frame, frame]));
      setTimeout(() => socket.write(Buffer.concat([frame, frame])), 50);
      close = () => socket.end();
    });
    // Never idle: the response can end only because the upstream closed.
    const app = await appFor(upstream.port, { idleTimeoutMs: NEVER_IDLE_MS });
    const stream = await openStream(`${app.url}${STREAM}`);
    expect(stream.status).toBe(200);
    expect(stream.headers.server).toBeUndefined();
    expect(stream.headers['icy-name']).toBe('Raw');
    expect(stream.headers.connection).toBe('close');
    expect(stream.headers['transfer-encoding']).toBeUndefined();
    await stream.waitForBytes(4 * 417);
    expect(stream.body().equals(Buffer.concat([frame, frame, frame, frame]))).toBe(true);
    close!();
    await stream.ended;
    expect(app.streams.activeListeners).toBe(0);
  });

  it('ends a listener that falls far behind the live point, and stays healthy', async () => {
    // 32 MiB as fast as the proxy takes them, to a listener that reads nothing for 1.5 s: far more than
    // the kernel's socket buffers and the proxy's limit hold, so the listener falls behind and is ended.
    const total = 32 * 1024 * 1024;
    const chunk = Buffer.alloc(1024, 7);
    const upstream = await rawUpstream((socket) => {
      socket.write('HTTP/1.0 200 OK\r\nContent-Type: audio/aac\r\n\r\n');
      let at = 0;
      const pump = () => {
        while (at < total && !socket.destroyed) {
          const ok = socket.write(chunk);
          at += chunk.length;
          if (!ok) return void socket.once('drain', pump);
        }
        socket.end();
      };
      socket.on('error', () => {});
      pump();
    });
    const app = await appFor(upstream.port, { idleTimeoutMs: NEVER_IDLE_MS });
    const stream = await openStream(`${app.url}${STREAM}`, { pauseMs: 1_500 });
    await stream.ended;
    expect(stream.received()).toBeLessThan(total);
    await until('every listener to be gone', () => app.streams.activeListeners === 0);
    expect(app.streams.activeListeners).toBe(0);
    expect((await fetchAll(`${app.url}/healthz`)).status).toBe(200);
  });

  it('delivers each chunk as it arrives (no buffering): each before the next is sent', async () => {
    let send: ((b: Buffer) => void) | undefined;
    const upstream = await fake((_req, res) => {
      audioHeaders(res);
      send = (b) => res.write(b);
    });
    const app = await appFor(upstream.port);
    const stream = await openStream(`${app.url}${STREAM}`);
    await until('the upstream request', () => send !== undefined);
    const chunks = [1, 2, 3].map((i) => Buffer.alloc(100, i));
    for (const [i, chunk] of chunks.entries()) {
      const t0 = performance.now();
      send!(chunk);
      // A proxy that buffered would hold these 100 bytes until more came: none come until they arrive
      // (waitForBytes fails after its 30 s hang limit).
      await expect(stream.waitForBytes(100 * (i + 1))).resolves.toBeUndefined();
      expect(stream.received()).toBe(100 * (i + 1));
      console.log(`chunk ${i + 1} relayed in ${(performance.now() - t0).toFixed(1)} ms`);
    }
    expect(stream.body().equals(Buffer.concat(chunks))).toBe(true);
    stream.destroy();
  });

  // Icecast answers HTTP/1.0 with a close-delimited body (relayed socket to socket); other servers chunk it (piped).
  describe.each([
    { kind: 'icecast' as const, label: 'an Icecast-style (HTTP/1.0, close-delimited)' },
    { kind: 'chunked' as const, label: 'a chunked' },
  ])('with $label upstream', ({ kind }) => {
    it('keeps a stream through a pause shorter than the idle timeout, and ends it (never hangs) after a longer stall', async () => {
      const IDLE_MS = 3_000;
      const upstream = await scripted(kind);
      const app = await appFor(upstream.port, { idleTimeoutMs: IDLE_MS });
      const stream = await openStream(`${app.url}${STREAM}`);
      expect(stream.status).toBe(200);
      await upstream.connected;
      upstream.send(Buffer.alloc(1000, 1));
      await stream.waitForBytes(1000);
      // The scenario itself, not a wait for something: the upstream pauses for a third of the idle timeout.
      await sleep(1_000);
      const lastSent = performance.now();
      upstream.send(Buffer.alloc(1000, 2));
      await stream.waitForBytes(2000);
      // Then nothing: only the idle timeout can end it, and not before its time (100 ms for timer
      // rounding; a busy machine can only make the end later).
      const ended = await stream.ended;
      expect(ended - lastSent).toBeGreaterThanOrEqual(IDLE_MS - 100);
      await expect.poll(() => upstream.open).toBe(0);
      expect(app.streams.activeListeners).toBe(0);
    });

    it('ends the listener when the upstream ends or resets mid-stream, and stays healthy', async () => {
      for (const how of ['end', 'reset'] as const) {
        const upstream = await scripted(kind);
        // Never idle: the response can end only because the upstream did.
        const app = await appFor(upstream.port, { idleTimeoutMs: NEVER_IDLE_MS });
        const stream = await openStream(`${app.url}${STREAM}`);
        await upstream.connected;
        upstream.send(Buffer.alloc(4096, 1));
        await stream.waitForBytes(4096);
        if (how === 'end') upstream.end();
        else upstream.reset();
        await stream.ended;
        expect(stream.received(), how).toBe(4096);
        expect((await fetchAll(`${app.url}/healthz`)).status).toBe(200);
        expect(app.streams.activeListeners).toBe(0);
      }
    });
  });

  it('releases the upstream connection when the listener leaves', async () => {
    const upstream = await fake((_req, res) => {
      audioHeaders(res);
      res.write(Buffer.alloc(1024, 1));
    });
    // Never idle: only the listener leaving can release the upstream.
    const app = await appFor(upstream.port, { idleTimeoutMs: NEVER_IDLE_MS });
    const stream = await openStream(`${app.url}${STREAM}`);
    await stream.waitForBytes(1024);
    expect(upstream.open).toBe(1);
    stream.destroy();
    await expect.poll(() => upstream.open).toBe(0);
  });

  it('is not cut by the server request timeout', async () => {
    // REQUEST_TIMEOUT_MS bounds receiving a request; a long response must not be cut by it.
    const upstream = await fake((_req, res) => {
      audioHeaders(res);
      const timer = setInterval(() => res.write(Buffer.alloc(2000, 1)), 100);
      res.on('close', () => clearInterval(timer));
    });
    // The production server (lifecycle.ts) with short request and headers timeouts, which it
    // enforces every 250 ms.
    const app = await startProxyApp(
      { upstreamPorts: { 8076: upstream.port } },
      { REQUEST_TIMEOUT_MS: '1000', HEADERS_TIMEOUT_MS: '1000' },
    );
    cleanup.push(() => app.close());
    const stream = await openStream(`${app.url}${STREAM}`);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await stream.waitForBytes(1);
    // The signal that the request timeout has passed and been enforced: a request whose headers never
    // finish, opened after the stream, is answered 408 (a busy machine only makes this later).
    const unfinished = await rawExchange(Number(new URL(app.url).port), ['GET / HTTP/1.1\r\nHost: x\r\n'], {
      doneWhen: (text) => text.includes('\r\n\r\n'),
    });
    expect(statusOf(unfinished.text)).toBe(408);
    // The stream is still open and still flowing.
    expect(ended).toBe(false);
    await stream.waitForBytes(stream.received() + 1);
    expect(ended).toBe(false);
    stream.destroy();
  });

  it('ends a listener whose socket stops accepting data after the send timeout, and releases its upstream', async () => {
    const upstream = await scripted('icecast');
    // An idle timeout far off: only the send timeout may end this listener within the test.
    const app = await appFor(upstream.port, { sendTimeoutMs: 1_000, idleTimeoutMs: 120_000 });
    await stalledListener(app, upstream);
    await expect.poll(() => app.streams.activeListeners).toBe(0);
    await expect.poll(() => upstream.open).toBe(0);
  });

  it('keeps a stalled listener past SEND_TIMEOUT_MS when STREAM_SEND_TIMEOUT_MS is longer, and ends it after that', async () => {
    const upstream = await scripted('icecast');
    const pageLimitMs = 1_000;
    const streamLimitMs = 3_000;
    const app = await appFor(
      upstream.port,
      { sendTimeoutMs: streamLimitMs, idleTimeoutMs: 120_000 },
      { SEND_TIMEOUT_MS: String(pageLimitMs) },
    );
    const { stalledSince } = await stalledListener(app, upstream);
    // A page reader stalled at the same time: the pages' limit cuts it first.
    const witness = await serverSideOf(app, (port) => {
      const client = connect(port, '127.0.0.1');
      client.on('error', () => {});
      client.pause();
      client.write('GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n'.repeat(200));
      cleanup.push(() => void client.destroy());
    });
    await new Promise((resolve) => witness.once('close', resolve));
    expect(app.streams.activeListeners).toBe(1);
    await expect.poll(() => app.streams.activeListeners).toBe(0);
    // Never before the stream's own limit has passed since the listener stopped taking bytes.
    expect(performance.now() - stalledSince).toBeGreaterThanOrEqual(streamLimitMs);
  });
});

/** The server's side of the connection `open` makes to the app. */
function serverSideOf(app: ProxyApp, open: (port: number) => void): Promise<Socket> {
  return new Promise((resolve) => {
    app.server.once('connection', resolve);
    open(Number(new URL(app.url).port));
  });
}

/**
 * A listener that sends its request and never reads: audio is sent until the kernel's buffers
 * between it and the server are full and bytes wait in Node (the server's socket has a
 * writableLength), then no more, so it stays under the far-behind limit and only a send timeout
 * can end it. `stalledSince`: the last moment nothing waited (performance.now()).
 */
async function stalledListener(app: ProxyApp, upstream: Scripted): Promise<{ stalledSince: number }> {
  const server = await serverSideOf(app, (port) => {
    const listener = connect(port, '127.0.0.1');
    listener.on('error', () => {});
    cleanup.push(() => void listener.destroy());
    listener.write(`GET ${STREAM} HTTP/1.1\r\nHost: x\r\n\r\n`);
    listener.pause();
  });
  await upstream.connected;
  expect(app.streams.activeListeners).toBe(1);
  const chunk = Buffer.alloc(16 * 1024, 1);
  let stalledSince = performance.now();
  await new Promise<void>((resolve) => {
    const pump = setInterval(() => {
      if (server.writableLength > 0) {
        clearInterval(pump);
        resolve();
        return;
      }
      stalledSince = performance.now();
      upstream.send(chunk);
    }, 5);
    cleanup.push(() => clearInterval(pump));
  });
  return { stalledSince };
}

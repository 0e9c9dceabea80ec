/**
 * GET /api/now-playing/events: the title pushed (SSE), against a scripted status page and a real
 * Icecast whose title is changed through its admin interface, as a station operator does.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeTitleUntilSeen, startEzstream, startIcecast, type Ezstream, type Icecast } from '../support/icecast.ts';
import {
  fetchAll,
  openStream,
  type OpenStream,
  startFakeUpstream,
  startProxyApp,
  type FakeUpstream,
  type ProxyApp,
} from './helpers.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { once } from 'node:events';
import type { Logger } from 'pino';
import type { NowPlaying } from '../../src/server/stream/icecast-status.ts';
import { createNowPlayingEvents, type FanOut } from '../../src/server/stream/now-playing-events.ts';
import type { NowPlayingReader } from '../../src/server/stream/now-playing-reader.ts';
import { captureLogger } from '../support/test-app.ts';
import { until } from '../support/wait.ts';

const EVENTS = '/api/now-playing/events?port=8076';

const statusOf = (title: unknown, listeners = 7) =>
  JSON.stringify({
    icestats: { source: { listenurl: 'http://127.0.0.1:8000/stream', listeners, title } },
  });

/** The data of each complete event received so far, parsed. */
function events(stream: OpenStream): unknown[] {
  return stream
    .body()
    .toString('utf8')
    .split('\n\n')
    .slice(0, -1)
    .flatMap((block) => block.split('\n').filter((line) => line.startsWith('data: ')))
    .map((line) => JSON.parse(line.slice(6)));
}

const titles = (stream: OpenStream) => events(stream).map((e) => (e as { title: unknown }).title);

let upstream: FakeUpstream | undefined;
const apps: ProxyApp[] = [];
const streams: OpenStream[] = [];
afterEach(async () => {
  for (const s of streams.splice(0)) s.destroy();
  for (const app of apps.splice(0)) await app.close();
  await upstream?.close();
  upstream = undefined;
});

/** A fake Icecast: its status page says `body()`; its mount plays a little AAC. */
async function station(body: () => string | ((res: import('node:http').ServerResponse) => void)) {
  upstream = await startFakeUpstream((req, res) => {
    if (req.url === '/status-json.xsl') {
      const answer = body();
      if (typeof answer === 'function') answer(res);
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end(answer);
    } else {
      res.writeHead(200, { 'Content-Type': 'audio/aac' });
      res.write(Buffer.alloc(2048, 1));
    }
  });
  return upstream;
}

async function appFor(port: number, stream: Parameters<typeof startProxyApp>[0] = {}, env = {}, logger?: Logger) {
  const app = await startProxyApp({ upstreamPorts: { 8076: port }, ...stream }, env, logger);
  apps.push(app);
  return app;
}

async function follow(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  const stream = await openStream(url, { headers: { Accept: 'text/event-stream', ...headers } });
  streams.push(stream);
  return stream;
}

describe('the now-playing push', () => {
  it('sends the state at once, then each change, uncompressed, one status reader for all clients', async () => {
    let title = 'Morning Show';
    const fake = await station(() => statusOf(title));
    const log = captureLogger();
    log.logger.level = 'debug';
    const app = await appFor(fake.port, {}, {}, log.logger);
    const clients = [];
    for (let i = 0; i < 5; i++) clients.push(await follow(`${app.url}${EVENTS}`, { 'Accept-Encoding': 'gzip, br' }));
    for (const client of clients) {
      expect(client.status).toBe(200);
      expect(client.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(client.headers['cache-control']).toBe('no-store, no-transform');
      expect(client.headers['x-accel-buffering']).toBe('no');
      expect(client.headers['content-encoding']).toBeUndefined();
      await until('the first event', () => events(client).length === 1);
      expect(client.body().toString()).toMatch(/^retry: \d+\n\n/);
      expect(events(client)).toEqual([{ live: true, title: 'Morning Show', listeners: 7 }]);
    }
    const readsBefore = fake.requests.length;
    title = 'Afternoon Jazz';
    for (const client of clients) await until('the new title', () => titles(client).includes('Afternoon Jazz'));
    for (const client of clients) expect(titles(client)).toEqual(['Morning Show', 'Afternoon Jazz']);
    // Five clients, one reader: the status was read about once a second, not once per client.
    expect(fake.requests.length - readsBefore).toBeLessThan(clients.length);
    // The change was written to the five in one pass, and said so (bench:stream reads this line).
    const pushed = log.lines().filter((line) => line.msg === 'now-playing change pushed');
    expect(pushed.at(-1)).toMatchObject({ port: 8076, clients: 5, writeMs: expect.any(Number) });
  });

  it('answers a bad port with 400, and beyond its caps with 503 and Retry-After', async () => {
    const fake = await station(() => statusOf('x'));
    const app = await appFor(fake.port, { maxEventClients: 3, maxListenersPerClient: 2 });
    for (const path of ['/api/now-playing/events?port=1', '/api/now-playing/events', `${EVENTS}&x=1`]) {
      const res = await fetchAll(`${app.url}${path}`);
      expect(res.status, path).toBe(400);
      expect(res.text).toBe('Invalid stream request');
    }
    expect((await follow(`${app.url}${EVENTS}`)).status).toBe(200);
    expect((await follow(`${app.url}${EVENTS}`)).status).toBe(200);
    const sameClient = await fetchAll(`${app.url}${EVENTS}`);
    expect(sameClient.status).toBe(503);
    expect(sameClient.headers['retry-after']).toMatch(/^\d+$/);
    const other = await openStream(`${app.url}${EVENTS}`, { localAddress: '127.0.0.2' });
    streams.push(other);
    expect(other.status).toBe(200);
    const overTotal = await fetchAll(`${app.url}${EVENTS}`, { localAddress: '127.0.0.3' });
    expect(overTotal.status).toBe(503);
    expect(overTotal.headers['retry-after']).toMatch(/^\d+$/);
  });

  it('ends every push connection on shutdown and refuses new ones', async () => {
    const fake = await station(() => statusOf('x'));
    const app = await appFor(fake.port);
    const clients = [await follow(`${app.url}${EVENTS}`), await follow(`${app.url}${EVENTS}`)];
    await until('the first events', () => clients.every((c) => events(c).length === 1));
    app.streams.closeAll();
    for (const client of clients) await client.ended;
    const after = await fetchAll(`${app.url}${EVENTS}`);
    expect(after.status).toBe(503);
    expect(after.headers['retry-after']).toMatch(/^\d+$/);
  });
});

describe('heartbeats', () => {
  it('every client gets a comment line from one shared timer, so no idle timeout sees a quiet push', async () => {
    const quiet: NowPlaying = { live: true, title: 'Quiet Hours', listeners: 1 };
    const reader: NowPlayingReader = { current: () => quiet, follow: () => () => {} };
    const caps = { allowedPorts: [8076], maxEventClients: 10, maxListenersPerClient: 10, retryAfterSeconds: 1 };
    const push = createNowPlayingEvents(caps, reader, { heartbeatMs: 50 });
    const server = createServer((req, res) => push.handle(req, res, '127.0.0.1')).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${EVENTS}`;
    try {
      const clients = [await follow(url), await follow(url)];
      const heartbeats = (c: OpenStream) =>
        c
          .body()
          .toString('utf8')
          .split('\n\n')
          .filter((b) => b === ':').length;
      for (const client of clients) await until('two heartbeats', () => heartbeats(client) >= 2);
      // Between them, nothing but the state the client got first.
      for (const client of clients) expect(titles(client)).toEqual(['Quiet Hours']);
    } finally {
      push.closeAll();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('a change to many clients', () => {
  it('is written a slice per turn to every client, and a newer one replaces what is left of it', async () => {
    const states: NowPlaying[] = [{ live: true, title: 'First', listeners: 1 }];
    let push: ((state: NowPlaying) => void) | undefined;
    const reader: NowPlayingReader = {
      current: () => states.at(-1)!,
      follow: (_port, onChange) => {
        push = onChange;
        return () => {};
      },
    };
    const caps = { allowedPorts: [8076], maxEventClients: 10, maxListenersPerClient: 10, retryAfterSeconds: 1 };
    const fanOuts: FanOut[] = [];
    const events = createNowPlayingEvents(caps, reader, { clientsPerTurn: 2, onFanOut: (f) => fanOuts.push(f) });
    const server = createServer((req, res) => events.handle(req, res, '127.0.0.1')).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${EVENTS}`;
    const change = (title: string) => {
      states.push({ live: true, title, listeners: 1 });
      push!(states.at(-1)!);
    };
    try {
      const clients: OpenStream[] = [];
      for (let i = 0; i < 5; i++) clients.push(await follow(url));
      for (const client of clients) await until('the first state', () => titles(client).length === 1);
      change('Second');
      await until('the change written', () => fanOuts.length === 1);
      expect(fanOuts[0]).toMatchObject({ port: 8076, clients: 5, turns: 3 });
      for (const client of clients) await until('the change read', () => titles(client).length === 2);
      // The first slice of Third is written at once, and the rest of it replaces Third's.
      change('Third');
      change('Fourth');
      for (const client of clients) await until('Fourth read', () => titles(client).at(-1) === 'Fourth');
      expect(clients.map(titles)).toEqual([
        ['First', 'Second', 'Third', 'Fourth'],
        ['First', 'Second', 'Third', 'Fourth'],
        ['First', 'Second', 'Fourth'],
        ['First', 'Second', 'Fourth'],
        ['First', 'Second', 'Fourth'],
      ]);
      expect(fanOuts.map((f) => f.clients)).toEqual([5, 5]);
    } finally {
      events.closeAll();
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('a hostile station', () => {
  const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;

  it('is shown as short plain text: markup, control and format characters, 100 KB, bytes that are not UTF-8', async () => {
    const hostile: (string | Buffer)[] = [
      '<img src=x onerror=alert(1)>Live\u0000\u0007\u001b[31m\u0085 now',
      'Evil \u202Emp3.exe\u200B\u200D\u2066 Show\uFEFF',
      'A'.repeat(100 * 1024),
    ];
    let current: string | Buffer = hostile[0]!;
    const fake = await station(() => (res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(typeof current === 'string' ? statusOf(current) : current);
    });
    const app = await appFor(fake.port);
    const client = await follow(`${app.url}${EVENTS}`);
    const seen = new Set<unknown>();
    // Latin-1 bytes, as a misconfigured source sends them: invalid UTF-8 in the JSON.
    const latin1 = Buffer.concat([
      Buffer.from(statusOf('Caf').slice(0, -4)),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('"}}}'),
    ]);
    for (const next of [...hostile, latin1]) {
      current = next;
      const before = events(client).length;
      await until(`an event after ${before}`, () => events(client).length > before);
      const title = titles(client).at(-1);
      seen.add(title);
      expect(typeof title).toBe('string');
      expect(title as string).not.toMatch(CONTROL_OR_FORMAT);
      expect(Array.from(title as string).length).toBeLessThanOrEqual(160);
    }
    expect([...seen]).toEqual([
      '<img src=x onerror=alert(1)>Live [31m now',
      'Evil mp3.exe Show',
      `${'A'.repeat(159)}…`,
      'Caf\uFFFD\uFFFD',
    ]);
    expect((await fetchAll(`${app.url}/healthz`)).status).toBe(200);
  });

  it('a status page that never finishes or is 10 MB says nothing, and HEAD still tells what GET does', async () => {
    for (const kind of ['never finishes', '10 MB'] as const) {
      const fake = await station(() => (res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('{"icestats":{"source":{"title":"');
        if (kind === '10 MB') res.end(`${'x'.repeat(10 * 1024 * 1024)}"}}}`);
      });
      // A page that never finishes is given up after the connect timeout, kept short so the test
      // is; a 10 MB one is cut at 256 KB, which on a loaded machine (the fake station writing in
      // this process) took longer than that short timeout once: it gets the default.
      const app = await appFor(fake.port, kind === 'never finishes' ? { connectTimeoutMs: 1_000 } : {});
      const client = await follow(`${app.url}${EVENTS}`);
      await until('the first event', () => events(client).length > 0);
      expect(events(client)[0], kind).toEqual({ live: null, title: null, listeners: null });
      const head = await fetchAll(`${app.url}/api/stream?port=8076`, { method: 'HEAD' });
      const get = await openStream(`${app.url}/api/stream?port=8076`);
      streams.push(get);
      expect([head.status, get.status], kind).toEqual([200, 200]);
      expect((await fetchAll(`${app.url}/healthz`)).status).toBe(200);
      client.destroy();
      get.destroy();
      await apps.pop()!.close();
      await fake.close();
      upstream = undefined;
    }
  });
});

describe('with a real Icecast', () => {
  let ice: Icecast;
  let source: Ezstream;
  beforeAll(async () => {
    ice = await startIcecast();
    source = await startEzstream(ice);
    await ice.waitForMount();
  });
  afterAll(async () => {
    await source?.stop();
    await ice?.stop();
  });

  it('pushes a title changed through Icecast’s admin interface to every client', async () => {
    const app = await appFor(ice.port);
    const clients = [await follow(`${app.url}${EVENTS}`), await follow(`${app.url}${EVENTS}`)];
    await until('the first events', () => clients.every((c) => events(c).length > 0));
    const title = `Evening News ${Date.now()}`;
    const ms = await changeTitleUntilSeen(ice, title, () => clients.every((c) => titles(c).includes(title)));
    for (const client of clients) expect(titles(client)).toContain(title);
    console.log(`title change reached ${clients.length} push clients after ${ms.toFixed(0)} ms`);
  });

  it('tells how late the newest listener hears the live edge: the past audio it started with, and since when, as durations', async () => {
    const app = await appFor(ice.port);
    const push = await follow(`${app.url}${EVENTS}`);
    await until('the first event', () => events(push).length > 0);
    type Newest = { listeners?: number; lag?: number; behind?: number; fromMs?: number };
    const all = () => events(push) as Newest[];
    // Nobody listens through this process: nothing to tell.
    expect(all()[0]).not.toHaveProperty('lag');
    expect(all()[0]).not.toHaveProperty('behind');
    // The first listener waits for the upstream: it starts with Icecast's burst.
    streams.push(await openStream(`${app.url}/api/stream?port=8076`));
    await until('an event about the listener', () => all().some((e) => e.lag !== undefined));
    const first = all().find((e) => e.lag !== undefined)!;
    expect(first.lag).toBeGreaterThan(0);
    // Written after the join: its first byte was at the live edge at least the burst's length before.
    expect(first.behind).toBeGreaterThanOrEqual(first.lag! * 1000);
    expect(first).not.toHaveProperty('fromMs'); // no clock of the server's goes out
    // A push client that comes later is told anew, at its own write: later, so further behind.
    const later = await follow(`${app.url}${EVENTS}`);
    await until('its first event', () => events(later).length > 0);
    const told = events(later)[0] as Newest;
    expect(told.lag).toBe(all().at(-1)!.lag);
    expect(told.behind).toBeGreaterThan(all().at(-1)!.behind!);
  });

  it('dates a title change (`changed`: ms since it started, halfway between the readings) but not the title found at the first reading', async () => {
    const app = await appFor(ice.port);
    const push = await follow(`${app.url}${EVENTS}`);
    await until('the first event', () => events(push).length > 0);
    type Dated = { title?: string; changed?: number };
    expect(events(push)[0]).not.toHaveProperty('changed');
    const title = `Night Desk ${Date.now()}`;
    await changeTitleUntilSeen(ice, title, () => titles(push).includes(title));
    const change = (events(push) as Dated[]).find((e) => e.title === title)!;
    expect(change.changed).toBeGreaterThanOrEqual(0);
    // Told anew to a client that comes later: further from the change.
    const later = await follow(`${app.url}${EVENTS}`);
    await until('its first event', () => events(later).length > 0);
    const told = events(later)[0] as Dated;
    // (ezstream may have set its file's title again meanwhile: compare the same title's events.)
    const before = (events(push) as Dated[]).findLast((e) => e.title === told.title)!;
    expect(told.changed).toBeGreaterThan(before.changed!);
  });
});

import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../support/app-process.ts';
import { parseIcecastStatus, UNKNOWN } from '../../src/server/stream/icecast-status.ts';
import { fetchAll, startFakeUpstream, startProxyApp, type FakeUpstream } from './helpers.ts';

const source = (mount: string, extra: Record<string, unknown> = {}) => ({
  listenurl: `http://127.0.0.1:8000${mount}`,
  listeners: 7,
  title: 'Morning Show',
  ...extra,
});
const status = (src: unknown) =>
  JSON.stringify({ icestats: { server_id: 'Icecast 2.4.4', ...(src === undefined ? {} : { source: src }) } });

describe('parseIcecastStatus', () => {
  it('reads one source given as an object', () => {
    expect(parseIcecastStatus(status(source('/stream')), '/stream')).toEqual({
      live: true,
      title: 'Morning Show',
      listeners: 7,
    });
  });

  it('picks our mount out of an array of sources', () => {
    const body = status([source('/other', { title: 'Other', listeners: 1 }), source('/stream', { listeners: 3 })]);
    expect(parseIcecastStatus(body, '/stream')).toEqual({ live: true, title: 'Morning Show', listeners: 3 });
  });

  it('says not live when the mount has no source', () => {
    expect(parseIcecastStatus(status(undefined), '/stream')).toEqual({ live: false, title: null, listeners: null });
    expect(parseIcecastStatus(status([source('/other')]), '/stream')).toEqual({
      live: false,
      title: null,
      listeners: null,
    });
  });

  it('falls back to unknown for invalid JSON or an unexpected shape', () => {
    for (const body of [
      '{"icestats":{"source":{"title":"Bad "quote"","listeners":1}}}',
      '{"icestats":{"source":{"listeners":,}}}',
      '',
      'null',
      '[]',
      '{"icestats":"x"}',
      '<html>Not found</html>',
    ]) {
      expect(parseIcecastStatus(body, '/stream'), body).toEqual(UNKNOWN);
    }
  });

  it('cleans titles and ignores bad listener counts', () => {
    const long = 'x'.repeat(500);
    expect(parseIcecastStatus(status(source('/stream', { title: 'A\u0000B\n  C', listeners: -1 })), '/stream')).toEqual(
      {
        live: true,
        title: 'A B C',
        listeners: null,
      },
    );
    expect(
      parseIcecastStatus(status(source('/stream', { title: long, listeners: '5' })), '/stream').title,
    ).toHaveLength(160);
    expect(parseIcecastStatus(status(source('/stream', { title: 42, artist: 'Band' })), '/stream').title).toBe(
      'Band - 42',
    );
    expect(parseIcecastStatus(status(source('/stream', { title: { x: 1 } })), '/stream').title).toBeNull();
  });
});

describe('GET /api/now-playing', () => {
  let upstream: FakeUpstream | undefined;
  const apps: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await upstream?.close();
    upstream = undefined;
  });

  it('answers the status as JSON, fetching it upstream once per cache period', async () => {
    let body = status(source('/stream'));
    upstream = await startFakeUpstream((req, res) => {
      if (req.url === '/status-json.xsl') res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
      else res.writeHead(404).end();
    });
    const app = await startProxyApp({ upstreamPorts: { 8076: upstream.port }, statusCacheMs: 600 });
    apps.push(app);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => fetchAll(`${app.url}/api/now-playing?port=8076`)),
    );
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(res.text)).toEqual({ live: true, title: 'Morning Show', listeners: 7 });
    }
    expect(upstream.requests.filter((r) => r.url === '/status-json.xsl')).toHaveLength(1);

    body = '{"icestats":{"source":{"title":"broken"'; // Icecast can emit invalid JSON
    // Once the cache period (600 ms) has passed, the next answer comes from a new status request; until
    // then the cached one stands (a busy machine only makes this later).
    await expect
      .poll(async () => JSON.parse((await fetchAll(`${app.url}/api/now-playing?port=8076`)).text))
      .toEqual(UNKNOWN);
    expect(upstream.requests.filter((r) => r.url === '/status-json.xsl')).toHaveLength(2);
  });

  it('answers unknown (not an error) when the upstream is down, and 400 for a bad port', async () => {
    const app = await startProxyApp({ upstreamPorts: { 8076: await freePort() } });
    apps.push(app);
    const res = await fetchAll(`${app.url}/api/now-playing?port=8076`);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual(UNKNOWN);
    expect((await fetchAll(`${app.url}/api/now-playing?port=1`)).status).toBe(400);
  });
});

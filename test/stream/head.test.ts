/**
 * HEAD /api/stream, as uptime checks use it, against a real Icecast: it answers
 * what a GET would get at that moment, with GET's headers, and opens no
 * listener (Icecast's status page tells it whether the mount is on the air).
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/app-process.ts';
import { makeTestMp3, startEzstream, startIcecast, type Ezstream, type Icecast } from '../support/icecast.ts';
import { fetchAll, openStream, startFakeUpstream, startProxyApp, type ProxyApp } from './helpers.ts';

const STREAM = '/api/stream?port=8076';

let ice: Icecast;
let source: Ezstream | undefined;

beforeAll(async () => {
  // Its own copy of the web folder, so a test can take the status page away.
  ice = await startIcecast({ ownWebroot: true });
  source = await startEzstream(ice);
}, 60_000);

afterAll(async () => {
  await source?.stop();
  await ice?.stop();
});

/** A fresh app (nothing known about the upstream yet) pointed at `port`. */
async function withApp<T>(port: number, run: (app: ProxyApp) => Promise<T>, connectTimeoutMs = 5_000): Promise<T> {
  const app = await startProxyApp({ upstreamPorts: { 8076: port }, connectTimeoutMs });
  try {
    return await run(app);
  } finally {
    await app.close();
  }
}

/** HEAD first (with nothing known), then GET's status and type (its stream ended after the head). */
async function headThenPlay(app: ProxyApp) {
  const head = await fetchAll(`${app.url}${STREAM}`, { method: 'HEAD' });
  const get = await openStream(`${app.url}${STREAM}`);
  const audio = get.status === 200 ? await get.waitForBytes(1).then(() => true) : false;
  get.destroy();
  return { head, get, audio };
}

/** HEAD first (with nothing known), then GET: the same status and headers, HEAD without a body. */
async function headThenGet(app: ProxyApp) {
  const head = await fetchAll(`${app.url}${STREAM}`, { method: 'HEAD' });
  const get = await fetchAll(`${app.url}${STREAM}`);
  const { date: _h, ...headHeaders } = head.headers;
  const { date: _g, ...getHeaders } = get.headers;
  return { head, get, headHeaders, getHeaders };
}

describe('HEAD /api/stream tells the truth', () => {
  it('200 on the air, opening no Icecast listener and no slot', async () => {
    await withApp(ice.port, async (app) => {
      const head = await fetchAll(`${app.url}${STREAM}`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toBe('audio/mpeg');
      expect(head.headers['cache-control']).toBe('no-store');
      expect(app.streams.activeListeners).toBe(0);
      expect(await ice.waitForListeners(0)).toBe(0);
    });
  });

  it('502 with Icecast down, as GET', async () => {
    await withApp(await freePort(), async (app) => {
      const { head, get, headHeaders, getHeaders } = await headThenGet(app);
      expect(head.status).toBe(502);
      expect(get.status).toBe(502);
      expect(head.text).toBe('');
      expect(headHeaders).toEqual(getHeaders);
    });
  });

  it('504 with Icecast hung, as GET', async () => {
    process.kill(ice.pid, 'SIGSTOP');
    try {
      await withApp(
        ice.port,
        async (app) => {
          const { head, get, headHeaders, getHeaders } = await headThenGet(app);
          expect(head.status).toBe(504);
          expect(get.status).toBe(504);
          expect(headHeaders).toEqual(getHeaders);
        },
        1_000,
      );
    } finally {
      process.kill(ice.pid, 'SIGCONT');
    }
  });

  it('200 while Icecast’s status page answers 404 and the mount plays, as GET', async () => {
    const page = join(ice.webroot, 'status-json.xsl');
    cpSync(page, `${page}.kept`);
    rmSync(page);
    try {
      expect((await fetch(`${ice.url}/status-json.xsl`)).status).toBe(404);
      await withApp(ice.port, async (app) => {
        const { head, get, audio } = await headThenPlay(app);
        expect(get.status).toBe(200);
        expect(audio).toBe(true);
        expect(head.status).toBe(200);
        expect(head.headers['content-type']).toBe(get.headers['content-type']);
      });
    } finally {
      cpSync(`${page}.kept`, page);
    }
  });

  it('200 while the status page answers 500 and the mount plays, as GET', async () => {
    const mp3 = readFileSync(makeTestMp3());
    const upstream = await startFakeUpstream((req, res) => {
      if (req.url === '/status-json.xsl') {
        res.writeHead(500, { 'Content-Type': 'text/html' }).end('<b>500</b>');
        return;
      }
      res.writeHead(200, { 'Content-Type': 'audio/mpeg' }).end(mp3);
    });
    try {
      await withApp(upstream.port, async (app) => {
        const { head, get, audio } = await headThenPlay(app);
        expect(get.status).toBe(200);
        expect(audio).toBe(true);
        expect(head.status).toBe(200);
        expect(head.headers['content-type']).toBe('audio/mpeg');
      });
    } finally {
      await upstream.close();
    }
  });

  // Last: it stops the source.
  it('503 with Retry-After once the source has stopped, as GET', async () => {
    await source?.stop();
    source = undefined;
    await ice.waitForMountGone('/stream');
    await withApp(ice.port, async (app) => {
      const { head, get, headHeaders, getHeaders } = await headThenGet(app);
      expect(head.status).toBe(503);
      expect(get.status).toBe(503);
      expect(head.headers['retry-after']).toMatch(/^\d+$/);
      expect(headHeaders).toEqual(getHeaders);
      expect(Number(head.headers['content-length'])).toBe(Buffer.byteLength(get.text));
    });
  });
});

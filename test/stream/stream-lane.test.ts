/**
 * The radio's paths are answered before Express, by one dispatch (the radio lanes, issues 10 and
 * 28): a listener must not hold Express's per-request objects for hours. That is the only way in:
 * other spellings (`/API/stream`) are not the radio's, and the chain answers them as any unknown
 * path (404). The answers carry the security headers and one request-log line like any other.
 * Against a real Icecast fed by ezstream.
 */
import { type IncomingHttpHeaders, request, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEzstream, startIcecast, type Ezstream, type Icecast } from '../support/icecast.ts';
import { captureLogger } from '../support/test-app.ts';
import { untilValue } from '../support/wait.ts';
import { fetchAll, startProxyApp, type ProxyApp } from './helpers.ts';

let ice: Icecast;
let source: Ezstream | undefined;
let app: ProxyApp;
const log = captureLogger();

beforeAll(async () => {
  ice = await startIcecast();
  source = await startEzstream(ice);
  app = await startProxyApp({ upstreamPorts: { 8076: ice.port } }, { LOG_LEVEL: 'info' }, log.logger);
}, 60_000);

afterAll(async () => {
  await app?.close();
  await source?.stop();
  await ice?.stop();
});

/** The request-log line of the last request to `url`, without what differs between any two. */
async function logLineOf(url: string): Promise<Record<string, unknown>> {
  const line = await untilValue(`the log line for ${url}`, () =>
    log
      .lines()
      .filter((l) => (l.req as { url?: string } | undefined)?.url === url)
      .at(-1),
  );
  const { time: _t, responseTime: _r, req, ...rest } = line;
  return { ...rest, req: { ...(req as object), url: '(url)' } };
}

/** Opens a stream, reads its head and first audio bytes, and closes it; also the server's response object. */
function openAndClose(path: string): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = request(`${app.url}${path}`, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes < 8_192) return;
        req.destroy();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the radio lanes', () => {
  it('answer a bad port with the security headers and a request-log line', async () => {
    const lane = await fetchAll(`${app.url}/api/stream?port=1`);
    expect(lane.status).toBe(400);
    expect(lane.headers['content-security-policy']).toContain("default-src 'self'");
    expect(lane.text).toBe('Invalid stream request');
    expect(await logLineOf('/api/stream?port=1')).toMatchObject({ res: { statusCode: 400 } });
  });

  it('stream with a request-log line once the listener leaves', async () => {
    const lane = await openAndClose('/api/stream?port=8076');
    expect(lane.status).toBe(200);
    expect(lane.headers['content-type']).toBe('audio/mpeg');
    expect(lane.headers['x-content-type-options']).toBe('nosniff');
    expect(await logLineOf('/api/stream?port=8076')).toMatchObject({ res: { statusCode: 200 } });
  });

  it('are the only way in: other spellings of the paths are a 404 from the chain', async () => {
    for (const path of ['/API/stream?port=8076', '/Api/now-playing?port=8076', '/API/now-playing/events?port=8076']) {
      const res = await fetchAll(`${app.url}${path}`);
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toContain('text/html');
    }
  });

  it('hold no Express objects: every radio answer is a plain Node response', async () => {
    const seen: Array<{ url: string | undefined; plain: boolean }> = [];
    const record = (req: { url?: string }, res: object) => {
      const url = req.url;
      // After the handler ran: Express swaps the prototype of what it handles.
      setImmediate(() => seen.push({ url, plain: Object.getPrototypeOf(res) === ServerResponse.prototype }));
    };
    app.server.prependListener('request', record);
    try {
      await openAndClose('/api/stream?port=8076');
      expect((await fetchAll(`${app.url}/api/now-playing?port=8076`)).status).toBe(200);
      expect((await fetchAll(`${app.url}/api/stream?port=1`)).status).toBe(400);
      expect((await fetchAll(`${app.url}/API/stream?port=8076`)).status).toBe(404);
    } finally {
      app.server.off('request', record);
    }
    expect(seen).toEqual([
      { url: '/api/stream?port=8076', plain: true },
      { url: '/api/now-playing?port=8076', plain: true },
      { url: '/api/stream?port=1', plain: true },
      { url: '/API/stream?port=8076', plain: false },
    ]);
  });
});

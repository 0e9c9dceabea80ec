/**
 * `/api/stream` is answered before Express (the stream lane, issue 10): a listener must not hold
 * Express's per-request objects for hours. Its variants (`/API/stream`) still go through the
 * Express chain. Both must give the same answer: status, headers (security headers included),
 * body and request-log line. Against a real Icecast fed by ezstream.
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

/** Headers that differ between any two answers. */
const withoutDate = ({ date: _, ...headers }: IncomingHttpHeaders) => headers;

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

describe('the stream lane', () => {
  it('answers a bad port exactly as the Express chain does (status, headers, body, log line)', async () => {
    const lane = await fetchAll(`${app.url}/api/stream?port=1`);
    const chain = await fetchAll(`${app.url}/API/stream?port=1`);
    expect(lane.status).toBe(400);
    expect(withoutDate(lane.headers)).toEqual(withoutDate(chain.headers));
    expect(lane.headers['content-security-policy']).toContain("default-src 'self'");
    expect(lane.text).toBe('Invalid stream request');
    expect(chain.text).toBe(lane.text);
    expect(await logLineOf('/api/stream?port=1')).toEqual(await logLineOf('/API/stream?port=1'));
  });

  it('streams with the same headers and log line as the Express chain', async () => {
    const lane = await openAndClose('/api/stream?port=8076');
    const chain = await openAndClose('/API/stream?port=8076');
    expect(lane.status).toBe(200);
    expect(lane.headers['content-type']).toBe('audio/mpeg');
    expect(withoutDate(lane.headers)).toEqual(withoutDate(chain.headers));
    expect(await logLineOf('/api/stream?port=8076')).toEqual(await logLineOf('/API/stream?port=8076'));
  });

  it('holds no Express objects for a listener: its response is a plain Node response', async () => {
    const seen: Array<{ url: string | undefined; plain: boolean }> = [];
    const record = (req: { url?: string }, res: object) => {
      const url = req.url;
      // After the handler ran: Express swaps the prototype of what it handles.
      setImmediate(() => seen.push({ url, plain: Object.getPrototypeOf(res) === ServerResponse.prototype }));
    };
    app.server.prependListener('request', record);
    try {
      await openAndClose('/api/stream?port=8076');
      await openAndClose('/API/stream?port=8076');
    } finally {
      app.server.off('request', record);
    }
    expect(seen).toEqual([
      { url: '/api/stream?port=8076', plain: true },
      { url: '/API/stream?port=8076', plain: false },
    ]);
  });
});

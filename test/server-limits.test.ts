/**
 * The HTTP server's limits, on a real socket: slow headers are cut by the headers timeout (long
 * before the client has sent them all), oversized headers get 431, and a body on a GET page does
 * not hold the page up. Node's own refusals (431, a malformed request line's 400, 408) carry the
 * security headers every other answer carries, and close the connection.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Runtime, startRuntime } from '../src/server/runtime.ts';
import { securityHeaders } from '../src/server/security.ts';
import {
  getWithBody,
  oversizedHeaders,
  pageArrived,
  type RawResponse,
  rawRequest,
  slowHeaders,
  statusOf,
} from './support/raw-http.ts';
import { captureLogger, testConfig } from './support/test-app.ts';

describe('server limits', () => {
  let running: Runtime;
  let port: number;
  let security: ReturnType<typeof securityHeaders>;
  /** Every security header the app's own refusals carry, with the same value. */
  const expectSecurityHeaders = (res: RawResponse) => {
    expect(security.length).toBeGreaterThanOrEqual(11);
    for (const [name, value] of security) expect(res.header(name), name).toBe(value);
  };

  beforeAll(async () => {
    // A request timeout far beyond the slow client's half minute: only the headers timeout can cut it.
    const env = { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '300000', MAX_HEADER_SIZE: '8192' };
    const config = { ...testConfig(env), port: 0 };
    security = securityHeaders(config.site);
    const { logger } = captureLogger();
    running = await startRuntime(config, { logger });
    port = (running.server.address() as AddressInfo).port;
  });
  afterAll(() => running.stop('test'));

  it('cuts a client that sends its headers byte by byte once the headers timeout passes', async () => {
    // One byte every 50 ms takes about 30 s to send; the headers timeout is 1 s.
    const reply = await slowHeaders(port, '/about', 50);
    console.log(
      `slow headers: cut after ${reply.closedAfterMs?.toFixed(0)} ms, ${reply.sent} of ${reply.total} bytes sent`,
    );
    expect(reply.closedAfterMs).not.toBeNull();
    expect(reply.sent).toBeLessThan(reply.total);
    expect(reply.text).not.toContain('200 OK');
    expect(reply.text === '' || reply.text.startsWith('HTTP/1.1 408')).toBe(true);
    if (reply.text) expect(reply.text).toContain(`\r\n${security[0]![0]}: ${security[0]![1]}\r\n`);
  });

  it('answers 431 to request headers over MAX_HEADER_SIZE', async () => {
    const reply = await oversizedHeaders(port, 'one', 10_000);
    expect(statusOf(reply.text)).toBe(431);
  });

  it('answers a 20 KB header 431 with the security headers, and closes the connection', async () => {
    const res = await rawRequest(port, `GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expectSecurityHeaders(res);
    expect(res.header('connection')).toBe('close');
    expect(res.body.toString()).toBe('Request Header Fields Too Large\n');
  });

  it.each([
    ['a protocol that is not HTTP', 'GET / HTTX/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a space in the target', 'GET /a b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a bad method', 'G(ET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
  ])('answers %s 400 with the security headers, and closes the connection', async (_, request) => {
    const res = await rawRequest(port, request);
    expect(res.status).toBe(400);
    expectSecurityHeaders(res);
    expect(res.header('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.body.toString()).toBe('Bad Request\n');
  });

  it('answers a GET page even when the request has a body it never finishes', async () => {
    // The body stays unfinished for as long as the exchange lasts: a server waiting for it would never answer.
    const reply = await getWithBody(port, 'unfinished', '/contact');
    expect(statusOf(reply.text)).toBe(200);
    expect(pageArrived(reply.text)).toBe(true);
  });

  it('serves the next request on a connection whose GET carried a complete body', async () => {
    const reply = await getWithBody(port, 'complete', '/terms');
    expect(reply.text.startsWith('HTTP/1.1 200')).toBe(true);
    expect(reply.text).toContain('{"status":"ok"}');
  });
});

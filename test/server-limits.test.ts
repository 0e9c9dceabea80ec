/**
 * The HTTP server's limits, on a real socket: slow headers are cut by the headers timeout (long
 * before the client has sent them all), oversized headers get 431, and a body on a GET page does
 * not hold the page up.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Runtime, startRuntime } from '../src/server/runtime.ts';
import { getWithBody, oversizedHeaders, pageArrived, slowHeaders, statusOf } from './support/raw-http.ts';
import { captureLogger, testConfig } from './support/test-app.ts';

describe('server limits', () => {
  let running: Runtime;
  let port: number;

  beforeAll(async () => {
    // A request timeout far beyond the slow client's half minute: only the headers timeout can cut it.
    const env = { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '300000', MAX_HEADER_SIZE: '8192' };
    const config = { ...testConfig(env), port: 0 };
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
  });

  it('answers 431 to request headers over MAX_HEADER_SIZE', async () => {
    const reply = await oversizedHeaders(port, 'one', 10_000);
    expect(statusOf(reply.text)).toBe(431);
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

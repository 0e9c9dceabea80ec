/**
 * The HTTP server's limits, on a real socket: slow headers are cut by the headers timeout (not
 * up to 30 s later), oversized headers get 431, and a body on a GET page does not hold it up.
 */
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.ts';
import { startServer, type RunningServer } from '../src/server/lifecycle.ts';
import { captureLogger, testConfig } from './support/test-app.ts';

interface RawReply {
  text: string;
  closedAfterMs: number | null;
}

/** Sends raw bytes (a string, or pieces with a pause between them) and collects what comes back. */
function raw(port: number, pieces: string[], options: { gapMs?: number; waitMs: number }): Promise<RawReply> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket: Socket = connect(port, '127.0.0.1');
    let text = '';
    let closedAfterMs: number | null = null;
    let i = 0;
    const next = () => {
      if (i < pieces.length && !socket.destroyed) socket.write(pieces[i++]!);
      if (i < pieces.length) timer = setTimeout(next, options.gapMs ?? 0);
    };
    let timer = setTimeout(next, 0);
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      closedAfterMs ??= Date.now() - started;
      clearTimeout(timer);
    });
    setTimeout(() => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closedAfterMs });
    }, options.waitMs);
  });
}

describe('server limits', () => {
  let running: RunningServer;
  let port: number;

  beforeAll(async () => {
    const config = { ...testConfig({ HEADERS_TIMEOUT_MS: '1000', MAX_HEADER_SIZE: '8192' }), port: 0 };
    const { logger } = captureLogger();
    running = await startServer(createApp(config, { logger }), config, logger);
    port = (running.server.address() as AddressInfo).port;
  });
  afterAll(() => running.stop('test'));

  it('cuts a client that sends its headers byte by byte once the headers timeout passes', async () => {
    const request = `GET /about HTTP/1.1\r\nHost: x\r\nUser-Agent: slow\r\nX-Pad: ${'a'.repeat(100)}\r\n\r\n`;
    // One byte every 50 ms would take 7 s; the headers timeout is 1 s.
    const reply = await raw(port, [...request], { gapMs: 50, waitMs: 4_000 });
    expect(reply.closedAfterMs).not.toBeNull();
    expect(reply.closedAfterMs!).toBeLessThan(3_000);
    expect(reply.text).not.toContain('200 OK');
    expect(reply.text === '' || reply.text.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('answers 431 to request headers over MAX_HEADER_SIZE', async () => {
    const reply = await raw(port, [`GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(10_000)}\r\n\r\n`], {
      waitMs: 1_000,
    });
    expect(reply.text.startsWith('HTTP/1.1 431')).toBe(true);
  });

  it('answers a GET page at once even when the request has a body it never finishes', async () => {
    const started = Date.now();
    const reply = await raw(
      port,
      ['GET /contact HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n', 'partial body'],
      { waitMs: 1_500 },
    );
    expect(reply.text.startsWith('HTTP/1.1 200')).toBe(true);
    expect(reply.text).toContain('</html>');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('serves the next request on a connection whose GET carried a complete body', async () => {
    const body = 'x'.repeat(500);
    const reply = await raw(
      port,
      [
        `GET /terms HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        'GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      ],
      { gapMs: 200, waitMs: 1_500 },
    );
    expect(reply.text.startsWith('HTTP/1.1 200')).toBe(true);
    expect(reply.text).toContain('{"status":"ok"}');
  });
});

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnsweredBy, createFrontDoor, type Lane } from './front-door.ts';
import type { RequestLog } from './request-log.ts';
import type { HeaderList } from './security.ts';

const SECURITY: HeaderList = [
  ['Content-Security-Policy', "default-src 'self'"],
  ['X-Content-Type-Options', 'nosniff'],
];

/** A lane that answers `path` with `body`; a prepared one sends the security headers in its own list. */
function lane(name: Lane['name'], path: string, kind?: Lane['kind'], later = false): Lane {
  return {
    name,
    ...(kind && { kind }),
    handle(req: IncomingMessage, res: ServerResponse) {
      if (req.url !== path) return false;
      const head = kind === 'prepared' ? [...SECURITY.flat(), 'Content-Length', '2'] : ['Content-Length', '2'];
      res.writeHead(200, head);
      if (later) setTimeout(() => res.end(name.slice(0, 2)), 5);
      else res.end(name.slice(0, 2));
      return true;
    },
  };
}

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((r) => server.close(r));
});

/** A front door on a real socket; returns what it logged and observed. */
async function serve(lanes: Lane[]) {
  const logged: string[] = [];
  const observed: AnsweredBy[] = [];
  const requestLog: RequestLog = { written: (_req, res, _at, url) => logged.push(`${url} ${res.statusCode}`) };
  const door = createFrontDoor({ lanes, security: SECURITY, requestLog, observe: (by) => observed.push(by) });
  const server = createServer(door).listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((r) => server.once('listening', r));
  return { port: (server.address() as AddressInfo).port, logged, observed };
}

/** The raw answer to raw request bytes (the connection is closed by the server or after the answer). */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const headerNames = (answer: string) =>
  answer
    .split('\r\n\r\n')[0]!
    .split('\r\n')
    .slice(1)
    .map((line) => line.slice(0, line.indexOf(':')).toLowerCase());

describe('the front door', () => {
  it('tries the lanes in order, and the security headers come exactly once, first', async () => {
    const { port, logged, observed } = await serve([
      lane('cached page', '/a', 'prepared'),
      lane('health', '/h', 'quiet'),
      lane('stream', '/s', undefined, true),
      lane('rendered page', '/a'),
      lane('rendered page', '/b'),
    ]);
    for (const path of ['/a', '/b', '/s']) {
      const answer = await raw(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(answer.startsWith('HTTP/1.1 200'), path).toBe(true);
      const names = headerNames(answer);
      expect(names.slice(0, 2), path).toEqual(['content-security-policy', 'x-content-type-options']);
      expect(
        names.filter((n) => n === 'content-security-policy'),
        path,
      ).toHaveLength(1);
    }
    expect((await raw(port, 'GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).endsWith('ca')).toBe(true);
    await raw(port, 'GET /h HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(logged).toEqual(['/a 200', '/b 200', '/s 200', '/a 200']);
    expect(observed).toEqual(['cached page', 'rendered page', 'stream', 'cached page']);
  });

  it.each([
    ['two Host headers', 'GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n', 400],
    ['a transfer coding other than chunked', 'GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n', 501],
  ])('refuses %s before any lane, with the security headers and a log line', async (_what, request, status) => {
    const { port, logged, observed } = await serve([lane('cached page', '/a', 'prepared')]);
    const answer = await raw(port, request);
    expect(answer.startsWith(`HTTP/1.1 ${status}`)).toBe(true);
    expect(headerNames(answer)).toContain('content-security-policy');
    expect(headerNames(answer)).toContain('x-content-type-options');
    expect(logged).toEqual([`/a ${status}`]);
    expect(observed).toEqual(['refused']);
  });

  it('will not put a lane that needs its headers before a prepared one', () => {
    const requestLog: RequestLog = { written: () => {} };
    expect(() =>
      createFrontDoor({
        lanes: [lane('rendered page', '/b'), lane('cached page', '/a', 'prepared')],
        security: SECURITY,
        requestLog,
      }),
    ).toThrow(/prepared lanes come before/);
  });
});

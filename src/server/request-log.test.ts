import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { LevelWithSilent } from 'pino';
import { describe, expect, it } from 'vitest';
import { BufferedDestination } from './log-destination.ts';
import { createLogger } from './logger.ts';
import { createRequestLog, LOGGED_TEXT_MAX, noteOnRequestLine } from './request-log.ts';

function capture(level = 'info') {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger(level as LevelWithSilent, sink, { part: 'test' }), lines };
}

const request = (url: string, userAgent?: string) =>
  ({ method: 'GET', url, headers: userAgent === undefined ? {} : { 'user-agent': userAgent } }) as IncomingMessage;
const response = (statusCode: number, ended = true) => ({ statusCode, writableEnded: ended }) as ServerResponse;

/** The line with its clock readings taken out (the two lines are written a moment apart). */
const timeless = (line: string) =>
  line.replace(/"time":\d+/, '"time":0').replace(/"responseTime":\d+/, '"responseTime":0');

describe('the request line', () => {
  it('is exactly what pino writes for the same fields (order, bindings, levels, escapes, notes)', async () => {
    const ours = capture();
    const theirs = capture();
    const log = createRequestLog(ours.logger, () => '203.0.113.7');
    const cases: Array<[IncomingMessage, ServerResponse, string]> = [
      [request('/about?x="1"', 'Mozilla/5.0 "quoted" \\ é \u2028'), response(200), 'info'],
      [request('/nope'), response(404), 'warn'],
      [request('/api/stream?port=8076', 'curl/8'), response(503, false), 'warn'],
      [request('/boom', 'x'), response(500), 'error'],
    ];
    noteOnRequestLine(cases[1]![1], { notFound: true, skipped: undefined });
    for (const [req, res, level] of cases) {
      const startedAt = Date.now();
      log.written(req, res, startedAt);
      (theirs.logger as unknown as Record<string, (o: object, m: string) => void>)[level]!(
        {
          req: { method: req.method, url: req.url, userAgent: req.headers['user-agent'] },
          clientIp: '203.0.113.7',
          res: { statusCode: res.statusCode },
          responseTime: Date.now() - startedAt,
          ...(res.statusCode === 404 && { notFound: true }),
        },
        res.writableEnded ? 'request completed' : 'request aborted',
      );
    }
    expect(ours.lines.map(timeless)).toEqual(theirs.lines.map(timeless));
    expect(ours.lines).toHaveLength(4);
  });

  it('says on a connection what each request says, not what the one before it said', () => {
    const ours = capture();
    const theirs = capture();
    const socket = {};
    let ip = '203.0.113.7';
    const log = createRequestLog(ours.logger, () => ip);
    const on = (method: string, url: string, userAgent?: string) =>
      ({ ...request(url, userAgent), method, socket }) as unknown as IncomingMessage;
    const steps: Array<[IncomingMessage, ServerResponse, string?]> = [
      [on('GET', '/', 'ua'), response(200)],
      [on('GET', '/', 'ua'), response(200)],
      [on('GET', '/about', 'ua'), response(200)],
      [on('GET', '/about', 'ua 2'), response(200)],
      [on('GET', '/about'), response(200)],
      [on('HEAD', '/about'), response(200)],
      [on('HEAD', '/about'), response(304)],
      [on('HEAD', '/about'), response(304), '198.51.100.1'],
      [on('HEAD', '/about'), response(304, false), '198.51.100.1'],
    ];
    for (const [req, res, address] of steps) {
      if (address) ip = address;
      log.written(req, res, Date.now());
      theirs.logger.info(
        {
          req: { method: req.method, url: req.url, userAgent: req.headers['user-agent'] },
          clientIp: ip,
          res: { statusCode: res.statusCode },
          responseTime: 0,
        },
        res.writableEnded ? 'request completed' : 'request aborted',
      );
    }
    expect(ours.lines.map(timeless)).toEqual(theirs.lines.map(timeless));
  });

  it('cuts long URLs and user agents, and writes nothing below the level', () => {
    const out = capture('warn');
    const log = createRequestLog(out.logger, () => undefined);
    log.written(request('/ok'), response(200), Date.now());
    expect(out.lines).toEqual([]);
    log.written(request(`/${'a'.repeat(20_000)}`, 'b'.repeat(5_000)), response(404), Date.now());
    const line = JSON.parse(out.lines[0]!) as { req: { url: string; userAgent: string }; clientIp?: string };
    expect(line.req.url).toBe(`/${'a'.repeat(LOGGED_TEXT_MAX - 1)}…[cut: 20001 bytes]`);
    expect(line.req.userAgent.length).toBeLessThan(LOGGED_TEXT_MAX + 30);
    expect(line).not.toHaveProperty('clientIp');
  });
});

describe("the request line on the process's stdout", () => {
  it('is the same line when it goes to stdout as prepared bytes (cached per connection, notes, every level)', () => {
    const written: Buffer[] = [];
    const stdout = new BufferedDestination((bytes, offset) => {
      written.push(Buffer.from(bytes.subarray(offset)));
      return bytes.length - offset;
    });
    const asBytes = createRequestLog(createLogger('info', stdout, { part: 'test' }), () => '::1');
    const strings = capture();
    const asStrings = createRequestLog(strings.logger, () => '::1');
    const socket = {};
    const on = (url: string, userAgent?: string) =>
      ({ ...request(url, userAgent), socket }) as unknown as IncomingMessage;
    const noted = response(404);
    noteOnRequestLine(noted, { notFound: true });
    const steps: Array<[IncomingMessage, ServerResponse]> = [
      [on('/', 'ua é'), response(200)],
      [on('/', 'ua é'), response(200)],
      [on('/nope'), noted],
      [on('/nope'), response(404)],
      [request('/api/stream?port=8076'), response(503, false)],
      [on('/boom', '"x"'), response(500)],
    ];
    for (const [req, res] of steps) {
      const startedAt = Date.now() - 12;
      asBytes.written(req, res, startedAt);
      asStrings.written(req, res, startedAt);
    }
    stdout.flushSync();
    const lines = Buffer.concat(written).toString().split('\n').filter(Boolean);
    expect(lines.map(timeless)).toEqual(strings.lines.map(timeless));
    expect(lines).toHaveLength(steps.length);
    expect(lines.every((line) => /"time":\d{13},/.test(line) && /"responseTime":\d+[,}]/.test(line))).toBe(true);
  });
});

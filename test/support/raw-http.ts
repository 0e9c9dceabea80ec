/**
 * Misbehaving HTTP clients on raw sockets, for the server-limit tests and the load suite: headers
 * sent byte by byte, headers over the size limit, request bodies on GET pages (complete,
 * unfinished, chunked without an end). Each exchange ends when the server closes the connection or
 * when the answer the caller waits for is complete, never after a fixed wait.
 */
import { connect } from 'node:net';
import { BROWSER_UA, untilCached } from './http.ts';

/** Only stops a hung exchange, far beyond any answer on a busy machine. */
const EXCHANGE_LIMIT_MS = 60_000;

export interface RawExchange {
  /** Everything the server sent, as latin1. */
  text: string;
  /** Milliseconds from connect until the server closed the connection (null: still open at the end). */
  closedAfterMs: number | null;
  /** Milliseconds from connect until the first byte of an answer (null: none). */
  firstByteMs: number | null;
  /** How many of the pieces were written before the exchange ended. */
  sent: number;
}

export interface RawOptions {
  /** Pause between pieces. */
  gapMs?: number;
  /** End the exchange as soon as what came back satisfies this (default: when the server closes). */
  doneWhen?: (text: string) => boolean;
  /** Hang limit (default 60 s). */
  limitMs?: number;
}

/** Writes `pieces` with `gapMs` between them; reports what came back and when. */
export function rawExchange(
  port: number,
  pieces: Array<string | Buffer>,
  options: RawOptions = {},
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closedAfterMs: number | null = null;
    let firstByteMs: number | null = null;
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      clearTimeout(limit);
      socket.destroy();
      resolve({ text, closedAfterMs, firstByteMs, sent });
    };
    const next = () => {
      if (socket.destroyed || sent >= pieces.length) return;
      socket.write(pieces[sent++]!);
      if (sent < pieces.length) timer = setTimeout(next, options.gapMs ?? 0);
    };
    socket.once('connect', next);
    socket.on('data', (c: Buffer) => {
      firstByteMs ??= performance.now() - started;
      text += c.toString('latin1');
      if (options.doneWhen?.(text)) finish();
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closedAfterMs ??= performance.now() - started;
      finish();
    });
    const limit = setTimeout(finish, options.limitMs ?? EXCHANGE_LIMIT_MS);
  });
}

export const statusOf = (text: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

/** Every status line in a (possibly pipelined) exchange. */
export const statusesOf = (text: string): number[] =>
  [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

/** A complete HTML page has arrived. */
export const pageArrived = (text: string): boolean => text.includes('</html>');

/**
 * A GET whose headers arrive one byte every `gapMs`, padded so that sending them all takes about
 * a minute at 100 ms: a server with a headers timeout of a second or so closes the connection long
 * before the last byte, however busy the machine. Ends when the server answers or closes the connection.
 */
export function slowHeaders(port: number, path: string, gapMs: number): Promise<RawExchange & { total: number }> {
  const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow-client\r\nAccept: text/html\r\nX-Pad: ${'p'.repeat(500)}\r\n\r\n`;
  const pieces = [...request];
  return rawExchange(port, pieces, {
    gapMs,
    // An answer other than the timeout's 408 (which the server follows by closing) ends it too:
    // a server without the timeout answers 200 once all is sent.
    doneWhen: (text) => /^HTTP\/1\.1 (?!408)\d{3}/.test(text) && text.includes('\r\n\r\n'),
    limitMs: pieces.length * gapMs + EXCHANGE_LIMIT_MS,
  }).then((r) => ({
    ...r,
    total: pieces.length,
  }));
}

export function oversizedHeaders(port: number, kind: 'one' | 'many', totalBytes: number): Promise<RawExchange> {
  const headers =
    kind === 'one'
      ? `X-Big: ${'b'.repeat(totalBytes)}\r\n`
      : Array.from({ length: Math.ceil(totalBytes / 100) }, (_, i) => `X-H${i}: ${'h'.repeat(90)}\r\n`).join('');
  return rawExchange(port, [`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`], {
    doneWhen: (text) => text.includes('\r\n\r\n'),
  });
}

/** GET /about (or `path`) with a request body: complete (then a second request on the connection), unfinished, or endless chunks. */
export function getWithBody(
  port: number,
  kind: 'complete' | 'unfinished' | 'chunked-open',
  path = '/about',
): Promise<RawExchange> {
  const head = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
  if (kind === 'complete') {
    const body = 'x'.repeat(64 * 1024);
    // The page, then a second request on the same connection: the body was read and dropped.
    return rawExchange(
      port,
      [`${head}Content-Length: ${body.length}\r\n\r\n${body}`, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      { gapMs: 300, doneWhen: (text) => text.includes('{"status":"ok"}') },
    );
  }
  // The body never completes: the page must come anyway, while the client is still "sending".
  if (kind === 'unfinished')
    return rawExchange(port, [`${head}Content-Length: 1000000\r\n\r\n`, 'only the start of the body'], {
      gapMs: 50,
      doneWhen: pageArrived,
    });
  return rawExchange(port, [`${head}Transfer-Encoding: chunked\r\n\r\n`, '5\r\nhello\r\n'], {
    gapMs: 50,
    doneWhen: pageArrived,
  });
}

// Well-formed and hostile request forms (absolute-form targets, repeated headers, odd framing),
// one request per connection, the reply split into status, header lines and body.

export interface RawResponse {
  status: number;
  /** Header lines as sent, in order ("Name: value"). */
  headerLines: string[];
  header(name: string): string | undefined;
  /** The payload (a chunked body decoded). */
  body: Buffer;
  /** Everything received, as latin1 text (chunked framing included). */
  text: string;
}

export function rawRequest(port: number, request: string | Buffer, waitMs = EXCHANGE_LIMIT_MS): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return reject(new Error(`no complete response: ${JSON.stringify(all.toString('latin1'))}`));
      const [statusLine = '', ...headerLines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const header = (name: string) =>
        headerLines
          .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`))
          ?.slice(name.length + 1)
          .trim();
      const body = all.subarray(end + 4);
      resolve({
        status: Number(statusLine.split(' ')[1]),
        headerLines,
        header,
        body: header('transfer-encoding') === 'chunked' ? dechunk(body) : body,
        text: all.toString('latin1'),
      });
    });
    socket.write(request);
  });
}

/** A GET or HEAD with the usual headers and Connection: close; `target` goes on the request line as is. */
export function rawGet(
  port: number,
  target: string,
  headers: Record<string, string> = {},
  method: 'GET' | 'HEAD' = 'GET',
): Promise<RawResponse> {
  const lines = Object.entries({ Host: '127.0.0.1', Connection: 'close', ...headers }).map(([k, v]) => `${k}: ${v}`);
  return rawRequest(port, `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
}

/** GETs `path` as a browser until the page cache answers it (a cached answer carries an ETag). */
export function rawGetCached(port: number, path: string): Promise<RawResponse> {
  return untilCached(
    () => rawGet(port, path, { 'User-Agent': BROWSER_UA }),
    (res) => res.header('etag'),
  );
}

/** The payload of a chunked body (extensions and trailers ignored). */
function dechunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(body.toString('latin1', at, lineEnd), 16);
    if (!size) break;
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

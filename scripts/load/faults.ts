/**
 * Misbehaving clients on raw sockets: headers sent byte by byte, headers over the size limit,
 * request bodies on GET pages (complete, unfinished, chunked without an end).
 */
import { connect } from 'node:net';

export interface RawExchange {
  /** Everything the server sent, as latin1. */
  text: string;
  /** Milliseconds from connect until the server closed the connection (null: still open at the end). */
  closedAfterMs: number | null;
  /** Milliseconds from connect until the first byte of an answer (null: none). */
  firstByteMs: number | null;
}

/** Writes `pieces` with `gapMs` between them, then waits; reports what came back and when. */
export function rawExchange(
  port: number,
  pieces: Array<string | Buffer>,
  gapMs: number,
  waitMs: number,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closedAfterMs: number | null = null;
    let firstByteMs: number | null = null;
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    const next = () => {
      if (socket.destroyed || i >= pieces.length) return;
      socket.write(pieces[i++]!);
      if (i < pieces.length) timer = setTimeout(next, gapMs);
    };
    socket.once('connect', next);
    socket.on('data', (c: Buffer) => {
      firstByteMs ??= performance.now() - started;
      text += c.toString('latin1');
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      closedAfterMs ??= performance.now() - started;
      clearTimeout(timer);
      finish();
    });
    const finish = () => {
      clearTimeout(timer);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ text, closedAfterMs, firstByteMs });
    };
    const deadline = setTimeout(finish, waitMs);
  });
}

export const statusOf = (text: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);

/** Every status line in a (possibly pipelined) exchange. */
export const statusesOf = (text: string): number[] =>
  [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));

export function slowHeaders(port: number, path: string, gapMs: number, waitMs: number): Promise<RawExchange> {
  const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow-client\r\nAccept: text/html\r\nX-Pad: ${'p'.repeat(200)}\r\n\r\n`;
  return rawExchange(port, [...request], gapMs, waitMs);
}

export function oversizedHeaders(port: number, kind: 'one' | 'many', totalBytes: number): Promise<RawExchange> {
  const headers =
    kind === 'one'
      ? `X-Big: ${'b'.repeat(totalBytes)}\r\n`
      : Array.from({ length: Math.ceil(totalBytes / 100) }, (_, i) => `X-H${i}: ${'h'.repeat(90)}\r\n`).join('');
  return rawExchange(port, [`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`], 0, 2_000);
}

export function getWithBody(port: number, kind: 'complete' | 'unfinished' | 'chunked-open'): Promise<RawExchange> {
  const head = 'GET /about HTTP/1.1\r\nHost: 127.0.0.1\r\n';
  if (kind === 'complete') {
    const body = 'x'.repeat(64 * 1024);
    // The page, then a second request on the same connection: the body was read and dropped.
    return rawExchange(
      port,
      [`${head}Content-Length: ${body.length}\r\n\r\n${body}`, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      300,
      2_000,
    );
  }
  if (kind === 'unfinished')
    return rawExchange(port, [`${head}Content-Length: 1000000\r\n\r\n`, 'only the start of the body'], 50, 2_000);
  return rawExchange(port, [`${head}Transfer-Encoding: chunked\r\n\r\n`, '5\r\nhello\r\n'], 50, 2_000);
}

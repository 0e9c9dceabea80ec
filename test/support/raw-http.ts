/**
 * HTTP/1.1 on a raw socket: request forms, repeated headers and framing that Node's and
 * supertest's clients refuse to send. One request per connection (`Connection: close` is up to
 * the caller); the reply is split into status, raw header lines and body bytes.
 */
import { connect } from 'node:net';

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

export function rawRequest(port: number, request: string | Buffer, waitMs = 3_000): Promise<RawResponse> {
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

/**
 * Request framing that nginx refuses and Node's parser lets through, refused the same way at the
 * head of the request handler (before the page fast lane and Express): two Host headers (RFC
 * 9112 §3.2: 400) and a Transfer-Encoding other than exactly "chunked" (nginx: 501). Both are the
 * stuff of request smuggling through a front end that reads them differently, so the
 * connection is closed after the answer. Also a request target with a fragment (`/about#x`, 400):
 * browsers never send one (RFC 9110 §4.2.1), and a cache in front that keeps it in its key would
 * store the page once per invented fragment.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The status to refuse the request with, or 0 when its framing is fine. */
export function framingRefusal(req: IncomingMessage): 400 | 501 | 0 {
  if (req.url?.includes('#')) return 400;
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && te.trim().toLowerCase() !== 'chunked') return 501;
  // Node keeps the first Host in req.headers and drops the rest; rawHeaders has them all.
  const raw = req.rawHeaders;
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++hosts > 1) return 400;
  }
  return 0;
}

const REASONS = { 400: 'Bad Request', 501: 'Not Implemented' } as const;

export function refuseFraming(res: ServerResponse, status: 400 | 501): void {
  const body = `${REASONS[status]}\n`;
  res.shouldKeepAlive = false;
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
}

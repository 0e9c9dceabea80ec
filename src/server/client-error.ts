/**
 * Node's own refusals, before any request exists: a request line or headers its parser refuses
 * (400), headers over MAX_HEADER_SIZE (431), a request not received in time (408). Without a
 * 'clientError' listener Node answers these itself with a bare status line, without the security
 * headers every answer of ours carries; with one, the answer is ours to write (Node's documented
 * way: write the whole response to the socket and end it). Same status codes as Node chooses.
 */
import type { Duplex } from 'node:stream';
import type { HeaderList } from './security.ts';

const REASONS = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Content Too Large',
  431: 'Request Header Fields Too Large',
} as const;
type ClientErrorStatus = keyof typeof REASONS;

/** The status Node itself gives each parser or timeout error (its default 'clientError' answer). */
function statusOf(error: NodeJS.ErrnoException): ClientErrorStatus {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (error.code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** The whole answer for each status, worked out once: the security headers, then the answer's own. */
function answers(security: HeaderList): Record<ClientErrorStatus, (date: string) => string> {
  const securityLines = security.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const answer = (status: ClientErrorStatus) => {
    const body = `${REASONS[status]}\n`;
    const head =
      `HTTP/1.1 ${status} ${REASONS[status]}\r\n${securityLines}` +
      `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\nConnection: close\r\n';
    return (date: string) => `${head}Date: ${date}\r\n\r\n${body}`;
  };
  return { 400: answer(400), 408: answer(408), 413: answer(413), 431: answer(431) };
}

/**
 * The server's 'clientError' listener: our answer, then the connection is closed. `answering`: an
 * answer of ours is still under way on this connection (lifecycle.ts follows them), which a second
 * answer must not interleave with. Answers already sent on a keep-alive connection don't matter.
 */
export function clientErrorAnswer(
  security: HeaderList,
): (error: NodeJS.ErrnoException, socket: Duplex, answering: boolean) => void {
  const byStatus = answers(security);
  return (error, socket, answering) => {
    // A reset connection takes no answer.
    if (error.code !== 'ECONNRESET' && socket.writable && !answering) {
      socket.end(byStatus[statusOf(error)](new Date().toUTCString()));
    } else {
      socket.destroy();
    }
  };
}

/** The stream's short plain-text answers, the same for GET and HEAD. */
import type { ServerResponse } from 'node:http';
import type { UpstreamStatus } from './upstream.ts';

export const TEXT = {
  badPort: 'Invalid stream request',
  busy: 'Too many listeners, please retry shortly',
  unavailable: 'Stream temporarily unavailable',
  badGateway: 'Stream upstream error',
  timeout: 'Stream upstream timed out',
  closing: 'Server is restarting',
} as const;

/** The answer GET gives for each upstream failure, and whether it says when to retry. */
export const UPSTREAM_ANSWERS: Record<Exclude<UpstreamStatus, 200>, { text: string; retry: boolean }> = {
  502: { text: TEXT.badGateway, retry: false },
  503: { text: TEXT.unavailable, retry: true },
  504: { text: TEXT.timeout, retry: false },
};

/** A short plain-text answer (HEAD gets the same headers, Content-Length included); `retryAfterS` adds Retry-After. */
export function answerText(res: ServerResponse, code: number, text: string, retryAfterS?: number): void {
  if (res.headersSent || res.destroyed) {
    if (!res.writableEnded) res.end();
    return;
  }
  res.statusCode = code;
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  if (retryAfterS !== undefined) res.setHeader('Retry-After', String(retryAfterS));
  res.end(text);
}

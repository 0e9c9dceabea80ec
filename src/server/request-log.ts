/**
 * The request log: one line per request, defined here once and written by the Express chain
 * (on the response's close) and by the answers given before it (the page fast lane, framing
 * refusals). Fields an attacker controls are cut, so a request costs the log a bounded number
 * of bytes; expected refusals are warnings without stacks, and only server faults are errors.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import type { Logger } from './logger.ts';

/** URLs and user agents are logged up to this many characters (Node reads both as latin1: bytes). */
export const LOGGED_TEXT_MAX = 1024;

export function cut(text: string | undefined): string | undefined {
  if (text === undefined || text.length <= LOGGED_TEXT_MAX) return text;
  return `${text.slice(0, LOGGED_TEXT_MAX)}…[cut: ${text.length} bytes]`;
}

/** Extra fields a handler adds to its request's line (the not-found page: `{ notFound: true }`). */
const notes = new WeakMap<ServerResponse, Record<string, unknown>>();

export function noteOnRequestLine(res: ServerResponse, fields: Record<string, unknown>): void {
  notes.set(res, { ...notes.get(res), ...fields });
}

/**
 * info for answers, warn for refusals the server chose (4xx; 501 for framing it does not
 * implement; 503 for a cap or an upstream that is down, which the refusing part logs itself),
 * error for faults an operator must fix.
 */
function levelOf(status: number): 'info' | 'warn' | 'error' {
  if (status < 400) return 'info';
  if (status < 500 || status === 501 || status === 503) return 'warn';
  return 'error';
}

export interface RequestLog {
  /** First in the Express chain: the line is written when the response closes. */
  middleware: RequestHandler;
  /** The line for an answer sent over time, written when it closes (the Express chain, the stream). */
  follow(req: IncomingMessage, res: ServerResponse): void;
  /** The line for a response already ended by the caller (the fast lane, framing refusals). */
  written(req: IncomingMessage, res: ServerResponse, startedAt: number): void;
}

/** `clientIp` is the address the app trusts (X-Forwarded-For only from a trusted proxy). */
export function createRequestLog(logger: Logger, clientIp: (req: IncomingMessage) => string | undefined): RequestLog {
  const write = (req: IncomingMessage, url: string, res: ServerResponse, startedAt: number) => {
    const status = res.statusCode;
    logger[levelOf(status)](
      {
        req: { method: req.method, url: cut(url), userAgent: cut(req.headers['user-agent']) },
        clientIp: clientIp(req),
        res: { statusCode: status },
        responseTime: Date.now() - startedAt,
        ...notes.get(res),
      },
      res.writableEnded ? 'request completed' : 'request aborted',
    );
  };
  const follow = (req: IncomingMessage, res: ServerResponse) => {
    const startedAt = Date.now();
    // The URL as received: routers mounted on a prefix rewrite req.url on the way.
    const url = req.url ?? '';
    res.on('close', () => write(req, url, res, startedAt));
  };
  return {
    middleware(req, res, next) {
      follow(req, res);
      next();
    },
    follow,
    written: (req, res, startedAt) => write(req, req.url ?? '', res, startedAt),
  };
}

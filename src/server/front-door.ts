/**
 * The one place a request enters the app. In this order, for every request:
 * 1. refusal: framing nginx would refuse (framing.ts) is answered 400/501 here, connection closed;
 * 2. the prepared lanes (the page fast lane): answers from memory whose header lists already
 *    begin with the security headers, sent with one writeHead;
 * 3. every other lane, in order (health, the vitals beacon, the radio, the rewind window's files,
 *    then Express as the fallback), on a response the front door has given the security headers.
 * Every answer but the quiet lane's (health checks) gets one request-log line, written here.
 * (Node's own refusals, before a request exists, are answered by client-error.ts.)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { framingRefusal, refuseFraming } from './framing.ts';
import type { RequestLog } from './request-log.ts';
import { type HeaderList, setHeaders } from './security.ts';

/** What answered a request: a lane's name, or the front door's own refusal. */
export const ANSWERED_BY = [
  'refused',
  'health',
  'cached page',
  'stream',
  'static',
  'api',
  'rendered page',
  'rewind',
] as const;
export type AnsweredBy = (typeof ANSWERED_BY)[number];
export type LaneName = Exclude<AnsweredBy, 'refused'>;

export interface Lane {
  readonly name: LaneName;
  /**
   * `prepared`: its answers carry the security headers in their own header lists, so the front
   * door sets none (and tries it before any lane that needs them). `quiet`: no request-log line.
   */
  readonly kind?: 'prepared' | 'quiet';
  /** Answers the request and returns true, or returns false having touched nothing. */
  handle(req: IncomingMessage, res: ServerResponse): boolean;
}

/** Told of every logged answer once its line is written (metrics count answers per lane here). */
export type AnswerObserver = (by: AnsweredBy, req: IncomingMessage, res: ServerResponse, startedAt: number) => void;

export interface FrontDoorParts {
  /** Tried in this order; prepared lanes must come before the others. */
  lanes: readonly Lane[];
  security: HeaderList;
  requestLog: RequestLog;
  observe?: AnswerObserver;
}

export type FrontDoor = (req: IncomingMessage, res: ServerResponse) => void;

export function createFrontDoor({ lanes, security, requestLog, observe }: FrontDoorParts): FrontDoor {
  const split = lanes.findIndex((lane) => lane.kind !== 'prepared');
  const prepared = split < 0 ? lanes : lanes.slice(0, split);
  const dressed = split < 0 ? [] : lanes.slice(split);
  if (dressed.some((lane) => lane.kind === 'prepared'))
    throw new Error('front door: prepared lanes come before the others');

  /** The answer's line, and the observer's turn. */
  const log = (by: AnsweredBy, req: IncomingMessage, res: ServerResponse, startedAt: number, url: string) => {
    requestLog.written(req, res, startedAt, url);
    observe?.(by, req, res, startedAt);
  };

  /** The first of `some` lanes to take the request, if any. */
  const taker = (some: readonly Lane[], req: IncomingMessage, res: ServerResponse) => {
    for (const lane of some) if (lane.handle(req, res)) return lane;
    return undefined;
  };

  return (req, res) => {
    const startedAt = Date.now();
    // The target as received, before a router mounted on a prefix rewrites req.url.
    const url = req.url ?? '';
    const refusal = framingRefusal(req);
    if (refusal) {
      setHeaders(res, security);
      refuseFraming(res, refusal);
      log('refused', req, res, startedAt, url);
      return;
    }
    const fromMemory = taker(prepared, req, res);
    if (fromMemory) return log(fromMemory.name, req, res, startedAt, url);
    setHeaders(res, security);
    const lane = taker(dressed, req, res);
    if (!lane) throw new Error(`front door: no lane took ${req.method} ${url}`);
    if (lane.kind === 'quiet') return;
    // Sent in full already (a file, a redirect), or under way (a render, a stream): its line when it closes.
    if (res.writableEnded) log(lane.name, req, res, startedAt, url);
    else res.once('close', () => log(lane.name, req, res, startedAt, url));
  };
}

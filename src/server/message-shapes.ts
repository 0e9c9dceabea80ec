/**
 * The requests and responses the server makes, born in the shape the Express lane leaves them in.
 *
 * V8 compiles Node's HTTP code (the parser's callbacks, writeHead, end, the finish handlers) for
 * the object shapes it meets. Express gives each request and response it handles another
 * prototype, and it and its middleware (the router, parseurl, compression and on-headers) add
 * fields to them; answers from the fast lane had neither. So Node's own functions met several
 * shapes of each, and every answer paid for it: a bare Node server that had first answered forty
 * requests through Express served the same bytes at 0.93× of one that had not (decision 016).
 *
 * Here every request and response starts with Express's prototype and with each of those fields
 * already there, holding what reading it gave before (undefined, 200, or the inherited method):
 * Express's Object.setPrototypeOf changes nothing, the others' assignments overwrite, and Node's
 * code meets one shape of each. If a library adds another field one day, answers stay right and
 * only this gain shrinks; message-shapes.test.ts then fails and names the field.
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import express, { type Express, type Request, type Response } from 'express';

/** What Express's router and parseurl set on a request. */
interface RequestFields {
  res: unknown;
  next: unknown;
  baseUrl: unknown;
  originalUrl: unknown;
  _parsedUrl: unknown;
  params: unknown;
  route: unknown;
}

/** What Express (`locals`), compression and on-headers (the methods) and writeHead set on a response. */
interface ResponseFields {
  locals: unknown;
  flush: unknown;
  write: unknown;
  end: unknown;
  on: unknown;
  writeHead: unknown;
  statusCode: number;
  statusMessage: unknown;
}

export interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

/** The methods compression and on-headers replace on a response, as a response inherits them. */
const { write, end, on, writeHead } = ServerResponse.prototype;

/**
 * The symbols Express's router keys a request with (the matched route, for tracing): not
 * exported, so learned from one dry run of a router of our own through its public interface.
 */
function routerSymbols(): symbol[] {
  const router = express.Router();
  router.get('/', (_req, _res, next) => next());
  const dry = { method: 'GET', url: '/' } as Request;
  router(dry, {} as Response, () => {});
  return Object.getOwnPropertySymbols(dry);
}

/**
 * Each field is set by name, not in a loop over names: one keyed store meeting many names is
 * itself a slow, megamorphic one.
 */
export function expressShapedMessages(app: Express): MessageClasses {
  const symbols = routerSymbols();
  function shapedRequest(socket: Socket): IncomingMessage {
    const req = Reflect.construct(IncomingMessage, [socket], shapedRequest) as IncomingMessage;
    const fields = req as unknown as RequestFields & Record<symbol, unknown>;
    fields.res = undefined;
    fields.next = undefined;
    fields.baseUrl = undefined;
    fields.originalUrl = undefined;
    fields._parsedUrl = undefined;
    fields.params = undefined;
    fields.route = undefined;
    for (const symbol of symbols) fields[symbol] = undefined;
    return req;
  }
  shapedRequest.prototype = app.request;
  function shapedResponse(req: IncomingMessage, options: object): ServerResponse {
    const res = Reflect.construct(ServerResponse, [req, options], shapedResponse) as ServerResponse;
    const fields = res as unknown as ResponseFields;
    fields.locals = undefined;
    fields.flush = undefined;
    fields.write = write;
    fields.end = end;
    fields.on = on;
    fields.writeHead = writeHead;
    fields.statusCode = 200;
    fields.statusMessage = undefined;
    return res;
  }
  shapedResponse.prototype = app.response;
  return {
    IncomingMessage: shapedRequest as unknown as typeof IncomingMessage,
    ServerResponse: shapedResponse as unknown as typeof ServerResponse,
  };
}

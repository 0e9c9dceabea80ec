/**
 * HTTP caching for bytes held in memory (static files and rendered pages alike): one ETag
 * format, one If-None-Match rule, one content-coding negotiation, one way to send them. Works
 * on Node's own request and response, so the page fast lane and Express share it.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** One resource in memory: its bytes, and the same bytes pre-compressed where that pays. */
export interface Representation {
  etag: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

export interface SendOptions {
  contentType: string;
  cacheControl: string;
  /** 200 unless a stored error page (a 404) is being sent; only a 200 is ever answered with 304. */
  status?: number;
}

/**
 * Weak: one validator serves all three encodings of the same content (a strong ETag would have
 * to differ per Content-Encoding). 22 base64url characters of SHA-1 (132 bits).
 */
export function etagOf(bytes: Buffer): string {
  return `W/"${createHash('sha1').update(bytes).digest('base64url').slice(0, 22)}"`;
}

/**
 * If-None-Match (RFC 9110 §13.1.2): `*`, or a list of entity tags compared weakly (W/ ignored).
 */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header === etag || header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if ((tag.startsWith('W/') ? tag.slice(2) : tag) === opaque) return true;
  }
  return false;
}

/**
 * Picks the encoding to send among those we hold: the client's highest q-value, and on a tie the
 * smaller one, brotli. (Express's acceptsEncodings breaks ties by the client's order, and browsers
 * list gzip first, so they were never sent the brotli files the build writes.)
 */
export function negotiateEncoding(
  header: string | undefined,
  has: { br?: unknown; gzip?: unknown },
): 'br' | 'gzip' | null {
  if (!header || (!has.br && !has.gzip)) return null;
  const q = acceptedEncodings(header);
  const qOf = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  const br = has.br ? qOf('br') : 0;
  const gzip = has.gzip ? qOf('gzip') : 0;
  // identity is acceptable unless refused explicitly (RFC 9110 §12.5.3).
  const identity = q.get('identity') ?? (q.get('*') === 0 ? 0 : 1);
  const best = Math.max(br, gzip);
  if (best === 0 || best < identity) return null;
  return br === best ? 'br' : 'gzip';
}

const acceptCache = new Map<string, Map<string, number>>();
/** The last header asked about: a burst of one client or browser sends the same value (compared, not hashed). */
let last: { header: string; parsed: Map<string, number> } | undefined;

/** Accept-Encoding as coding → q (lower-case names), memoised: clients send a handful of distinct values. */
function acceptedEncodings(header: string): Map<string, number> {
  if (last?.header === header) return last.parsed;
  const parsed = parseAcceptEncoding(header);
  last = { header, parsed };
  return parsed;
}

function parseAcceptEncoding(header: string): Map<string, number> {
  let parsed = acceptCache.get(header);
  if (parsed) return parsed;
  parsed = new Map();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const qParam = params.find((p) => /^q=/i.test(p));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    const coding = name.toLowerCase();
    // The first mention of a coding wins; a malformed q counts as refusal.
    if (!parsed.has(coding)) parsed.set(coding, Number.isFinite(value) && value > 0 ? Math.min(value, 1) : 0);
  }
  if (acceptCache.size >= 256) acceptCache.clear();
  acceptCache.set(header, parsed);
  return parsed;
}

/** Flat `[name, value, …]` lists for `res.writeHead`: one per body we hold, and the 304's. */
export interface AnswerLists {
  identity: string[];
  gzip?: string[];
  br?: string[];
  notModified: string[];
}

/**
 * What the response carries when a representation is sent: nothing yet (a prepared lane, ahead of
 * the front door's headers), or the security headers the front door set (every other lane).
 */
export type HeadersSet = 'none' | 'security';

/** A representation with its answers' header lists worked out once, in the order they are sent. */
export interface PreparedRepresentation extends Representation {
  status: number;
  /** The Cache-Control in the lists below. */
  cacheControl: string;
  /** By what the response already carries: `none` starts with the security headers, `security` goes on after them. */
  answers: Record<HeadersSet, AnswerLists>;
}

/**
 * Works out the headers of every answer a representation can get, once: Content-Type,
 * Cache-Control, Vary and ETag, with the length and coding of the body sent; for a response that
 * carries nothing yet, the security headers first. Sending is then one `writeHead` with a ready
 * list, which is what lets a cached page cost little more than a bare Node server (issue 10).
 */
export function prepareRepresentation(
  rep: Representation,
  options: SendOptions,
  security: ReadonlyArray<readonly [string, string]>,
): PreparedRepresentation {
  const lists = (leading: string[]): AnswerLists => {
    const common = [
      ...leading,
      'Content-Type',
      options.contentType,
      'Cache-Control',
      options.cacheControl,
      'Vary',
      'Accept-Encoding',
      'ETag',
      rep.etag,
    ];
    const withBody = (body: Buffer, coding?: string) => [
      ...common,
      'Content-Length',
      String(body.length),
      ...(coding ? ['Content-Encoding', coding] : []),
    ];
    return {
      identity: withBody(rep.identity),
      ...(rep.gzip && { gzip: withBody(rep.gzip, 'gzip') }),
      ...(rep.br && { br: withBody(rep.br, 'br') }),
      notModified: common,
    };
  };
  return {
    ...rep,
    status: options.status ?? 200,
    cacheControl: options.cacheControl,
    answers: { none: lists(security.flat()), security: lists([]) },
  };
}

/** A prepared header list with another Cache-Control value (a page's, in the minutes before midnight). */
function withCacheControl(list: string[], cacheControl: string): string[] {
  const copy = list.slice();
  copy[copy.indexOf('Cache-Control') + 1] = cacheControl;
  return copy;
}

/**
 * Answers a GET or HEAD: the negotiated encoding with its length, or 304 when the client's copy
 * is current (only a 200 is ever answered with 304). Never compressed again on the way out (see
 * app.ts). `headersSet` picks the lists, so no header is set twice. `cacheControl`, when it
 * differs from the prepared one, replaces it (a copy of the list).
 */
export function sendRepresentation(
  req: IncomingMessage,
  res: ServerResponse,
  rep: PreparedRepresentation,
  headersSet: HeadersSet,
  cacheControl: string = rep.cacheControl,
): void {
  const fresh = cacheControl === rep.cacheControl;
  const answers = rep.answers[headersSet];
  if (rep.status === 200 && noneMatch(req.headers['if-none-match'], rep.etag)) {
    const list = answers.notModified;
    res.writeHead(304, fresh ? list : withCacheControl(list, cacheControl));
    res.end();
    return;
  }
  const coding = negotiateEncoding(req.headers['accept-encoding'], rep) ?? 'identity';
  const list = answers[coding]!;
  res.writeHead(rep.status, fresh ? list : withCacheControl(list, cacheControl));
  if (req.method === 'HEAD') res.end();
  else res.end(rep[coding]);
}

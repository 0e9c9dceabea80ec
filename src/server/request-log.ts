/**
 * The request log: one line per request, defined here once; the front door (front-door.ts)
 * decides when it is written. Fields an attacker controls are cut, so a request costs the log a bounded number
 * of bytes; expected refusals are warnings without stacks, and only server faults are errors.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { destinationOf, type LogDestination } from './logger.ts';

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
 * implement; 503 for a cap) and for the radio's gateway answers (502, 503, 504: the upstream is
 * down, which its state-change line says once at error, not once per listener: stream/upstream.ts),
 * error for faults an operator must fix (500).
 */
function levelOf(status: number): 'info' | 'warn' | 'error' {
  if (status < 400) return 'info';
  if (status < 500 || (status >= 501 && status <= 504)) return 'warn';
  return 'error';
}

export interface RequestLog {
  /**
   * Writes the line of an answer now: sent in full ("request completed") or cut off ("request
   * aborted"). `url` is the target as received (routers mounted on a prefix rewrite req.url).
   */
  written(req: IncomingMessage, res: ServerResponse, startedAt: number, url?: string): void;
}

const json = JSON.stringify;

/**
 * JSON strings of the texts a line repeats (URLs, user agents, addresses: clients send a handful
 * of each), so a cached page's line pays a Map lookup instead of escaping them again. Bounded:
 * emptied when full, so a crawler's or an attacker's endless URLs cost it nothing lasting.
 */
const quoted = new Map<string, string>();
const QUOTED_MAX = 512;

function quote(text: string): string {
  let out = quoted.get(text);
  if (out === undefined) {
    out = json(text);
    if (quoted.size >= QUOTED_MAX) quoted.clear();
    quoted.set(text, out);
  }
  return out;
}

/** What a line says between the clock reading and the response time, and what it was made from. */
interface Middle {
  method: string;
  url: string;
  userAgent: string | undefined;
  ip: string | undefined;
  status: number;
  text: string;
  /** `text` in UTF-8, made the first time a line goes to a destination that takes bytes. */
  bytes?: Buffer;
}

/**
 * The last line's middle per connection: a connection (a browser's, nginx's, a benchmark's) mostly
 * asks for the same page with the same user agent from the same address, so its next line is the
 * clock, this text, the response time and the message, with nothing quoted again. Weak: it goes
 * with the connection.
 */
const lastMiddle = new WeakMap<object, Middle>();

/** `,"name":value` for each field that has a value, as pino writes an object's fields. */
function fields(record: Record<string, unknown> | undefined): string {
  let out = '';
  if (record)
    for (const [name, value] of Object.entries(record)) if (value !== undefined) out += `,${json(name)}:${json(value)}`;
  return out;
}

/** How a line ends: after the response time, the message. */
const ENDINGS = {
  completed: ',"msg":"request completed"}\n',
  aborted: ',"msg":"request aborted"}\n',
} as const;
const ENDING_BYTES = { completed: Buffer.from(ENDINGS.completed), aborted: Buffer.from(ENDINGS.aborted) } as const;

/** What comes before the clock reading, per level: `{"level":30,"time":`. */
function levelHeads(logger: Logger): Record<'info' | 'warn' | 'error', string> {
  const head = (level: 'info' | 'warn' | 'error') => `{"level":${logger.levels.values[level]},"time":`;
  return { info: head('info'), warn: head('warn'), error: head('error') };
}

/**
 * `clientIp` is the address the app trusts (X-Forwarded-For only from a trusted proxy).
 *
 * The line is pino's own format (level number, epoch time, the logger's bindings, the fields, msg),
 * put together here from parts prepared once and handed to the logger's destination: through
 * pino's generic serializer it cost a cached page more than everything else the app does for it
 * (issue 10, decision 011).
 */
export function createRequestLog(logger: Logger, clientIp: (req: IncomingMessage) => string | undefined): RequestLog {
  const destination = destinationOf(logger);
  // The process's stdout (log-destination.ts) takes a line's prepared bytes; other destinations
  // (tests' streams) take the same line as a string.
  const bytesTo = typeof destination.writeLine === 'function' ? (destination as Required<LogDestination>) : undefined;
  // The logger's bindings as pino writes them after the clock: `,"service":"web"`.
  const bindings = Object.entries(logger.bindings())
    .map(([name, value]) => `,${json(name)}:${json(value)}`)
    .join('');
  const heads = levelHeads(logger);
  const headBytes = { info: Buffer.from(heads.info), warn: Buffer.from(heads.warn), error: Buffer.from(heads.error) };
  const afterTime = `${bindings},"req":{"method":`;
  const middleOf = (
    method: string,
    url: string,
    userAgent: string | undefined,
    ip: string | undefined,
    status: number,
  ) =>
    `${afterTime}${quote(method)},"url":${quote(cut(url)!)}` +
    `${userAgent === undefined ? '' : `,"userAgent":${quote(userAgent)}`}}` +
    `${ip === undefined ? '' : `,"clientIp":${quote(ip)}`},"res":{"statusCode":${status}},"responseTime":`;
  /** The middle of this request's line: the connection's last one when it says the same. */
  const middle = (req: IncomingMessage, url: string, status: number): Middle => {
    const method = req.method ?? '';
    const userAgent = cut(req.headers['user-agent']);
    const ip = clientIp(req);
    const connection: object | undefined = req.socket ?? undefined;
    const last = connection && lastMiddle.get(connection);
    if (
      last?.url === url &&
      last.status === status &&
      last.method === method &&
      last.userAgent === userAgent &&
      last.ip === ip
    )
      return last;
    const made: Middle = { method, url, userAgent, ip, status, text: middleOf(method, url, userAgent, ip, status) };
    if (connection) lastMiddle.set(connection, made);
    return made;
  };
  const write = (req: IncomingMessage, url: string, res: ServerResponse, startedAt: number) => {
    const status = res.statusCode;
    const level = levelOf(status);
    if (!logger.isLevelEnabled(level)) return;
    const said = middle(req, url, status);
    const now = Date.now();
    const note = notes.get(res);
    const ending = res.writableEnded ? 'completed' : 'aborted';
    if (bytesTo && !note) {
      said.bytes ??= Buffer.from(said.text);
      bytesTo.writeLine(headBytes[level], now, said.bytes, now - startedAt, ENDING_BYTES[ending]);
    } else destination.write(`${heads[level]}${now}${said.text}${now - startedAt}${fields(note)}${ENDINGS[ending]}`);
  };
  return {
    written: (req, res, startedAt, url = req.url ?? '') => write(req, url, res, startedAt),
  };
}

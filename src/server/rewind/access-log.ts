/**
 * nginx's access log of the rewind window's segments, received as syslog datagrams (deploy/nginx.conf:
 * `access_log syslog:server=127.0.0.1:<REWIND_LOG_PORT>` in `location ^~ /api/rewind/`), so that
 * the app counts the window's listeners while nginx serves every file from disk: the app handles
 * one small datagram per segment fetched, never a request. Nothing is written to disk, so there is
 * no file to follow, rotate or grant nginx's user access to.
 * Several processes on one host: exactly one counts, the one that holds the UDP port (binding it is
 * the lock: the kernel refuses a second bind, and frees the port when its holder ends, however it
 * ends). The others try again every few seconds and take over; datagrams sent while no process
 * holds the port are lost (nginx logs the refusals in its error log), so a takeover loses at most
 * those seconds of counting.
 * Each line is one JSON object (`log_format news_rewind_listeners escape=json`): the request URI,
 * the status, the client's address and user agent. Anything else is ignored and counted.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { Logger } from 'pino';
import { SEGMENT_NAME } from './window.ts';

export const LOG_HOST = '127.0.0.1';
/** How often a process that does not hold the port checks whether the one that did has gone. */
export const LOG_RETRY_MS = 2_000;
/** The tag nginx writes before each line (`tag=` in deploy/nginx.conf). */
export const LOG_TAG = 'news_rewind';

export interface SegmentFetch {
  /** The client's address and user agent, one string: who is listening. */
  client: string;
  port: number;
}

/**
 * One datagram's line, if it tells of a segment of an allowed port answered 200 or 206: `<PRI>date
 * [host] news_rewind: {"uri":…,"status":…,"addr":…,"ua":…}`.
 */
export function parseLogLine(text: string, allowedPorts: readonly number[]): SegmentFetch | null {
  const tag = text.indexOf(`${LOG_TAG}: {`);
  if (tag < 0) return null;
  let entry: unknown;
  try {
    entry = JSON.parse(text.slice(tag + LOG_TAG.length + 2));
  } catch {
    return null;
  }
  if (typeof entry !== 'object' || entry === null) return null;
  const { uri, status, addr, ua } = entry as Record<string, unknown>;
  if (typeof uri !== 'string' || typeof addr !== 'string' || typeof ua !== 'string') return null;
  if (status !== '200' && status !== '206') return null;
  const match = /^\/api\/rewind\/([1-9]\d{0,4})\/([^/?]+)(?:\?|$)/.exec(uri);
  if (!match || !SEGMENT_NAME.test(match[2]!)) return null;
  const port = Number(match[1]);
  if (!allowedPorts.includes(port)) return null;
  return { client: `${addr}\n${ua}`, port };
}

export interface AccessLogReceiver {
  /** Whether this process holds the port (and so counts) now. */
  readonly held: boolean;
  /** Lines received that told of a segment fetch, and lines ignored. */
  readonly counted: number;
  readonly ignored: number;
  stop(): Promise<void>;
}

export interface AccessLogOptions {
  port: number;
  allowedPorts: readonly number[];
  onSegment(fetch: SegmentFetch): void;
  log: Logger;
  host?: string;
  retryMs?: number;
}

function bind(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket({ type: 'udp4' });
    socket.once('error', (error) => {
      socket.close();
      reject(error);
    });
    socket.bind(port, host, () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

/**
 * Receives the log on `host:port`. Resolves once bound or found held by another process (which then
 * counts; this one tries again every `retryMs`); rejects, naming REWIND_LOG_PORT, on any other
 * failure to bind (a port this process may not use).
 */
export async function receiveAccessLog(options: AccessLogOptions): Promise<AccessLogReceiver> {
  const { port, allowedPorts, onSegment, log, host = LOG_HOST, retryMs = LOG_RETRY_MS } = options;
  let socket: Socket | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let counted = 0;
  let ignored = 0;

  const take = (bound: Socket) => {
    socket = bound;
    socket.unref();
    socket.on('message', (message) => {
      const fetch = parseLogLine(message.toString('utf8'), allowedPorts);
      if (fetch) {
        counted += 1;
        onSegment(fetch);
      } else ignored += 1;
    });
    socket.on('error', (err) => log.error({ err }, 'rewind access log: receiving failed'));
    log.info({ host, port }, "rewind access log: counting the window's listeners from nginx's log");
  };
  const attempt = async (first: boolean): Promise<void> => {
    timer = undefined;
    try {
      const bound = await bind(host, port);
      if (stopped) bound.close();
      else take(bound);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EADDRINUSE') {
        if (first) throw new Error(`REWIND_LOG_PORT ${port}: cannot receive on ${host} (${(error as Error).message})`);
        log.error({ err: error }, 'rewind access log: cannot bind');
      } else if (first) {
        log.info({ host, port }, 'rewind access log: another process holds the port and counts');
      }
      if (!stopped) {
        timer = setTimeout(() => void attempt(false), retryMs);
        timer.unref();
      }
    }
  };
  await attempt(true);
  return {
    get held() {
      return socket !== null;
    },
    get counted() {
      return counted;
    },
    get ignored() {
      return ignored;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      const holding = socket;
      socket = null;
      return new Promise<void>((done) => (holding ? holding.close(() => done()) : done()));
    },
  };
}

/** Shared pieces of the stream tests: the app on a real socket, raw stream readers, fake upstreams. */
import {
  createServer as createHttpServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { connect, createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { loadConfig } from '../../src/server/config.ts';
import { startServer } from '../../src/server/lifecycle.ts';
import { createLogger } from '../../src/server/logger.ts';
import type { StreamConfig } from '../../src/server/stream/config.ts';
import { createStreamService, type StreamService } from '../../src/server/stream/index.ts';
import { appFor, sendTimeoutsFor, streamConfigOf } from '../support/test-app.ts';
import { until, WAIT_LIMIT_MS } from '../support/wait.ts';

/** An idle timeout no test outlasts: with it, a listener's response can only end because something ended it. */
export const NEVER_IDLE_MS = 10 * 60_000;

export interface ProxyApp {
  url: string;
  server: Server;
  streams: StreamService;
  close(): Promise<void>;
}

/**
 * The real app (createApp) served by the real HTTP server (lifecycle.ts, with its timeouts and the
 * send-timeout sweep) on 127.0.0.1, with stream settings overridden.
 */
export async function startProxyApp(
  stream: Partial<StreamConfig>,
  env: Record<string, string> = {},
  logger: Logger = createLogger('silent'),
): Promise<ProxyApp> {
  const loaded = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    STREAM_UPSTREAM_HOST: '127.0.0.1',
    PORT: '1',
    ...env,
  });
  const config = { ...loaded, port: 0, stream: { ...streamConfigOf(loaded), ...stream } };
  const sendTimeouts = sendTimeoutsFor(config);
  const streams = createStreamService(config.stream, logger, { sendTimeouts });
  const app = appFor(config, { logger, streams }, sendTimeouts);
  const { server } = await startServer({ ...app, sendTimeouts }, config, logger);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    streams,
    close: () =>
      new Promise<void>((resolve) => {
        streams.closeAll();
        sendTimeouts.stop();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface OpenStream {
  status: number;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  /** ms from request to response headers. */
  headersAfterMs: number;
  /** Bytes received so far. */
  received(): number;
  body(): Buffer;
  /** Resolves with the time (performance.now()) the response ended or its connection closed. */
  ended: Promise<number>;
  /** Resolves once at least n bytes arrived (rejects if the stream ends first, or after timeoutMs, a hang limit). */
  waitForBytes(n: number, timeoutMs?: number): Promise<void>;
  destroy(): void;
}

export interface OpenOptions {
  method?: string;
  headers?: Record<string, string>;
  localAddress?: string;
  /** Keep at most this many body bytes (the count still grows). */
  keep?: number;
  /** Do not read the body for this long after the headers (a listener that falls behind). */
  pauseMs?: number;
}

/** A GET (or HEAD) with its own connection, body counted as it arrives. */
export function openStream(url: string, options: OpenOptions = {}): Promise<OpenStream> {
  const started = performance.now();
  // The path goes out byte for byte (no URL normalisation), so malformed queries reach the server as written.
  const { origin, hostname, port } = new URL(url);
  const path = url.slice(origin.length) || '/';
  return new Promise((resolve, reject) => {
    const req = request({
      hostname,
      port,
      path,
      method: options.method ?? 'GET',
      agent: false,
      headers: options.headers,
      ...(options.localAddress && { localAddress: options.localAddress }),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let count = 0;
      const keep = options.keep ?? 4 * 1024 * 1024;
      const waiters = new Set<() => void>();
      if (options.pauseMs) {
        res.pause();
        setTimeout(() => res.resume(), options.pauseMs);
      }
      res.on('data', (chunk: Buffer) => {
        count += chunk.length;
        if (kept < keep) {
          chunks.push(chunk);
          kept += chunk.length;
        }
        for (const w of waiters) w();
      });
      const ended = new Promise<number>((done) => {
        const finish = () => done(performance.now());
        res.once('end', finish);
        res.once('close', finish);
        res.once('error', finish);
      });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        rawHeaders: res.rawHeaders,
        headersAfterMs: performance.now() - started,
        received: () => count,
        body: () => Buffer.concat(chunks),
        ended,
        waitForBytes(n, timeoutMs = WAIT_LIMIT_MS) {
          if (count >= n) return Promise.resolve();
          return new Promise<void>((ok, fail) => {
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`only ${count} of ${n} bytes after ${timeoutMs} ms`));
            }, timeoutMs);
            const check = () => {
              if (count < n) return;
              clearTimeout(timer);
              waiters.delete(check);
              ok();
            };
            waiters.add(check);
            void ended.then(() => {
              if (count < n) {
                clearTimeout(timer);
                waiters.delete(check);
                fail(new Error(`stream ended after ${count} of ${n} bytes`));
              }
            });
          });
        },
        destroy: () => {
          res.destroy();
          req.destroy();
        },
      });
    });
    req.end();
  });
}

/** GET returning status, headers and the whole (short) body. */
export async function fetchAll(
  url: string,
  options: OpenOptions = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string; ms: number }> {
  const started = performance.now();
  const res = await openStream(url, options);
  await res.ended;
  return {
    status: res.status,
    headers: res.headers,
    text: res.body().toString('utf8'),
    ms: performance.now() - started,
  };
}

export interface TcpProbe {
  port: number;
  /** Connections accepted so far. */
  readonly connections: number;
  /** The client port of each connection accepted, in the order accepted. */
  readonly peers: readonly number[];
  /** Sockets currently open. */
  readonly open: number;
  sockets: Set<Socket>;
  close(): Promise<void>;
}

/** A TCP server that accepts and never answers (a hung upstream), or counts connections. */
export async function startSilentUpstream(): Promise<TcpProbe> {
  const sockets = new Set<Socket>();
  const peers: number[] = [];
  let connections = 0;
  const server: TcpServer = createTcpServer((socket) => {
    connections += 1;
    peers.push(socket.remotePort ?? 0);
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.resume(); // read and drop the request, so the peer's close is noticed; never answer
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    peers,
    get open() {
      return sockets.size;
    },
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface FakeUpstream {
  port: number;
  requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
  /** Server-side sockets currently open. */
  readonly open: number;
  close(): Promise<void>;
}

/** An HTTP upstream whose behaviour each test writes; it records what it was asked. */
export async function startFakeUpstream(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<FakeUpstream> {
  const requests: FakeUpstream['requests'] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    get open() {
      return sockets.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * How many connections `probe` accepted before one the test opens now: a positive signal that a
 * connection the app would have opened earlier has arrived (a listening socket accepts in order).
 */
export async function connectionsBeforeOurs(probe: TcpProbe): Promise<number> {
  const ours = connect(probe.port, '127.0.0.1');
  ours.on('error', () => {});
  try {
    await new Promise<void>((resolve, reject) => ours.once('connect', resolve).once('error', reject));
    const port = ours.localPort;
    await until('our own connection to be accepted', () => probe.peers.includes(port ?? -1));
    return probe.peers.indexOf(port ?? -1);
  } finally {
    ours.destroy();
  }
}

/**
 * The HTTP server around the request handler: limits that cut slow or oversized requests, and a
 * graceful stop. Stopping closes the listening socket, closes idle keep-alive connections, lets
 * answers under way finish (the composition root ends the open streams, which never would), and
 * gives up after the shutdown timeout.
 */
import { createServer, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Config } from './config.ts';
import type { Logger } from 'pino';
import type { Duplex } from 'node:stream';
import type { SendTimeouts } from './send-timeout.ts';

export interface RunningServer {
  server: Server;
  /** Resolves once every connection is closed (or the timeout forced them). */
  stop(reason: string): Promise<void>;
}

export interface ServerParts {
  /** The request handler (the app's front door). */
  handle: RequestListener;
  /** Answers Node's own refusals (bad request line, headers too large, too slow): client-error.ts. */
  clientError: (error: NodeJS.ErrnoException, socket: Duplex, answering: boolean) => void;
  /** The one sweep that cuts clients who stopped reading (send-timeout.ts); the server feeds it its connections. */
  sendTimeouts: SendTimeouts;
}

export function startServer(
  { handle, clientError, sendTimeouts }: ServerParts,
  config: Config,
  logger: Logger,
): Promise<RunningServer> {
  const server = createServer(
    {
      maxHeaderSize: config.maxHeaderSize,
      requestTimeout: config.timeouts.requestMs,
      headersTimeout: config.timeouts.headersMs,
      keepAliveTimeout: config.timeouts.keepAliveMs,
      // Node enforces the two timeouts above on this sweep (30 s by default), so a client sending
      // its headers byte by byte outlived a 10 s headers timeout by up to 30 s.
      connectionsCheckingInterval: Math.min(1_000, Math.floor(config.timeouts.headersMs / 4)),
      // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3): its
      // stream starts ended, without the 'end' and 'close' events nothing here listens for
      // (answers are followed by their response's 'close'), and without Node's work per request
      // to end an empty stream (decision 016).
      optimizeEmptyRequests: true,
    },
    (req, res) => {
      if (stopping) res.setHeader('Connection', 'close');
      handle(req, res);
      // Only answers still under way (a render, a stream) are followed: a cached page or a file
      // was sent in full just now, and costs nothing more here.
      if (!res.writableEnded) follow(res);
    },
  );
  // A client that stops reading (a page it never takes, pipelined requests piling up, a radio
  // listener) holds its connection until its send timeout passes with no byte taken, then it is
  // closed. Between requests the keep-alive timeout applies instead.
  server.on('connection', sendTimeouts.watch);
  // Connections with an answer still under way (followed below): Node's refusal must not cut into it.
  const answering = new WeakMap<object, number>();
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    clientError(error, socket, (answering.get(socket) ?? 0) > 0),
  );
  // While stopping, answers say "Connection: close" and a keep-alive connection is closed as soon
  // as its last answer is done, so clients (and nginx) reconnect to another process.
  let stopping: Promise<void> | null = null;
  const active = new Set<ServerResponse>();
  const follow = (res: ServerResponse) => {
    active.add(res);
    const { socket } = res;
    if (socket) answering.set(socket, (answering.get(socket) ?? 0) + 1);
    res.on('close', () => {
      active.delete(res);
      if (socket) answering.set(socket, (answering.get(socket) ?? 1) - 1);
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
  };
  const stop = (reason: string): Promise<void> => {
    stopping ??= new Promise<void>((resolve) => {
      logger.info({ reason }, 'shutting down');
      const force = setTimeout(() => {
        logger.warn('shutdown timeout: closing remaining connections');
        server.closeAllConnections();
      }, config.timeouts.shutdownMs);
      force.unref();
      server.close(() => {
        clearTimeout(force);
        resolve();
      });
      server.closeIdleConnections();
      for (const res of active) if (!res.headersSent) res.setHeader('Connection', 'close');
    });
    return stopping;
  };

  return new Promise((resolve, reject) => {
    const failed = (error: Error) => {
      // Not listening, but its timers (the connections check) are armed: close stops them.
      server.close(() => reject(error));
    };
    server.once('error', failed);
    server.listen(config.port, config.host, () => {
      server.off('error', failed);
      resolve({ server, stop });
    });
  });
}

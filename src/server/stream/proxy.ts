/**
 * GET /api/stream?port=N: the live stream from Icecast, relayed as it arrives.
 *
 * http-proxy-middleware (v4, on httpxy) runs the exchange with the upstream;
 * its defaults do not fit a live stream, so this module configures it and
 * handles what it does not:
 * - Our own agent (relay.ts): httpxy's shared agent allows only 256 sockets per
 *   host and would queue listener 257 forever; ours has no cap and no pooling.
 * - `selfHandleResponse`: we pick the headers (no upstream Server/Connection,
 *   one Access-Control-Allow-Origin, no-store, X-Accel-Buffering: no) and map
 *   Icecast's 404/403 to 503; redirects are never followed (followRedirects off).
 * - Its error answers (504 for a refused connection, the target's URL in the body)
 *   are replaced: refused/reset → 502, no response in time → 504, fixed texts.
 * - Timeouts are ours: `proxyTimeout` is one idle timer for both phases and on
 *   expiry destroys the request with an error we could not tell from a reset.
 *   Here a connect deadline answers 504, and after the headers an idle timer
 *   (longer than Icecast's source timeout) ends the listener's response.
 * - The body: Icecast's close-delimited answer is relayed socket to socket by
 *   relay.ts (a plain pipe costs 3–4 times the memory per listener); chunked or
 *   sized bodies are piped. An MP3 stream starts on a frame boundary either way.
 * - A listener who goes away: httpxy destroys the upstream request on the
 *   response's 'close'; our cleanup does it too, and gives the slot back.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import type { StreamConfig } from './config.ts';
import { createListenerSlots } from './listener-slots.ts';
import { findFrameSync } from './mp3-frames.ts';
import { RelayAgent, relayStream } from './relay.ts';
import { requestedPort } from './port-param.ts';

const TEXT = {
  badPort: 'Invalid stream request',
  busy: 'Too many listeners, please retry shortly',
  unavailable: 'Stream temporarily unavailable',
  badGateway: 'Stream upstream error',
  timeout: 'Stream upstream timed out',
  closing: 'Server is restarting',
} as const;

/** Request headers the upstream may see; everything else (cookies, Range, Icy-MetaData, X-Forwarded-*) stays here. */
const FORWARDED_REQUEST_HEADERS = new Set(['host', 'user-agent', 'accept', 'connection']);

/** Response headers that describe the stream; `icy-metaint` is left out because we never ask for metadata. */
function describesStream(name: string): boolean {
  return name === 'content-type' || name === 'ice-audio-info' || (name.startsWith('icy-') && name !== 'icy-metaint');
}

const MPEG_TYPES = new Set(['audio/mpeg', 'audio/mp3', 'audio/mpeg3']);
/** Give up looking for a frame start after this much (then relay as is). */
const MAX_SYNC_SEARCH = 32 * 1024;

/**
 * Icecast's burst for a new listener starts mid-frame. Chrome then cannot
 * recognise MP3 from the first bytes and keeps probing: playback starts about
 * 4 s later than it could. So the relay starts at the first run of valid
 * frames, then pipes the rest untouched.
 */
function startOnFrame(proxyRes: IncomingMessage, res: ServerResponse): void {
  let head: Buffer = Buffer.alloc(0);
  const onData = (chunk: Buffer) => {
    head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
    const at = findFrameSync(head, 0, 3);
    if (at < 0 && head.length < MAX_SYNC_SEARCH) return;
    proxyRes.off('data', onData);
    proxyRes.pause();
    res.write(at > 0 ? head.subarray(at) : head);
    proxyRes.pipe(res);
  };
  proxyRes.on('data', onData);
}

interface Listener {
  req: IncomingMessage;
  res: ServerResponse;
  port: number;
  target: string;
  proxyReq?: ClientRequest;
  proxyRes?: IncomingMessage;
  /** Pending connect deadline (until response headers arrive). */
  deadline?: NodeJS.Timeout;
  /** True once we answered (an error, or the stream's headers). */
  answered: boolean;
}

export interface StreamProxy {
  handler: RequestHandler;
  /** Ends every open listener response (graceful shutdown) and refuses new ones. */
  closeAll(): void;
  readonly activeListeners: number;
}

export function createStreamProxy(config: StreamConfig, logger: Logger): StreamProxy {
  const log = logger.child({ component: 'stream-proxy' });
  const slots = createListenerSlots(config.maxListeners, config.maxListenersPerClient);
  const listeners = new Map<IncomingMessage, Listener>();
  /** The upstream's content type per port, for HEAD answers that must not open an upstream listener. */
  const contentTypes = new Map<number, string>();
  let closing = false;

  const upstreamUrl = (port: number): string => {
    const host = config.upstreamHost ?? '127.0.0.1';
    const upstreamPort = config.upstreamPorts[port] ?? port;
    return `http://${host.includes(':') ? `[${host}]` : host}:${upstreamPort}`;
  };

  function answer(res: ServerResponse, status: number, text: string, retry = false): void {
    if (res.headersSent || res.destroyed) {
      if (!res.writableEnded) res.end();
      return;
    }
    res.statusCode = status;
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    if (retry) res.setHeader('Retry-After', String(config.retryAfterSeconds));
    res.end(text);
  }

  /** Ends a listener's exchange with an error status (before headers) or by ending the stream (after). */
  function fail(listener: Listener, status: number, text: string, retry = false): void {
    clearTimeout(listener.deadline);
    const streaming = listener.answered;
    listener.answered = true;
    // Answer (or end the stream) first, so the listener gets a clean end before the upstream is torn down.
    if (streaming) listener.res.end();
    else answer(listener.res, status, text, retry);
    listener.proxyReq?.destroy();
    listener.proxyRes?.destroy();
  }

  const streamPlugin: Plugin = (proxyServer) => {
    proxyServer.on('proxyReq', (proxyReq, req) => {
      const listener = listeners.get(req);
      if (!listener || listener.answered) {
        proxyReq.destroy();
        return;
      }
      listener.proxyReq = proxyReq;
      for (const name of proxyReq.getHeaderNames()) {
        if (!FORWARDED_REQUEST_HEADERS.has(name)) proxyReq.removeHeader(name);
      }
    });

    proxyServer.on('proxyRes', (proxyRes, req, res) => {
      const listener = listeners.get(req);
      if (!listener || listener.answered) {
        proxyRes.destroy();
        return;
      }
      clearTimeout(listener.deadline);
      listener.proxyRes = proxyRes;
      const status = proxyRes.statusCode ?? 502;
      if (status !== 200) {
        // 404: mount missing or its source gone; 403: Icecast's listener limits. Both pass with time.
        const passing = status === 404 || status === 403;
        log.warn({ status, port: listener.port }, 'stream upstream refused the listener');
        fail(listener, passing ? 503 : 502, passing ? TEXT.unavailable : TEXT.badGateway, passing);
        return;
      }
      listener.answered = true;
      const type = proxyRes.headers['content-type'] ?? 'audio/mpeg';
      contentTypes.set(listener.port, type);
      res.statusCode = 200;
      // The first value of each header we pass (Icecast may repeat Access-Control-Allow-Origin).
      const raw = proxyRes.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = raw[i]!.toLowerCase();
        if (!(describesStream(name) || name === 'access-control-allow-origin') || res.hasHeader(name)) continue;
        try {
          res.setHeader(name, raw[i + 1]!);
        } catch {
          /* a value Node will not send is simply dropped */
        }
      }
      res.setHeader('Content-Type', type);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Accel-Buffering', 'no');

      // Icecast itself drops a source silent for 10 s, so only a longer silence ends the stream here.
      proxyRes.socket.setTimeout(config.idleTimeoutMs, () => {
        log.warn({ port: listener.port, idleMs: config.idleTimeoutMs }, 'stream upstream stalled; ending the listener');
        fail(listener, 504, TEXT.timeout);
      });
      // The upstream went away (source stopped, Icecast restarted): end the listener's response now.
      proxyRes.once('close', () => {
        if (!res.writableEnded) res.end();
      });
      const mpeg = MPEG_TYPES.has(type.split(';')[0]!.trim().toLowerCase());
      // Icecast's answer is close-delimited: relay its bytes ourselves, the same way to the listener.
      const closeDelimited =
        proxyRes.headers['transfer-encoding'] === undefined && proxyRes.headers['content-length'] === undefined;
      if (closeDelimited && res.socket) {
        res.useChunkedEncodingByDefault = false;
        res.setHeader('Connection', 'close');
        res.flushHeaders();
        const relay = relayStream(proxyRes.socket, res.socket, mpeg);
        if (relay) {
          proxyRes.on('data', relay.push);
          return;
        }
      }
      res.flushHeaders();
      if (mpeg) startOnFrame(proxyRes, res);
      else proxyRes.pipe(res);
    });

    proxyServer.on('error', (err, req) => {
      const listener = req && listeners.get(req as IncomingMessage);
      if (!listener || listener.answered) {
        if (listener) fail(listener, 502, TEXT.badGateway);
        return;
      }
      log.warn({ code: (err as NodeJS.ErrnoException).code, port: listener.port }, 'stream upstream unreachable');
      fail(listener, 502, TEXT.badGateway);
    });
  };

  const relay = createProxyMiddleware({
    router: (req) => listeners.get(req)?.target ?? upstreamUrl(config.allowedPorts[0]!),
    pathRewrite: () => config.mount,
    changeOrigin: true,
    agent: new RelayAgent(),
    followRedirects: false,
    selfHandleResponse: true,
    ejectPlugins: true,
    plugins: [streamPlugin],
  });

  const handler: RequestHandler = (req: Request, res: Response) => {
    const port = requestedPort(req.originalUrl, config.allowedPorts);
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
    if (port === null || hasBody) {
      answer(res, 400, TEXT.badPort);
      return;
    }
    if (closing) {
      answer(res, 503, TEXT.closing, true);
      return;
    }
    if (req.method === 'HEAD') {
      // Headers only, from what we know: opening an upstream listener for a HEAD would waste a slot there.
      res.status(200).set({
        'Content-Type': contentTypes.get(port) ?? 'audio/mpeg',
        'Cache-Control': 'no-store',
        'X-Accel-Buffering': 'no',
      });
      res.end();
      return;
    }
    const release = slots.take(req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (!release) {
      answer(res, 503, TEXT.busy, true);
      return;
    }

    const listener: Listener = { req, res, port, target: upstreamUrl(port), answered: false };
    listeners.set(req, listener);
    listener.deadline = setTimeout(() => {
      log.warn({ port, timeoutMs: config.connectTimeoutMs }, 'stream upstream did not answer in time');
      fail(listener, 504, TEXT.timeout);
    }, config.connectTimeoutMs);
    res.once('close', () => {
      clearTimeout(listener.deadline);
      listener.proxyReq?.destroy();
      listener.proxyRes?.destroy();
      listeners.delete(req);
      release();
    });

    void relay(req, res, (err?: unknown) => {
      // Only reached when the proxy itself threw before or while starting the request.
      if (err) log.warn({ err, port }, 'stream proxy failed');
      fail(listener, 502, TEXT.badGateway);
    });
  };

  return {
    handler,
    closeAll() {
      closing = true;
      for (const listener of listeners.values()) fail(listener, 503, TEXT.closing, true);
    },
    get activeListeners() {
      return slots.active;
    },
  };
}

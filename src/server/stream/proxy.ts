/**
 * GET /api/stream?port=N: the live stream from Icecast, relayed as it arrives.
 *
 * http-proxy-middleware (v4, on httpxy) runs the exchange with the upstream;
 * its defaults do not fit a live stream, so this module configures it and
 * handles what it does not:
 * - Our own agent (relay.ts): httpxy's shared agent allows only 256 sockets per
 *   host and would queue listener 257 forever; ours has no cap and no pooling.
 * - `selfHandleResponse`: we pick the headers (the stream's type and icy-*
 *   description, but not the upstream's Server, Connection, icy-url (an internal
 *   address) or Access-Control-Allow-Origin: our CORP same-origin stands;
 *   no-store, X-Accel-Buffering: no) and map Icecast's 404/403 to 503;
 *   redirects are never followed (followRedirects off).
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
 * - A listener who stops reading: once its socket has accepted nothing for
 *   sendTimeoutMs while audio waits for it (nginx's send_timeout), it is ended.
 * - HEAD opens no listener: it answers what a GET would get now, from the
 *   latest state (a listener's answer or Icecast's status) at most a few seconds old.
 */
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { Request, Response } from 'express';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import type { Logger } from 'pino';
import { createFrameAligner } from '../audio/mp3-frames.ts';
import type { StreamConfig } from './config.ts';
import { createListenerSlots } from './listener-slots.ts';
import type { IcecastStatus } from './now-playing.ts';
import { requestedPort } from './port-param.ts';
import { RelayAgent, relayStream } from './relay.ts';
import { upstreamOrigin, type UpstreamHealth, type UpstreamStatus } from './upstream.ts';

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

/**
 * Response headers that describe the stream. Not `icy-metaint` (we never ask for metadata) nor
 * `icy-url` (often the upstream's internal address).
 */
function describesStream(name: string): boolean {
  return (
    name === 'content-type' ||
    name === 'ice-audio-info' ||
    (name.startsWith('icy-') && name !== 'icy-metaint' && name !== 'icy-url')
  );
}

/** The describing headers of an upstream answer, first value of each (Icecast may repeat some). */
function streamHeaders(rawHeaders: string[]): [string, string][] {
  const headers = new Map<string, string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (describesStream(name) && !headers.has(name)) headers.set(name, rawHeaders[i + 1]!);
  }
  if (!headers.has('content-type')) headers.set('content-type', 'audio/mpeg');
  return [...headers];
}

/** The stream's own answer headers, the same for GET and HEAD. */
function setStreamHeaders(res: ServerResponse, headers: [string, string][]): void {
  res.statusCode = 200;
  for (const [name, value] of headers) {
    try {
      res.setHeader(name, value);
    } catch {
      /* a value Node will not send is simply dropped */
    }
  }
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Accel-Buffering', 'no');
  // The body ends with the connection, as Icecast's does.
  res.setHeader('Connection', 'close');
}

const MPEG_TYPES = new Set(['audio/mpeg', 'audio/mp3', 'audio/mpeg3']);

/** HEAD answers from what is known about the upstream if it is at most this old. */
const HEAD_STATE_MAX_AGE_MS = 3_000;

/** Starts a piped MP3 stream on a frame boundary (see createFrameAligner), then pipes the rest untouched. */
function pipeFromFrame(proxyRes: IncomingMessage, res: ServerResponse): void {
  const aligner = createFrameAligner();
  const onData = (chunk: Buffer) => {
    const start = aligner.push(chunk);
    if (start === null) return;
    proxyRes.off('data', onData);
    proxyRes.pause();
    res.write(start);
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
  /** Bytes the listener's socket had accepted at the last send-timeout sweep, and when that changed. */
  accepted: number;
  acceptedAt: number;
}

/** Answers GET or HEAD /api/stream?port=N for the client at `client`; `onError` gets what the proxy itself threw. */
export type StreamHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  client: string,
  onError: (err: unknown) => void,
) => void;

export interface StreamProxy {
  handler: StreamHandler;
  /** Ends every open listener response (graceful shutdown) and refuses new ones. */
  closeAll(): void;
  readonly activeListeners: number;
}

export interface StreamProxyDeps {
  logger: Logger;
  health: UpstreamHealth;
  /** Icecast's status, for HEAD when nothing recent is known. */
  status: IcecastStatus;
}

/** The status GET would answer with, as text and whether to say when to retry. */
const ANSWERS: Record<Exclude<UpstreamStatus, 200>, { text: string; retry: boolean }> = {
  502: { text: TEXT.badGateway, retry: false },
  503: { text: TEXT.unavailable, retry: true },
  504: { text: TEXT.timeout, retry: false },
};

export function createStreamProxy(config: StreamConfig, { logger, health, status }: StreamProxyDeps): StreamProxy {
  const log = logger.child({ component: 'stream-proxy' });
  const slots = createListenerSlots(config.maxListeners, config.maxListenersPerClient);
  const listeners = new Map<IncomingMessage, Listener>();
  /** The describing headers of the last stream answer per port, for HEAD answers. */
  const lastHeaders = new Map<number, [string, string][]>();
  let closing = false;

  /** A short plain-text answer; HEAD gets the same headers, Content-Length included. */
  function answer(res: ServerResponse, code: number, text: string, retry = false): void {
    if (res.headersSent || res.destroyed) {
      if (!res.writableEnded) res.end();
      return;
    }
    res.statusCode = code;
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    if (retry) res.setHeader('Retry-After', String(config.retryAfterSeconds));
    res.end(text);
  }

  /** Clears the connect deadline and lets its timer go: a listener is held for hours. */
  function endDeadline(listener: Listener): void {
    clearTimeout(listener.deadline);
    listener.deadline = undefined;
  }

  /** Ends a listener's exchange with an error status (before headers) or by ending the stream (after). */
  function fail(listener: Listener, code: number, text: string, retry = false): void {
    endDeadline(listener);
    const streaming = listener.answered;
    listener.answered = true;
    // Answer (or end the stream) first, so the listener gets a clean end before the upstream is torn down.
    if (streaming) listener.res.end();
    else answer(listener.res, code, text, retry);
    listener.proxyReq?.destroy();
    listener.proxyRes?.destroy();
  }

  /** Fails a listener with what the upstream did, and remembers it for HEAD. */
  function upstreamFailed(listener: Listener, code: Exclude<UpstreamStatus, 200>): void {
    health.record(listener.port, code);
    fail(listener, code, ANSWERS[code].text, ANSWERS[code].retry);
  }

  /**
   * nginx's send_timeout: a listener whose socket has accepted nothing for sendTimeoutMs while
   * audio waits for it is ended, which releases its upstream. One sweep for all listeners.
   */
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const listener of listeners.values()) {
        const socket = listener.res.socket;
        if (!listener.answered || !socket) continue;
        const accepted = socket.bytesWritten - socket.writableLength;
        if (socket.writableLength === 0 || accepted !== listener.accepted) {
          listener.accepted = accepted;
          listener.acceptedAt = now;
        } else if (now - listener.acceptedAt >= config.sendTimeoutMs) {
          log.info({ port: listener.port, sendTimeoutMs: config.sendTimeoutMs }, 'listener stopped reading; ended');
          socket.destroy();
        }
      }
    },
    Math.min(5_000, Math.max(100, Math.floor(config.sendTimeoutMs / 4))),
  );
  sweep.unref();

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
      endDeadline(listener);
      listener.proxyRes = proxyRes;
      const code = proxyRes.statusCode ?? 502;
      if (code !== 200) {
        // 404: mount missing or its source gone; 403: Icecast's listener limits. Both pass with time.
        log.debug({ status: code, port: listener.port }, 'stream upstream refused the listener');
        upstreamFailed(listener, code === 404 || code === 403 ? 503 : 502);
        return;
      }
      health.record(listener.port, 200);
      listener.answered = true;
      const headers = streamHeaders(proxyRes.rawHeaders);
      lastHeaders.set(listener.port, headers);
      setStreamHeaders(res, headers);

      // Icecast itself drops a source silent for 10 s, so only a longer silence ends the stream here.
      proxyRes.socket.setTimeout(config.idleTimeoutMs, () => {
        log.warn({ port: listener.port, idleMs: config.idleTimeoutMs }, 'stream upstream stalled; ending the listener');
        fail(listener, 504, TEXT.timeout);
      });
      // The upstream went away (source stopped, Icecast restarted): end the listener's response now.
      proxyRes.on('close', () => {
        if (!res.writableEnded) res.end();
      });
      const type = res.getHeader('content-type') as string;
      const mpeg = MPEG_TYPES.has(type.split(';')[0]!.trim().toLowerCase());
      // Icecast's answer is close-delimited: relay its bytes ourselves, the same way to the listener.
      const closeDelimited =
        proxyRes.headers['transfer-encoding'] === undefined && proxyRes.headers['content-length'] === undefined;
      if (closeDelimited && res.socket) {
        res.useChunkedEncodingByDefault = false;
        res.flushHeaders();
        const relay = relayStream(proxyRes, res.socket, mpeg);
        if (relay) {
          proxyRes.on('data', relay.push);
          return;
        }
      }
      res.removeHeader('Connection');
      res.flushHeaders();
      if (mpeg) pipeFromFrame(proxyRes, res);
      else proxyRes.pipe(res);
    });

    proxyServer.on('error', (err, req) => {
      const listener = req && listeners.get(req as IncomingMessage);
      if (!listener || listener.answered) {
        if (listener) fail(listener, 502, TEXT.badGateway);
        return;
      }
      log.debug({ code: (err as NodeJS.ErrnoException).code, port: listener.port }, 'stream upstream unreachable');
      upstreamFailed(listener, 502);
    });
  };

  const relay = createProxyMiddleware({
    router: (req) => listeners.get(req)?.target ?? upstreamOrigin(config, config.allowedPorts[0]!),
    pathRewrite: () => config.mount,
    changeOrigin: true,
    agent: new RelayAgent(),
    followRedirects: false,
    selfHandleResponse: true,
    ejectPlugins: true,
    plugins: [streamPlugin],
  });

  /** HEAD: what a GET would get now, without opening a listener here or upstream. */
  async function answerHead(res: ServerResponse, port: number): Promise<void> {
    const code = health.latest(port, HEAD_STATE_MAX_AGE_MS) ?? (await status.read(port, HEAD_STATE_MAX_AGE_MS)).status;
    if (code !== 200) {
      answer(res, code, ANSWERS[code].text, ANSWERS[code].retry);
      return;
    }
    setStreamHeaders(res, lastHeaders.get(port) ?? streamHeaders([]));
    res.end();
  }

  const handler: StreamHandler = (req, res, client, onError) => {
    const port = requestedPort(req.url ?? '', config.allowedPorts);
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
      if (slots.full(client)) answer(res, 503, TEXT.busy, true);
      else answerHead(res, port).catch(onError);
      return;
    }
    const release = slots.take(client);
    if (!release) {
      answer(res, 503, TEXT.busy, true);
      return;
    }

    const listener: Listener = {
      req,
      res,
      port,
      target: upstreamOrigin(config, port),
      answered: false,
      accepted: 0,
      acceptedAt: 0,
    };
    listeners.set(req, listener);
    listener.deadline = setTimeout(() => {
      log.debug({ port, timeoutMs: config.connectTimeoutMs }, 'stream upstream did not answer in time');
      upstreamFailed(listener, 504);
    }, config.connectTimeoutMs);
    res.on('close', () => {
      endDeadline(listener);
      listener.proxyReq?.destroy();
      listener.proxyRes?.destroy();
      listeners.delete(req);
      release();
    });

    void relay(req as Request, res as Response, (err?: unknown) => {
      // Only reached when the proxy itself threw before or while starting the request.
      if (err) log.error({ err, port }, 'stream proxy failed');
      fail(listener, 502, TEXT.badGateway);
    });
  };

  return {
    handler,
    closeAll() {
      closing = true;
      clearInterval(sweep);
      for (const listener of listeners.values()) fail(listener, 503, TEXT.closing, true);
    },
    get activeListeners() {
      return slots.active;
    },
  };
}

/**
 * GET|HEAD /api/stream?port=N: checks the request, takes a listener slot, and hands the listener
 * to its mount's feed (mount-feed.ts), which relays the one upstream connection of the process.
 * The parts: caps (listener-slots.ts, by ../client-key.ts), the registry (listeners.ts), the send
 * timeout (the server's one sweep, ../send-timeout.ts, with the stream's limit), the upstream
 * exchange through http-proxy-middleware (upstream-exchange.ts), the headers (stream-headers.ts)
 * and HEAD (head.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { answerText, TEXT, UPSTREAM_ANSWERS } from './answers.ts';
import type { StreamConfig } from './config.ts';
import { answerHead } from './head.ts';
import type { SendTimeouts } from '../send-timeout.ts';
import type { IcecastStatus } from './icecast-status.ts';
import { createListenerSlots } from './listener-slots.ts';
import { createListenerRegistry, type StreamListener } from './listeners.ts';
import type { ListeningFigures } from './listening.ts';
import { createMountFeed, type MountFeed } from './mount-feed.ts';
import { requestedPort } from './port-param.ts';
import { createUpstreamExchange } from './upstream-exchange.ts';
import type { UpstreamHealth } from './upstream.ts';

/** Answers GET or HEAD /api/stream?port=N for the client at `client`; `onError` gets what the handler itself threw. */
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
  /** Listeners being served right now (of one port, or all). */
  listeners(port?: number): number;
  /** Listener-seconds, sessions and peaks per port (listening.ts). */
  readonly listening: ListeningFigures;
  /** Whether this process relays the port's mount right now. */
  relaying(port: number): boolean;
  /** The port's newest listener: the past audio it started with and when its first byte was live (mount-feed.ts). */
  newest(port: number): { lagS: number; fromMs: number } | null;
}

export interface StreamProxyDeps {
  logger: Logger;
  health: UpstreamHealth;
  /** Icecast's status, for HEAD when nothing recent is known. */
  status: IcecastStatus;
  /** The server's send-timeout sweep: a listener's connection gets STREAM_SEND_TIMEOUT_MS. */
  sendTimeouts: SendTimeouts;
}

const hasBody = (req: IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';

export function createStreamProxy(
  config: StreamConfig,
  { logger, health, status, sendTimeouts }: StreamProxyDeps,
): StreamProxy {
  const log = logger.child({ component: 'stream-proxy' });
  const slots = createListenerSlots(config.maxListeners, config.maxListenersPerClient);
  const registry = createListenerRegistry();
  const openExchange = createUpstreamExchange(config);
  const refuse = (listener: StreamListener, code: keyof typeof UPSTREAM_ANSWERS) => {
    const { text, retry } = UPSTREAM_ANSWERS[code];
    answerText(listener.res, code, text, retry ? config.retryAfterSeconds : undefined);
  };
  const feeds = new Map<number, MountFeed>(
    config.allowedPorts.map((port) => [port, createMountFeed(port, { config, openExchange, health, log, refuse })]),
  );
  const headersOf = (port: number) => {
    const feed = feeds.get(port)!;
    return { live: feed.liveHeaders !== null, headers: feed.lastHeaders };
  };
  let closing = false;

  const listen = (res: ServerResponse, port: number, release: () => void) => {
    const listener: StreamListener = { res, port, streaming: false };
    const feed = feeds.get(port)!;
    registry.add(listener);
    const { sendTimeoutMs } = config;
    if (res.socket)
      sendTimeouts.markStream(res.socket, () => log.info({ port, sendTimeoutMs }, 'listener stopped reading; ended'));
    res.on('close', () => {
      registry.delete(listener);
      feed.leave(listener);
      release();
    });
    feed.join(listener);
  };

  const handler: StreamHandler = (req, res, client, onError) => {
    const port = requestedPort(req.url ?? '', config.allowedPorts);
    if (port === null || hasBody(req)) return answerText(res, 400, TEXT.badPort);
    if (closing) return answerText(res, 503, TEXT.closing, config.retryAfterSeconds);
    if (req.method === 'HEAD') {
      if (slots.full(client)) return answerText(res, 503, TEXT.busy, config.retryAfterSeconds);
      answerHead(res, port, { health, status, retryAfterS: config.retryAfterSeconds, headersOf }).catch(onError);
      return;
    }
    const release = slots.take(client);
    if (!release) return answerText(res, 503, TEXT.busy, config.retryAfterSeconds);
    listen(res, port, release);
  };

  return {
    handler,
    closeAll() {
      closing = true;
      for (const listener of [...registry]) {
        if (listener.streaming) listener.res.end();
        else answerText(listener.res, 503, TEXT.closing, config.retryAfterSeconds);
      }
    },
    listeners: (port) => registry.count(port),
    listening: registry.listening,
    relaying: (port) => feeds.get(port)?.liveHeaders != null,
    newest: (port) => feeds.get(port)?.newest ?? null,
  };
}

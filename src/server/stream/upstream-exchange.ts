/**
 * The one exchange with the upstream per mount: http-proxy-middleware (on httpxy) asks Icecast
 * for the mount and hands us its response (`selfHandleResponse`), which mount-feed.ts relays to
 * every listener of the process. The request it proxies is ours, not a listener's: the upstream
 * then outlives whichever listener came first, and sees exactly our request line and headers
 * (no cookies, Range, Icy-MetaData or X-Forwarded-*). Redirects are never followed.
 */
import { Agent, type ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Request, Response } from 'express';
import { createProxyMiddleware, type Plugin } from 'http-proxy-middleware';
import type { StreamConfig } from './config.ts';
import { upstreamOrigin } from './upstream.ts';

export interface ExchangeEvents {
  /** The upstream's response head (its body follows as the response's 'data'). */
  response(upstream: IncomingMessage): void;
  /** No response: refused, reset, or the proxy failed. */
  error(err: unknown): void;
}

export interface Exchange {
  /** Ends the exchange (request and response); no event follows. */
  abort(): void;
}

export type OpenExchange = (port: number, events: ExchangeEvents) => Exchange;

interface Pending {
  port: number;
  events: ExchangeEvents;
  done: boolean;
  proxyReq?: ClientRequest;
  upstream?: IncomingMessage;
}

const USER_AGENT = 'chicago-city-news-relay';

/** The request the proxy forwards: GET of the mount, with no body, as a plain Node request object. */
function exchangeRequest(config: StreamConfig): { req: IncomingMessage; res: ServerResponse } {
  const req = new IncomingMessage(new Socket());
  req.method = 'GET';
  req.url = config.mount;
  req.httpVersion = '1.1';
  req.headers = { host: 'upstream', 'user-agent': USER_AGENT, accept: '*/*' };
  req.push(null);
  return { req, res: new ServerResponse(req) };
}

export function createUpstreamExchange(config: StreamConfig): OpenExchange {
  const pending = new WeakMap<IncomingMessage, Pending>();
  const live = (req: unknown) => {
    const entry = pending.get(req as IncomingMessage);
    return entry && !entry.done ? entry : null;
  };

  const plugin: Plugin = (proxyServer) => {
    proxyServer.on('proxyReq', (proxyReq, req) => {
      const entry = live(req);
      if (entry) entry.proxyReq = proxyReq;
      else proxyReq.destroy();
    });
    proxyServer.on('proxyRes', (upstream, req) => {
      const entry = live(req);
      if (!entry) {
        upstream.destroy();
        return;
      }
      entry.upstream = upstream;
      entry.events.response(upstream);
    });
    proxyServer.on('error', (err, req) => {
      const entry = live(req);
      if (!entry) return;
      entry.done = true;
      entry.events.error(err);
    });
  };

  const proxy = createProxyMiddleware({
    router: (req) => upstreamOrigin(config, pending.get(req)?.port ?? config.allowedPorts[0]!),
    changeOrigin: true,
    // No pooling (a stream connection is never reused) and no cap (httpxy's shared agent allows 256).
    agent: new Agent({ keepAlive: false, maxSockets: Infinity }),
    followRedirects: false,
    selfHandleResponse: true,
    ejectPlugins: true,
    plugins: [plugin],
  });

  return (port, events) => {
    const { req, res } = exchangeRequest(config);
    const entry: Pending = { port, events, done: false };
    pending.set(req, entry);
    void proxy(req as Request, res as Response, (err?: unknown) => {
      // Reached only when the proxy itself failed before or while starting the request.
      if (entry.done) return;
      entry.done = true;
      events.error(err ?? new Error('stream proxy did not run'));
    });
    return {
      abort() {
        entry.done = true;
        entry.proxyReq?.destroy();
        entry.upstream?.destroy();
      },
    };
  };
}

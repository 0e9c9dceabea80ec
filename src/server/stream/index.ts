/**
 * The radio's server side, mounted at /api before compression:
 * - GET|HEAD /stream?port=N   the live stream through our proxy (proxy.ts)
 * - GET /now-playing?port=N   title and listener count from Icecast's status (now-playing.ts)
 * With no upstream configured, prepareStream() starts the built-in demo
 * station on loopback and points the proxy at it.
 */
import { Router } from 'express';
import type { Logger } from 'pino';
import { startDemoStation } from '../demo-station/station.ts';
import type { StreamConfig } from './config.ts';
import { createNowPlayingHandler } from './now-playing.ts';
import { createStreamProxy } from './proxy.ts';

export interface StreamService {
  /** Mounted at /api. */
  router: Router;
  /** Ends every open listener response (graceful shutdown). */
  closeAll(): void;
  /** Listeners being served right now. */
  readonly activeListeners: number;
}

export function createStreamService(config: StreamConfig, logger: Logger): StreamService {
  const proxy = createStreamProxy(config, logger);
  const router = Router();
  router.get('/stream', proxy.handler);
  router.get('/now-playing', createNowPlayingHandler(config, logger));
  return {
    router,
    closeAll: () => proxy.closeAll(),
    get activeListeners() {
      return proxy.activeListeners;
    },
  };
}

/** Starts the embedded demo station when no upstream is configured; returns the config to use. */
export async function prepareStream(
  config: StreamConfig,
  logger: Logger,
): Promise<{ config: StreamConfig; close(): Promise<void> }> {
  if (config.upstreamHost) return { config, close: async () => {} };
  logger.info('STREAM_UPSTREAM_HOST is not set: playing the built-in demo station');
  const station = await startDemoStation({ mount: config.mount, host: '127.0.0.1', port: 0, logger });
  // Visitors still ask for the public port (8076); it maps to wherever the station listens.
  const upstreamPorts = Object.fromEntries(config.allowedPorts.map((p) => [p, station.port]));
  return {
    config: { ...config, upstreamHost: '127.0.0.1', upstreamPorts },
    close: () => station.close(),
  };
}

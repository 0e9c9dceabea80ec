import { Router } from 'express';
import type { Logger } from 'pino';
import type { StreamConfig } from './config.ts';

/** The /api/stream proxy and friends (placeholder until issue 4 lands). */
export interface StreamService {
  /** Mounted at /api. */
  router: Router;
  /** Ends every open listener response (graceful shutdown). */
  closeAll(): void;
}

export function createStreamService(config: StreamConfig, logger: Logger): StreamService {
  void config;
  void logger;
  const router = Router();
  router.get('/stream', (_req, res) => {
    res.status(503).set('Retry-After', '5').type('text/plain').send('Stream unavailable');
  });
  return { router, closeAll() {} };
}

/** Starts the embedded demo station when no upstream is configured; returns the config to use. */
export async function prepareStream(
  config: StreamConfig,
  logger: Logger,
): Promise<{ config: StreamConfig; close(): Promise<void> }> {
  void logger;
  return { config, close: async () => {} };
}

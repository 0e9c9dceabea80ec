import { pino, type Logger } from 'pino';
import type { Config } from './config.ts';
import { sharedStdout } from './log-destination.ts';

export type { Logger };

/** JSON lines on stdout, one per event, written a few KB at a time (log-destination.ts). */
export function createLogger(level: Config['logLevel']): Logger {
  return pino({ level, base: { service: 'web' } }, sharedStdout());
}

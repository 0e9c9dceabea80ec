import { type LevelWithSilent, type Logger, pino } from 'pino';
import { sharedStdout } from './log-destination.ts';

/** JSON lines on stdout, one per event, written a few KB at a time (log-destination.ts). */
export function createLogger(level: LevelWithSilent): Logger {
  return pino({ level, base: { service: 'web' } }, sharedStdout());
}

import { type LevelWithSilent, type Logger, pino } from 'pino';
import { type BufferedDestination, sharedStdout } from './log-destination.ts';

/** Where a logger writes: pino's interface, and the bytes path when it is the process's stdout. */
export type LogDestination = { write(line: string): void } & Partial<Pick<BufferedDestination, 'writeLine'>>;

/**
 * The destination of each logger made here. pino keeps it in a field of its own (a symbol it calls
 * non-public), so the request log, which writes its prepared lines beside pino's, asks here.
 */
const destinations = new WeakMap<Logger, LogDestination>();

/**
 * JSON lines, one per event, on stdout written a few KB at a time (log-destination.ts), or on the
 * destination given (tests); `bindings` join `service` on every line.
 */
export function createLogger(
  level: LevelWithSilent,
  destination: LogDestination = sharedStdout(),
  bindings: Record<string, string> = {},
): Logger {
  const logger = pino({ level, base: { service: 'web', ...bindings } }, destination);
  destinations.set(logger, destination);
  return logger;
}

/** The destination of a logger made by createLogger (not of its children: each is a logger of its own). */
export function destinationOf(logger: Logger): LogDestination {
  const destination = destinations.get(logger);
  if (!destination) throw new Error('this logger was not made by createLogger (logger.ts)');
  return destination;
}

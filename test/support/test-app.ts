import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createApp, type AppOptions } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { Logger } from '../../src/server/logger.ts';

/** Configuration as the server would read it from exactly this environment (nothing inherited). */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env });
}

/** A logger whose JSON lines the test can read (parsed, or as written). */
export function captureLogger(): {
  logger: Logger;
  lines: () => Array<Record<string, unknown>>;
  rawLines: () => string[];
} {
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = pino({ level: 'info' }, sink);
  return { logger, lines: () => raw.map((l) => JSON.parse(l) as Record<string, unknown>), rawLines: () => [...raw] };
}

/** The app's request handler (framing checks, page fast lane, Express), for supertest. */
export function testApp(env: Record<string, string> = {}, options: AppOptions = {}) {
  return createApp(testConfig(env), options).handle;
}

import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import { type App, type AppParts, createApp } from '../../src/server/app.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import type { Logger } from 'pino';
import { createLogger } from '../../src/server/logger.ts';
import { loadManifest } from '../../src/server/manifest.ts';
import { createSendTimeouts, type SendTimeouts } from '../../src/server/send-timeout.ts';
import { resolveUpstream, type StreamConfig } from '../../src/server/stream/config.ts';
import { createStreamService } from '../../src/server/stream/index.ts';
import { untilValue } from './wait.ts';

/**
 * Configuration as the server would read it from exactly this environment (nothing inherited).
 * Rewind is off unless the test turns it on: a recorder is one more listener at the station.
 */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', REWIND: 'off', ...env });
}

export interface CapturedLog {
  logger: Logger;
  lines: () => Array<Record<string, unknown>>;
  rawLines: () => string[];
}

/** A logger whose JSON lines the test can read (parsed, or as written). */
export function captureLogger(): CapturedLog {
  const raw: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      raw.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('info', sink);
  return { logger, lines: () => raw.map((l) => JSON.parse(l) as Record<string, unknown>), rawLines: () => [...raw] };
}

/**
 * The stream's configuration with its upstream resolved, as the composition root resolves it. These
 * apps start no demo station: without STREAM_UPSTREAM_HOST the upstream is loopback's stream port,
 * where nothing answers.
 */
export const streamConfigOf = (config: Config): StreamConfig =>
  resolveUpstream(config.stream, { host: '127.0.0.1', port: config.stream.allowedPorts[0]! });

/** The send-timeout sweep with the configured limits (its timer is unref'd: nothing to stop). */
export const sendTimeoutsFor = (config: Config): SendTimeouts =>
  createSendTimeouts({ pageMs: config.timeouts.sendMs, streamMs: config.stream.sendTimeoutMs });

/**
 * The app without a server, with the parts the composition root would give it (a silent log unless
 * given one, the build's manifest, a send-timeout sweep a server may feed its connections to).
 */
export function appFor(
  config: Config,
  parts: Partial<AppParts> = {},
  sendTimeouts: SendTimeouts = sendTimeoutsFor(config),
): App {
  const logger = parts.logger ?? createLogger(config.logLevel);
  return createApp(config, {
    streams: parts.streams ?? createStreamService(streamConfigOf(config), logger, { sendTimeouts }),
    manifest: loadManifest(config.distDir),
    ...parts,
    logger,
  });
}

/**
 * A server (not listening: supertest starts it) with the app's request handler (the front door
 * over every lane) and the send-timeout sweep, as the composition root makes it.
 */
export function testApp(env: Record<string, string> = {}, parts: Partial<AppParts> = {}): Server {
  const config = testConfig(env);
  const sendTimeouts = sendTimeoutsFor(config);
  const app = appFor(config, parts, sendTimeouts);
  return createServer(app.handle).on('connection', sendTimeouts.watch).on('clientError', app.clientError);
}

let markers = 0;

/**
 * What `send` returned and the raw log lines its requests wrote. Lines are written as responses close,
 * in order: once the line of a request made after them is in (`after(url)` sends it, to a path that
 * logs), every line of theirs is too. The lines before that one are returned.
 */
export async function linesWrittenBy<T>(
  log: CapturedLog,
  send: () => Promise<T>,
  after: (url: string) => Promise<unknown>,
): Promise<{ result: T; lines: string[] }> {
  const before = log.rawLines().length;
  const result = await send();
  const marker = `/after-${process.pid}-${++markers}`;
  await after(marker);
  const lines = await untilValue(`the log line of ${marker}`, () => {
    const written = log.rawLines().slice(before);
    const at = written.findIndex((line) => line.includes(`"url":"${marker}"`));
    return at < 0 ? undefined : written.slice(0, at);
  });
  return { result, lines };
}

/**
 * Process entry: read configuration, start listening, stop gracefully on
 * SIGTERM/SIGINT and exit within the shutdown timeout (under 10 s).
 */
import { createApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { ConfigError } from './config-error.ts';
import { type RunningServer, startServer } from './lifecycle.ts';
import { createLogger } from './logger.ts';
import { createStreamService, prepareStream } from './stream/index.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = readConfig();
const logger = createLogger(config.logLevel);
const stream = await prepareStream(config.stream, logger);
const streams = createStreamService(stream.config, logger);
const app = createApp({ ...config, stream: stream.config }, { logger, streams });

let running: RunningServer;
try {
  running = await startServer(app, config, logger);
} catch (error) {
  logger.fatal({ err: error }, `cannot listen on ${config.host}:${config.port}`);
  await stream.close();
  process.exit(1);
}
logger.info({ url: `http://${config.host}:${config.port}`, streamUpstream: stream.config.upstreamHost }, 'listening');

const { stop } = running;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, async () => {
    // Last resort if something below never settles: the process must not outlive its grace period.
    setTimeout(() => process.exit(1), config.timeouts.shutdownMs + 1_000).unref();
    await stop(signal);
    await stream.close();
    logger.info('stopped');
    process.exit(0);
  });
}

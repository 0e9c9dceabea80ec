/**
 * Process entry: read configuration, start listening, shut down gracefully.
 * On SIGTERM/SIGINT: stop accepting, let in-flight pages finish, end open
 * streams, exit within the shutdown timeout (under 10 s).
 */
import { createServer } from 'node:http';
import { createApp, type AppLocals } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { ConfigError } from './config-error.ts';
import { createLogger } from './logger.ts';
import { prepareStream } from './stream/index.ts';

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
const app = createApp({ ...config, stream: stream.config }, { logger });
const { streams } = app.locals as AppLocals;

const server = createServer(
  {
    maxHeaderSize: config.maxHeaderSize,
    requestTimeout: config.timeouts.requestMs,
    headersTimeout: config.timeouts.headersMs,
    keepAliveTimeout: config.timeouts.keepAliveMs,
  },
  app,
);

server.on('error', (error) => {
  logger.fatal({ err: error }, 'server error');
  process.exit(1);
});

server.listen(config.port, config.host, () => {
  logger.info({ url: `http://${config.host}:${config.port}`, streamUpstream: stream.config.upstreamHost }, 'listening');
});

let shuttingDown = false;
function shutdown(signal: NodeJS.Signals): void {
  if (shuttingDown) return;
  shuttingDown = true;
  logger.info({ signal }, 'shutting down');
  const force = setTimeout(() => {
    logger.warn('shutdown timeout: closing remaining connections');
    server.closeAllConnections();
    process.exit(0);
  }, config.timeouts.shutdownMs);
  force.unref();

  server.close(async () => {
    await stream.close();
    logger.info('stopped');
    process.exit(0);
  });
  server.closeIdleConnections();
  streams.closeAll();
}

process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

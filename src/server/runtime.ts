/**
 * The composition root: the one place the process's parts are built, from the validated
 * configuration, and the one place they are started and stopped. Start, in order: the logger, the
 * radio's upstream (the built-in demo station when no STREAM_UPSTREAM_HOST is set) and the stream
 * service, the app (its lanes behind the front door), the listening server. Stop, in reverse: the
 * server stops taking requests and lets answers under way finish while the open streams are ended,
 * then the demo station closes, then the log is flushed. Each part gets what it needs as
 * arguments; none reads another's.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AppOptions, createApp } from './app.ts';
import type { Config } from './config.ts';
import { startDemoStation } from './demo-station/station.ts';
import { type RunningServer, startServer } from './lifecycle.ts';
import { sharedStdout } from './log-destination.ts';
import type { Logger } from 'pino';
import { createLogger } from './logger.ts';
import { createMetrics, type Metrics, serveMetrics } from './metrics.ts';
import type { StreamConfig } from './stream/config.ts';
import { createStreamService } from './stream/index.ts';

export interface RuntimeOptions extends AppOptions {
  /** Tests read the log; otherwise JSON lines on stdout (logger.ts). */
  logger?: Logger;
}

export interface Runtime {
  server: Server;
  /** `http://host:port`, with the port the server got (PORT=0 in tests). */
  url: string;
  /** Stops every part in reverse order; resolves once all are stopped (or the shutdown timeout forced the server). */
  stop(reason: string): Promise<void>;
}

interface Upstream {
  /** The stream's settings with the upstream it is to use. */
  stream: StreamConfig;
  close(): Promise<void>;
}

/** The configured Icecast, or the demo station on loopback, started here when none is configured. */
async function startUpstream(stream: StreamConfig, logger: Logger): Promise<Upstream> {
  if (stream.upstreamHost) return { stream, close: async () => {} };
  logger.info('STREAM_UPSTREAM_HOST is not set: playing the built-in demo station');
  const station = await startDemoStation({ mount: stream.mount, host: '127.0.0.1', port: 0, logger });
  // Visitors still ask for the public port; it maps to wherever the station listens.
  const upstreamPorts = Object.fromEntries(stream.allowedPorts.map((port) => [port, station.port]));
  return { stream: { ...stream, upstreamHost: '127.0.0.1', upstreamPorts }, close: () => station.close() };
}

/** Builds and starts every part; a part that fails to start stops those started before it. */
export async function startRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const { logger = createLogger(config.logLevel), ...appOptions } = options;
  const upstream = await startUpstream(config.stream, logger).catch((error: unknown) => {
    logger.fatal({ err: error }, 'cannot start the demo station');
    throw error;
  });
  const metrics: Metrics | undefined = config.metrics
    ? createMetrics({
        streamPorts: upstream.stream.allowedPorts,
        listenersAt: (port) => streams.listenersAt(port),
        droppedLogLines: () => sharedStdout().droppedTotal,
        listening: () => streams.listening,
        pushClients: () => streams.pushClients,
        caps: { listeners: upstream.stream.maxListeners, pushClients: upstream.stream.maxEventClients },
      })
    : undefined;
  const streams = createStreamService(upstream.stream, logger, {
    ...(metrics && { upstreamFailure: metrics.upstreamFailure }),
  });
  const app = createApp(config, {
    ...appOptions,
    logger,
    streams,
    ...(metrics && { observe: metrics.observe, pageEvents: metrics.pages, vitals: metrics.vitals }),
  });
  let running: RunningServer;
  try {
    running = await startServer(app.handle, config, logger);
  } catch (error) {
    logger.fatal({ err: error }, `cannot listen on ${config.host}:${config.port}`);
    await upstream.close();
    throw error;
  }
  let metricsServer: Server | undefined;
  if (metrics && config.metrics) {
    const { port: metricsPort, host } = config.metrics;
    try {
      metricsServer = await serveMetrics(metrics.registry, metricsPort, host);
      logger.info({ url: `http://${host}:${metricsPort}/metrics` }, 'metrics listening');
    } catch (error) {
      logger.fatal({ err: error }, `cannot listen on ${host}:${metricsPort} (METRICS_PORT)`);
      await running.stop('metrics listener failed');
      await upstream.close();
      throw error;
    }
  }
  const { port } = running.server.address() as AddressInfo;
  const url = `http://${config.host}:${port}`;
  logger.info({ url, streamUpstream: upstream.stream.upstreamHost }, 'listening');

  let stopped: Promise<void> | undefined;
  const stop = (reason: string) => {
    stopped ??= (async () => {
      const closed = running.stop(reason);
      // A listener's answer never finishes by itself: end them, so the server can close.
      streams.closeAll();
      metricsServer?.close();
      await closed;
      await upstream.close();
      logger.info('stopped');
      await new Promise<void>((resolve) => logger.flush(() => resolve()));
    })();
    return stopped;
  };
  return { server: running.server, url, stop };
}

/**
 * The composition root: the one place the process's parts are built, from the validated
 * configuration, and the one place they are started and stopped. Starting is a list of named steps
 * (start-steps.ts), each with its own stop:
 *   build output → stream upstream → app → rewind recorder → rewind access log → server → metrics listener
 * A step that fails stops those before it, last first, and the start rejects with a StartFailure
 * (`cannot start <step>: <reason>`, the one line main.ts prints). `stop()` runs the same stops in
 * the same reverse order: the metrics listener closes; the server stops taking requests and lets
 * answers under way finish while the open streams are ended; the rewind recorder writes what it
 * holds; the app's timers stop; the demo station closes; then the log is flushed. Each part gets what it needs as arguments; none reads
 * another's.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { type App, type AppOptions, createApp } from './app.ts';
import type { Config } from './config.ts';
import { startDemoStation } from './demo-station/station.ts';
import { type RunningServer, startServer } from './lifecycle.ts';
import { sharedStdout } from './log-destination.ts';
import { createLogger } from './logger.ts';
import { loadManifest, type Manifest } from './manifest.ts';
import { createMetrics, type Metrics, serveMetrics } from './metrics.ts';
import { createSendTimeouts, type SendTimeouts } from './send-timeout.ts';
import { createSteps, listenError, type Started } from './start-steps.ts';
import { resolveUpstream, type StreamConfig, type StreamSettings } from './stream/config.ts';
import { createStreamService, type StreamService } from './stream/index.ts';
import { type Rewind, rewindOff, startRewind } from './rewind/index.ts';
import { type AccessLogReceiver, receiveAccessLog } from './rewind/access-log.ts';
import { serveRewindFiles } from './rewind/serve.ts';
import { createWindowListening, type WindowListening } from './stream/window-listening.ts';
import { clientIpOf } from './client-ip.ts';
import { REWIND_SEGMENT_TARGET_S } from '../shared/rewind.ts';
import { upstreamOrigin } from './stream/upstream.ts';

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

/** The configuration every part runs with: the stream's upstream resolved, once. */
type RunningConfig = Config & { stream: StreamConfig };

/** The stream's one configuration: the configured Icecast, or the demo station started here on loopback. */
async function startUpstream(settings: StreamSettings, logger: Logger): Promise<Started<StreamConfig>> {
  if (settings.upstreamHost) return { value: resolveUpstream(settings), stop: () => {} };
  logger.info('STREAM_UPSTREAM_HOST is not set: playing the built-in demo station');
  const station = await startDemoStation({ mount: settings.mount, host: '127.0.0.1', port: 0, logger });
  return { value: resolveUpstream(settings, { host: '127.0.0.1', port: station.port }), stop: () => station.close() };
}

interface Parts {
  app: App;
  streams: StreamService;
  metrics: Metrics | undefined;
  sendTimeouts: SendTimeouts;
  /** Set by the rewind step, after the app (the metrics read it when scraped, later still). */
  rewind: { current: Rewind };
  /** The rewind window's listeners: from the segments the app serves, and from nginx's log. */
  windowListening: WindowListening;
  /** Set by the access-log step when REWIND_LOG_PORT is set. */
  accessLog: { current: AccessLogReceiver | null };
}

/** The app and what it is made of; its stop ends the streams and stops the send-timeout sweep. */
function buildApp(config: RunningConfig, logger: Logger, options: AppOptions, manifest: Manifest): Started<Parts> {
  const rewind = { current: rewindOff(config.stream.allowedPorts) };
  const accessLog: Parts['accessLog'] = { current: null };
  const windowListening = createWindowListening({ segmentS: config.rewind?.segmentS ?? REWIND_SEGMENT_TARGET_S });
  const clientIp = clientIpOf(config.trustProxy);
  const sendTimeouts = createSendTimeouts({ pageMs: config.timeouts.sendMs, streamMs: config.stream.sendTimeoutMs });
  const metrics = config.metrics
    ? createMetrics({
        streamPorts: config.stream.allowedPorts,
        listenersAt: (port) => streams.listenersAt(port),
        droppedLogLines: () => sharedStdout().droppedTotal,
        listening: () => streams.listening,
        windowListening: () => windowListening,
        accessLogLines: () => ({ counted: accessLog.current?.counted ?? 0, ignored: accessLog.current?.ignored ?? 0 }),
        pushClients: () => streams.pushClients,
        pushRefusals: () => streams.pushRefusals,
        caps: { listeners: config.stream.maxListeners, pushClients: config.stream.maxEventClients },
        rewind: (port) => rewind.current.figures(port),
      })
    : undefined;
  const streams = createStreamService(config.stream, logger, {
    sendTimeouts,
    recorderConnected: (port) => rewind.current.figures(port).connected,
    ...(metrics && { upstreamFailure: metrics.upstreamFailure }),
  });
  const app = createApp(config, {
    ...options,
    logger,
    streams,
    manifest,
    rewindFiles: serveRewindFiles(config.rewind?.dir ?? null, config.stream.allowedPorts, (req, port) =>
      windowListening.fetched(`${clientIp(req) ?? 'unknown'}\n${req.headers['user-agent'] ?? ''}`, port),
    ),
    ...(metrics && { observe: metrics.observe, pageEvents: metrics.pages, vitals: metrics.vitals }),
  });
  return {
    value: { app, streams, metrics, sendTimeouts, rewind, windowListening, accessLog },
    stop: () => {
      streams.closeAll();
      sendTimeouts.stop();
    },
  };
}

/**
 * Every allowed port's mount recorded into its rewind window (src/server/rewind/), from the same
 * upstream as the relay, titles from the relay's reader; its stop writes what is under way.
 */
async function startRecording(config: RunningConfig, logger: Logger, parts: Parts): Promise<Started<Rewind>> {
  const { rewind, stream } = config;
  if (!rewind) return { value: rewindOff(stream.allowedPorts), stop: () => {} };
  const running = await startRewind(rewind, {
    allowedPorts: stream.allowedPorts,
    urlOf: (port) => `${upstreamOrigin(stream, port)}${stream.mount}`,
    followTitle: (port) => (onTitle) => parts.streams.followTitle(port, onTitle),
    connectTimeoutMs: stream.connectTimeoutMs,
    idleTimeoutMs: stream.idleTimeoutMs,
    log: logger.child({ component: 'rewind' }),
  });
  parts.rewind.current = running;
  return { value: running, stop: () => running.stop() };
}

/**
 * nginx's access log of the window's segments (REWIND_LOG_PORT), counted into the window's
 * listening figures: one process of the host holds the port and counts (rewind/access-log.ts).
 */
async function startAccessLog(
  config: RunningConfig,
  logger: Logger,
  parts: Parts,
): Promise<Started<AccessLogReceiver | null>> {
  const port = config.rewind?.logPort;
  if (!port) return { value: null, stop: () => {} };
  const receiver = await receiveAccessLog({
    port,
    allowedPorts: config.stream.allowedPorts,
    onSegment: ({ client, port: streamPort }) => parts.windowListening.fetched(client, streamPort),
    log: logger.child({ component: 'rewind' }),
  });
  parts.accessLog.current = receiver;
  return { value: receiver, stop: () => receiver.stop() };
}

/** The public server; its stop lets answers under way finish while the open streams are ended. */
async function listen(config: RunningConfig, logger: Logger, parts: Parts): Promise<Started<RunningServer>> {
  const running = await startServer({ ...parts.app, sendTimeouts: parts.sendTimeouts }, config, logger).catch(
    (error: unknown) => {
      throw listenError(error, config.host, config.port, ['HOST', 'PORT']);
    },
  );
  return {
    value: running,
    async stop(reason) {
      const closed = running.stop(reason);
      // A listener's answer never finishes by itself: end them, so the server can close.
      parts.streams.closeAll();
      await closed;
    },
  };
}

/** GET /metrics on its own listener; its stop cuts scrapes under way (nothing there is worth waiting for). */
async function listenForMetrics(
  metrics: Metrics,
  host: string,
  port: number,
  logger: Logger,
): Promise<Started<Server>> {
  const server = await serveMetrics(metrics.registry, port, host).catch((error: unknown) => {
    throw listenError(error, host, port, ['METRICS_HOST', 'METRICS_PORT']);
  });
  logger.info({ url: `http://${host}:${port}/metrics` }, 'metrics listening');
  return {
    value: server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Starts every part in order; a part that fails to start stops those started before it. */
export async function startRuntime(configured: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const { logger = createLogger(configured.logLevel), ...appOptions } = options;
  const steps = createSteps((step, err) => logger.error({ err, step }, 'stopping a part failed'));
  const manifest = await steps.step('build output', () => ({
    value: loadManifest(configured.distDir),
    stop: () => {},
  }));
  // From here on, the one configuration every part is given: the stream's upstream resolved.
  const config: RunningConfig = {
    ...configured,
    stream: await steps.step('stream upstream', () => startUpstream(configured.stream, logger)),
  };
  const parts = await steps.step('app', () => buildApp(config, logger, appOptions, manifest));
  await steps.step('rewind recorder', () => startRecording(config, logger, parts));
  await steps.step('rewind access log', () => startAccessLog(config, logger, parts));
  const running = await steps.step('server', () => listen(config, logger, parts));
  const { metrics } = parts;
  if (metrics && config.metrics) {
    const { host, port } = config.metrics;
    await steps.step('metrics listener', () => listenForMetrics(metrics, host, port, logger));
  }
  const { port } = running.server.address() as AddressInfo;
  const url = `http://${config.host}:${port}`;
  logger.info({ url, streamUpstream: config.stream.upstreamHost }, 'listening');

  let stopped: Promise<void> | undefined;
  const stop = (reason: string) => {
    stopped ??= (async () => {
      await steps.stopAll(reason);
      logger.info('stopped');
      await new Promise<void>((resolve) => logger.flush(() => resolve()));
    })();
    return stopped;
  };
  return { server: running.server, url, stop };
}

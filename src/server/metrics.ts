/**
 * Prometheus metrics (prom-client), served on their own listener (METRICS_PORT, loopback by
 * default), never on the public port. Every label value comes from a fixed set known at start
 * (lanes, status classes, the allowed stream ports, failure reasons), never from a request, and
 * every series exists from the start: the series count does not move with traffic.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { ANSWERED_BY, type AnsweredBy, type AnswerObserver } from './front-door.ts';
import type { PageEvents } from './pages/page-route.ts';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** Upstream failures by what a listener would get: 502, 503, 504 (stream/upstream.ts). */
export const UPSTREAM_FAILURES = { 502: 'unreachable', 503: 'no source', 504: 'timeout' } as const;

export interface MetricSources {
  /** The allowed stream ports, and how many listeners each has now. */
  streamPorts: readonly number[];
  listenersAt(port: number): number;
  /** Log lines dropped since start (log-destination.ts). */
  droppedLogLines(): number;
}

export interface Metrics {
  registry: Registry;
  /** For the front door: requests by lane and status class, and latency by lane. */
  observe: AnswerObserver;
  /** For the page route: cache hits, misses, renders and coalesced renders, render time. */
  pages: PageEvents;
  /** A request to the stream's upstream failed with this status. */
  upstreamFailure(status: number): void;
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Answers by the lane that gave them and their status class',
    labelNames: ['lane', 'status_class'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request reaching the app to its answer being written, by lane',
    labelNames: ['lane'] as const,
    buckets: [0.005, 0.05, 0.25, 1, 5],
    registers: [registry],
  });
  // Children bound once, each series written from the start (at zero): the fast lane pays an
  // array index and two additions, no label lookup.
  const byLane = new Map(
    ANSWERED_BY.map((lane) => {
      const classes = STATUS_CLASSES.map((c) => requests.labels(lane, c));
      for (const child of classes) child.inc(0);
      latency.zero({ lane });
      return [lane, { classes, latency: latency.labels(lane) }];
    }),
  );
  const cacheCounter = (name: string, help: string) => new Counter({ name, help, registers: [registry] });
  const hits = cacheCounter('page_cache_hits_total', 'Pages answered from the page cache');
  const misses = cacheCounter(
    'page_cache_misses_total',
    'Page requests that found no cached page nor a render to wait for',
  );
  const renders = cacheCounter('page_renders_total', 'Pages rendered');
  const coalesced = cacheCounter('page_renders_coalesced_total', 'Page requests that waited for a render in progress');
  const renderTime = new Histogram({
    name: 'page_render_duration_seconds',
    help: 'Time to render a page document',
    buckets: [0.01, 0.05, 0.25, 1, 5],
    registers: [registry],
  });
  new Gauge({
    name: 'stream_listeners',
    help: 'Radio listeners being served, by allowed stream port',
    labelNames: ['port'] as const,
    registers: [registry],
    collect() {
      for (const port of sources.streamPorts) this.set({ port: String(port) }, sources.listenersAt(port));
    },
  });
  const failures = new Counter({
    name: 'stream_upstream_failures_total',
    help: 'Requests to the stream upstream that failed, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  for (const reason of Object.values(UPSTREAM_FAILURES)) failures.labels(reason).inc(0);
  let droppedSeen = 0;
  new Counter({
    name: 'log_lines_dropped_total',
    help: 'Log lines dropped because stdout was not being read',
    registers: [registry],
    collect() {
      const dropped = sources.droppedLogLines();
      this.inc(dropped - droppedSeen);
      droppedSeen = dropped;
    },
  });

  const observe: AnswerObserver = (by: AnsweredBy, _req, res, startedAt) => {
    const lane = byLane.get(by)!;
    const statusClass = Math.min(Math.max(Math.floor(res.statusCode / 100), 1), 5) - 1;
    lane.classes[statusClass]!.inc();
    lane.latency.observe((Date.now() - startedAt) / 1000);
    if (by === 'cached page') hits.inc();
  };
  return {
    registry,
    observe,
    pages: {
      hit: () => hits.inc(),
      miss: () => misses.inc(),
      coalesced: () => coalesced.inc(),
      rendered: (ms) => {
        renders.inc();
        renderTime.observe(ms / 1000);
      },
    },
    upstreamFailure(status) {
      const reason = UPSTREAM_FAILURES[status as keyof typeof UPSTREAM_FAILURES];
      if (reason) failures.labels(reason).inc();
    },
  };
}

/** GET /metrics in Prometheus's text format on its own listener; anything else 404. */
export function serveMetrics(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' }).end(text),
      (error: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error)),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

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
import { NAVIGATION_TYPES, VITAL_NAMES } from '../shared/vitals.ts';
import { pathOf } from './request-target.ts';
import { IN_MILLISECONDS, ROUTE_IDS, VITAL_HISTOGRAMS, type VitalsRecorder } from './vitals.ts';

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** Upstream failures by what a listener would get: 502, 503, 504 (stream/upstream.ts). */
export const UPSTREAM_FAILURES = { 502: 'unreachable', 503: 'no source', 504: 'timeout' } as const;

/** Upper bounds of the request latency histogram's buckets, in seconds. */
const LATENCY_BUCKETS_S = [0.005, 0.05, 0.25, 1, 5];

/**
 * `http_request_duration_seconds` by lane: prom-client's own Histogram, one child per lane bound at
 * start (`labels()`), every lane's series there from the start (`zero()`). Its public API only: an
 * observation costs ~0.2 µs here (label hashing included), under 1 % of a cached page's answer.
 */
function latencyByLane(registry: Registry): Array<(ms: number) => void> {
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request reaching the app to its answer being written, by lane',
    labelNames: ['lane'] as const,
    buckets: LATENCY_BUCKETS_S,
    registers: [registry],
  });
  return ANSWERED_BY.map((lane) => {
    histogram.zero({ lane });
    const child = histogram.labels({ lane });
    return (ms: number) => child.observe(ms / 1000);
  });
}

/**
 * What the radio's listening figures look like to the metrics, which only read them: declared here,
 * so the metrics import nothing of the stream (stream/listening.ts keeps them).
 */
interface ListeningSource {
  seconds(port: number): number;
  sessions(port: number): number;
  peak(port: number): number;
}
/**
 * What a port's rewind recording looks like to the metrics: declared here, so the metrics import
 * nothing of the recorder (src/server/rewind/recorder.ts keeps the figures).
 */
interface RewindSource {
  readonly recording: boolean;
  readonly windowSeconds: number;
  readonly bytesOnDisk: number;
  readonly segmentsWritten: number;
  readonly gaps: number;
  readonly restarts: number;
}
export interface MetricSources {
  /** The allowed stream ports, and how many listeners each has now. */
  streamPorts: readonly number[];
  listenersAt(port: number): number;
  /** Log lines dropped since start (log-destination.ts). */
  droppedLogLines(): number;
  /** Listener-seconds, sessions and peaks per allowed port (stream/listening.ts). */
  listening(): ListeningSource;
  /** The same for the rewind window's listeners (stream/window-listening.ts). */
  windowListening(): ListeningSource;
  /** Lines of nginx's window access log this process received: counted, and ignored (rewind/access-log.ts). */
  accessLogLines(): { counted: number; ignored: number };
  /** Now-playing push connections open now. */
  pushClients(): number;
  /** Now-playing push connections refused since start, by reason (every reason a key from the start). */
  pushRefusals(): Readonly<Record<string, number>>;
  /** The process's caps (STREAM_MAX_LISTENERS, STREAM_MAX_EVENT_CLIENTS), for the alerts' ratios. */
  caps: { listeners: number; pushClients: number };
  /** This process's recording of a port's rewind window (src/server/rewind/). */
  rewind(port: number): RewindSource;
}

export interface Metrics {
  registry: Registry;
  /** For the front door: requests by lane and status class, and latency by lane. */
  observe: AnswerObserver;
  /** For the page route: cache hits, misses, renders and coalesced renders, render time. */
  pages: PageEvents;
  /** A request to the stream's upstream failed with this status. */
  upstreamFailure(status: number): void;
  /** For POST /api/vitals: a valid report's values (vitals.ts). */
  vitals: VitalsRecorder;
}

/** A counter prom-client reads from `count()` at scrape time. */
function counterOf(registry: Registry, name: string, help: string, count: () => number): void {
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(count());
    },
  });
}

/**
 * The request path's metrics: answers by lane and status class, latency by lane, and the page
 * cache's hits, misses and renders. The answers are plain numbers that the counter's `collect()`
 * (prom-client's documented hook) reads at scrape time; the latency goes to the lane's histogram.
 */
function requestMetrics(registry: Registry): Pick<Metrics, 'observe' | 'pages'> {
  const answers = new Float64Array(ANSWERED_BY.length * STATUS_CLASSES.length);
  new Counter({
    name: 'http_requests_total',
    help: 'Answers by the lane that gave them and their status class',
    labelNames: ['lane', 'status_class'] as const,
    registers: [registry],
    collect() {
      this.reset();
      ANSWERED_BY.forEach((lane, l) => {
        STATUS_CLASSES.forEach((status_class, c) => {
          this.inc({ lane, status_class }, answers[l * STATUS_CLASSES.length + c]!);
        });
      });
    },
  });
  const latency = latencyByLane(registry);
  const laneIndex = new Map<AnsweredBy, number>(ANSWERED_BY.map((lane, i) => [lane, i]));
  const pages = { hits: 0, misses: 0, renders: 0, coalesced: 0 };
  const pageCounters = [
    ['page_cache_hits_total', 'Pages answered from the page cache', 'hits'],
    ['page_cache_misses_total', 'Page requests that found no cached page nor a render to wait for', 'misses'],
    ['page_renders_total', 'Pages rendered', 'renders'],
    ['page_renders_coalesced_total', 'Page requests that waited for a render in progress', 'coalesced'],
  ] as const;
  for (const [name, help, count] of pageCounters) counterOf(registry, name, help, () => pages[count]);
  const renderTime = new Histogram({
    name: 'page_render_duration_seconds',
    help: 'Time to render a page document',
    buckets: [0.01, 0.05, 0.25, 1, 5],
    registers: [registry],
  });
  return {
    observe: (by, _req, res, startedAt) => {
      const lane = laneIndex.get(by)!;
      const statusClass = Math.min(Math.max(Math.floor(res.statusCode / 100), 1), 5) - 1;
      answers[lane * STATUS_CLASSES.length + statusClass]! += 1;
      latency[lane]!(Date.now() - startedAt);
      if (by === 'cached page') pages.hits++;
    },
    pages: {
      hit: () => void pages.hits++,
      miss: () => void pages.misses++,
      coalesced: () => void pages.coalesced++,
      rendered: (ms) => {
        pages.renders++;
        renderTime.observe(ms / 1000);
      },
    },
  };
}

/** A gauge read at scrape time, no labels. */
function gaugeOf(registry: Registry, name: string, help: string, value: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(value());
    },
  });
}

/**
 * The radio's figures, by allowed stream port: listeners now, listening (listener-seconds,
 * sessions of a minute or more, peak), and the caps and push connections the alerts compare.
 */
function seriesByPort(registry: Registry, streamPorts: readonly number[]) {
  const ports = streamPorts.map((port) => ({ port, labels: { port: String(port) } }));
  return {
    gaugeByPort: (name: string, help: string, read: (port: number) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['port'] as const,
        registers: [registry],
        collect() {
          for (const { port, labels } of ports) this.set(labels, read(port));
        },
      }),
    counterByPort: (name: string, help: string, read: (port: number) => number) =>
      new Counter({
        name,
        help,
        labelNames: ['port'] as const,
        registers: [registry],
        collect() {
          this.reset();
          for (const { port, labels } of ports) this.inc(labels, read(port));
        },
      }),
  };
}

/** How the listening figures are told apart: the live stream, and the rewind window. */
export const LISTENING_MODES = ['live', 'rewind'] as const;

/**
 * Listening figures by port and mode (`live`: /api/stream; `rewind`: the window's segments), every
 * pair's series there from the start. Listening hours in all are the sum over modes (the recording
 * rules sum by port); the peak is per mode, as the two are counted differently (a connection held;
 * segments fetched).
 */
function listeningMetrics(registry: Registry, sources: MetricSources): void {
  const pairs = sources.streamPorts.flatMap((port) =>
    LISTENING_MODES.map((mode) => ({ port, mode, labels: { port: String(port), mode } })),
  );
  const read = (mode: (typeof LISTENING_MODES)[number]) =>
    mode === 'live' ? sources.listening() : sources.windowListening();
  const labelNames = ['port', 'mode'] as const;
  new Counter({
    name: 'stream_listener_seconds_total',
    help: "Listener-seconds (every listener's time summed, sessions under way up to now), by port and mode (live: /api/stream; rewind: the window's segments)",
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const { port, mode, labels } of pairs) this.inc(labels, read(mode).seconds(port));
    },
  });
  new Counter({
    name: 'stream_listener_sessions_total',
    help: 'Listening sessions that lasted a minute or more (counted on reaching it), by port and mode',
    labelNames,
    registers: [registry],
    collect() {
      this.reset();
      for (const { port, mode, labels } of pairs) this.inc(labels, read(mode).sessions(port));
    },
  });
  new Gauge({
    name: 'stream_listeners_peak',
    help: 'Most concurrent radio listeners within the current minute and the one before, by port and mode',
    labelNames,
    registers: [registry],
    collect() {
      for (const { port, mode, labels } of pairs) this.set(labels, read(mode).peak(port));
    },
  });
}

function streamMetrics(registry: Registry, sources: MetricSources): void {
  const { gaugeByPort } = seriesByPort(registry, sources.streamPorts);
  gaugeByPort('stream_listeners', 'Radio listeners being served, by allowed stream port', sources.listenersAt);
  listeningMetrics(registry, sources);
  const { caps } = sources;
  gaugeOf(
    registry,
    'stream_listeners_max',
    'Radio listeners one process takes (STREAM_MAX_LISTENERS)',
    () => caps.listeners,
  );
  gaugeOf(registry, 'now_playing_push_clients', 'Now-playing push connections open', sources.pushClients);
  new Counter({
    name: 'now_playing_push_refusals_total',
    help: 'Now-playing push connections refused, by reason (bad_request: 400; closing, busy: 503)',
    labelNames: ['reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, count] of Object.entries(sources.pushRefusals())) this.labels(reason).inc(count);
    },
  });
  gaugeOf(
    registry,
    'now_playing_push_clients_max',
    'Now-playing push connections one process takes (STREAM_MAX_EVENT_CLIENTS)',
    () => caps.pushClients,
  );
}

/**
 * The rewind window's recording, by allowed stream port, as this process sees it: a port another
 * process records (one per host, src/server/rewind/mount-lock.ts) reads 0 here, so sum or max the
 * series over the host's processes.
 */
function rewindMetrics(registry: Registry, sources: MetricSources): void {
  const { gaugeByPort, counterByPort } = seriesByPort(registry, sources.streamPorts);
  const read = sources.rewind;
  gaugeByPort(
    'rewind_recording',
    'Whether this process records the mount now (0: not, another process, or stopped)',
    (port) => (read(port).recording ? 1 : 0),
  );
  gaugeByPort(
    'rewind_window_seconds',
    "Length of the mount's rewind window, first sample to last",
    (port) => read(port).windowSeconds,
  );
  gaugeByPort(
    'rewind_bytes_on_disk',
    "Bytes of the mount's rewind window's segments on disk",
    (port) => read(port).bytesOnDisk,
  );
  counterByPort('rewind_segments_written_total', 'Rewind segments written', (port) => read(port).segmentsWritten);
  counterByPort(
    'rewind_gaps_total',
    'Gaps marked in the rewind window (station lost, app restarted, disk floor)',
    (port) => read(port).gaps,
  );
  counterByPort(
    'rewind_recorder_restarts_total',
    'Times the recorder connected to the station again after its stream ended or failed',
    (port) => read(port).restarts,
  );
  new Counter({
    name: 'rewind_access_log_lines_total',
    help: "Lines of nginx's rewind access log received by this process (REWIND_LOG_PORT): counted (a segment fetched) or ignored",
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const { counted, ignored } = sources.accessLogLines();
      this.inc({ result: 'counted' }, counted);
      this.inc({ result: 'ignored' }, ignored);
    },
  });
}

/**
 * Field Web Vitals: a histogram per metric by route id, and reports by navigation type. Every
 * route's and type's series is made at start (zero), and only valid reports reach them.
 */
function vitalsMetrics(registry: Registry): VitalsRecorder {
  const histograms = Object.fromEntries(
    VITAL_NAMES.map((metric) => {
      const { name, help, buckets } = VITAL_HISTOGRAMS[metric];
      const histogram = new Histogram({ name, help, buckets, labelNames: ['route'] as const, registers: [registry] });
      for (const route of ROUTE_IDS) histogram.zero({ route });
      return [metric, histogram];
    }),
  );
  const reports = new Counter({
    name: 'web_vitals_reports_total',
    help: 'Web Vitals beacons recorded (one per page view), by navigation type',
    labelNames: ['navigation'] as const,
    registers: [registry],
  });
  for (const navigation of NAVIGATION_TYPES) reports.labels(navigation).inc(0);
  return ({ route, navigation, metrics }) => {
    reports.labels(navigation).inc();
    for (const metric of VITAL_NAMES) {
      const value = metrics[metric];
      if (value !== undefined)
        histograms[metric]!.observe({ route }, IN_MILLISECONDS.has(metric) ? value / 1000 : value);
    }
  };
}

export function createMetrics(sources: MetricSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const { observe, pages } = requestMetrics(registry);
  streamMetrics(registry, sources);
  rewindMetrics(registry, sources);
  const failures = new Counter({
    name: 'stream_upstream_failures_total',
    help: 'Requests to the stream upstream that failed, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  for (const reason of Object.values(UPSTREAM_FAILURES)) failures.labels(reason).inc(0);
  counterOf(registry, 'log_lines_dropped_total', 'Log lines dropped because stdout was not being read', () =>
    sources.droppedLogLines(),
  );
  return {
    registry,
    observe,
    pages,
    vitals: vitalsMetrics(registry),
    upstreamFailure(status) {
      const reason = UPSTREAM_FAILURES[status as keyof typeof UPSTREAM_FAILURES];
      if (reason) failures.labels(reason).inc();
    },
  };
}

/** GET /metrics in Prometheus's text format on its own listener; anything else 404. */
export function serveMetrics(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' || pathOf(req.url ?? '') !== '/metrics') {
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

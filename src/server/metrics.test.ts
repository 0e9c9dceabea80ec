import type { ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ANSWERED_BY, type AnsweredBy } from './front-door.ts';
import { createMetrics, type MetricSources } from './metrics.ts';

const NAME = 'http_request_duration_seconds';
/** Answers by lane and age in ms; the clock is held still, so 5 ms is exactly a bucket's bound. */
const ANSWERS: Array<[AnsweredBy, number]> = [
  ['cached page', 1],
  ['cached page', 5],
  ['cached page', 6],
  ['rendered page', 30],
  ['api', 120],
  ['static', 600],
  ['stream', 3_000],
  ['stream', 9_000],
  ['refused', 0],
];

/** The family's text as served. The text, not a parser: parse-prometheus-text-format drops a histogram's labels. */
async function familyText(registry: Registry): Promise<string[]> {
  const text = await registry.metrics();
  return text.split('\n').filter((line) => line.startsWith(NAME) || line.includes(` ${NAME} `));
}

const IDLE_REWIND = { recording: false, windowSeconds: 0, bytesOnDisk: 0, segmentsWritten: 0, gaps: 0, restarts: 0 };

afterEach(() => {
  vi.restoreAllMocks();
});

const emptyMetrics = (sources: Partial<MetricSources> = {}) =>
  createMetrics({
    streamPorts: [],
    listenersAt: () => 0,
    droppedLogLines: () => 0,
    listening: () => ({ seconds: () => 0, sessions: () => 0, peak: () => 0 }),
    windowListening: () => ({ seconds: () => 0, sessions: () => 0, peak: () => 0 }),
    accessLogLines: () => ({ counted: 0, ignored: 0 }),
    pushClients: () => 0,
    pushRefusals: () => ({}),
    caps: { listeners: 1, pushClients: 1 },
    rewind: () => IDLE_REWIND,
    ...sources,
  });

describe('the rewind metrics', () => {
  it("read each port's recording at scrape time, every port's series there from the start", async () => {
    const figures = new Map([[8000, { ...IDLE_REWIND }]]);
    const metrics = emptyMetrics({
      streamPorts: [8076, 8000],
      rewind: (port) => figures.get(port) ?? IDLE_REWIND,
    });
    const text = async () => (await metrics.registry.metrics()).split('\n');
    expect(await text()).toEqual(
      expect.arrayContaining(['rewind_recording{port="8076"} 0', 'rewind_segments_written_total{port="8000"} 0']),
    );
    figures.set(8000, {
      recording: true,
      windowSeconds: 12.5,
      bytesOnDisk: 200_000,
      segmentsWritten: 3,
      gaps: 1,
      restarts: 2,
    });
    expect(await text()).toEqual(
      expect.arrayContaining([
        'rewind_recording{port="8000"} 1',
        'rewind_recording{port="8076"} 0',
        'rewind_window_seconds{port="8000"} 12.5',
        'rewind_bytes_on_disk{port="8000"} 200000',
        'rewind_segments_written_total{port="8000"} 3',
        'rewind_gaps_total{port="8000"} 1',
        'rewind_recorder_restarts_total{port="8000"} 2',
      ]),
    );
  });
});

describe('the listening metrics', () => {
  it('tell live listening from the rewind window by a mode label, every pair there from the start', async () => {
    const metrics = emptyMetrics({
      streamPorts: [8076],
      listening: () => ({ seconds: () => 30, sessions: () => 1, peak: () => 2 }),
      windowListening: () => ({ seconds: () => 12, sessions: () => 0, peak: () => 1 }),
      accessLogLines: () => ({ counted: 5, ignored: 1 }),
    });
    expect((await metrics.registry.metrics()).split('\n')).toEqual(
      expect.arrayContaining([
        'stream_listener_seconds_total{port="8076",mode="live"} 30',
        'stream_listener_seconds_total{port="8076",mode="rewind"} 12',
        'stream_listener_sessions_total{port="8076",mode="live"} 1',
        'stream_listener_sessions_total{port="8076",mode="rewind"} 0',
        'stream_listeners_peak{port="8076",mode="live"} 2',
        'stream_listeners_peak{port="8076",mode="rewind"} 1',
        'rewind_access_log_lines_total{result="counted"} 5',
        'rewind_access_log_lines_total{result="ignored"} 1',
      ]),
    );
  });
});

describe('the request latency histogram', () => {
  it('has every lane from the start, each at 0', async () => {
    const text = await familyText(emptyMetrics().registry);
    for (const lane of ANSWERED_BY) {
      expect(text).toContain(`${NAME}_bucket{le="+Inf",lane="${lane}"} 0`);
      expect(text).toContain(`${NAME}_count{lane="${lane}"} 0`);
    }
  });

  it('puts each answer in its lane and bucket, a bound inclusive', async () => {
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now);
    const metrics = emptyMetrics();
    for (const [lane, ageMs] of ANSWERS) {
      metrics.observe(lane, undefined as never, { statusCode: 200 } as ServerResponse, now - ageMs);
    }
    const ours = await familyText(metrics.registry);
    expect(ours).toContain(`# TYPE ${NAME} histogram`);
    expect(ours).toContain(`${NAME}_bucket{le="0.005",lane="cached page"} 2`);
    expect(ours).toContain(`${NAME}_bucket{le="0.05",lane="cached page"} 3`);
    expect(ours).toContain(`${NAME}_bucket{le="0.05",lane="rendered page"} 1`);
    expect(ours).toContain(`${NAME}_bucket{le="0.25",lane="api"} 1`);
    expect(ours).toContain(`${NAME}_bucket{le="0.25",lane="static"} 0`);
    expect(ours).toContain(`${NAME}_bucket{le="5",lane="stream"} 1`);
    expect(ours).toContain(`${NAME}_bucket{le="+Inf",lane="stream"} 2`);
    expect(ours).toContain(`${NAME}_sum{lane="stream"} 12`);
    expect(ours).toContain(`${NAME}_count{lane="refused"} 1`);
  });
});

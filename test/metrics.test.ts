/**
 * Prometheus metrics on their own listener (METRICS_PORT), read from a real server process and
 * parsed as Prometheus text by a parser (parse-prometheus-text-format), never by a regex.
 */
import parsePrometheusTextFormat, { type Family } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppProcess } from './support/app-process.ts';
import { BROWSER_UA, untilCached } from './support/http.ts';

let app: AppProcess;
let metricsUrl: string;

beforeAll(async () => {
  const metricsPort = await freePort();
  app = await startApp({ METRICS_PORT: String(metricsPort), STREAM_ALLOWED_PORTS: '8076,8078' });
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
});
afterAll(() => app?.stop());

async function scrape(): Promise<Family[]> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return parsePrometheusTextFormat(await res.text());
}

/**
 * One sample's value: the family's sample whose labels include `labels`; for a histogram, its
 * +Inf bucket (the count). The parser keeps no labels of histogram samples: histograms are only
 * read here where they have none.
 */
function sampleOf(families: Family[], name: string, labels: Record<string, string> = {}): number {
  const family = families.find((f) => f.name === name);
  if (!family) throw new Error(`no metric ${name}`);
  const sample = family.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  if (!sample) throw new Error(`no sample of ${name} with ${JSON.stringify(labels)}`);
  return Number(sample.value ?? sample.buckets?.['+Inf']);
}

/**
 * Every series of ours (a histogram counts its buckets, sum and count). prom-client's default
 * process metrics are left out: their labels come from the runtime (GC kinds, handle types),
 * which may add one as the process lives, never from a request.
 */
const seriesCount = (families: Family[]) =>
  families
    .filter((f) => !f.name.startsWith('nodejs_') && !f.name.startsWith('process_'))
    .reduce((n, f) => n + f.metrics.reduce((m, s) => m + (s.buckets ? Object.keys(s.buckets).length + 2 : 1), 0), 0);

const get = (path: string, init: RequestInit = {}) =>
  fetch(app.url + path, { ...init, headers: { 'User-Agent': BROWSER_UA } }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });

describe('GET /metrics', () => {
  it('has the default process metrics and ours, with every series there from the start', async () => {
    const families = await scrape();
    const names = families.map((f) => f.name);
    for (const name of [
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds',
      'http_requests_total',
      'http_request_duration_seconds',
      'page_cache_hits_total',
      'page_cache_misses_total',
      'page_renders_total',
      'page_renders_coalesced_total',
      'page_render_duration_seconds',
      'stream_listeners',
      'stream_upstream_failures_total',
      'log_lines_dropped_total',
    ]) {
      expect(names).toContain(name);
    }
    expect(sampleOf(families, 'http_requests_total', { lane: 'stream', status_class: '5xx' })).toBe(0);
    expect(sampleOf(families, 'stream_listeners', { port: '8078' })).toBe(0);
    expect(sampleOf(families, 'stream_upstream_failures_total', { reason: 'timeout' })).toBe(0);
  });

  it('counts a known sequence of requests exactly', async () => {
    // The first render is cached a moment after it streamed: wait until the fast lane has it.
    await untilCached(
      () => fetch(`${app.url}/about`, { headers: { 'User-Agent': BROWSER_UA } }),
      (res) => res.headers.get('etag'),
    );
    const before = await scrape();

    const sequence: Array<[string, RequestInit, number]> = [
      ['/about', {}, 200],
      ['/about', {}, 200],
      ['/about', {}, 200],
      ['/books', {}, 200],
      ['/no-such-page', {}, 404],
      ['/about', { method: 'POST' }, 405],
      ['/api/now-playing?port=1', {}, 400],
      ['/healthz', {}, 200],
    ];
    for (const [path, init, status] of sequence) expect(await get(path, init), path).toBe(status);

    const moved = (families: Family[], name: string, labels: Record<string, string> = {}) =>
      sampleOf(families, name, labels) - sampleOf(before, name, labels);
    const expected = {
      cached2xx: 3,
      rendered2xx: 1,
      rendered4xx: 2,
      api4xx: 1,
      hits: 3,
      renders: 2,
    };
    const now = async () => {
      const after = await scrape();
      return {
        cached2xx: moved(after, 'http_requests_total', { lane: 'cached page', status_class: '2xx' }),
        rendered2xx: moved(after, 'http_requests_total', { lane: 'rendered page', status_class: '2xx' }),
        rendered4xx: moved(after, 'http_requests_total', { lane: 'rendered page', status_class: '4xx' }),
        api4xx: moved(after, 'http_requests_total', { lane: 'api', status_class: '4xx' }),
        hits: moved(after, 'page_cache_hits_total'),
        // /books and the not-found page: neither was rendered before.
        renders: moved(after, 'page_renders_total'),
      };
    };
    await expect.poll(now).toEqual(expected);
    const after = await scrape();
    expect(moved(after, 'page_cache_misses_total')).toBe(2);
    expect(moved(after, 'page_render_duration_seconds')).toBe(2);
    // Health checks are not counted (no log line), and nothing else moved.
    expect(moved(after, 'http_requests_total', { lane: 'health', status_class: '2xx' })).toBe(0);
    expect(moved(after, 'http_requests_total', { lane: 'static', status_class: '2xx' })).toBe(0);
  });

  it('keeps the same series after 1,000 random paths and stream ports', async () => {
    const before = seriesCount(await scrape());
    const random = () => Math.random().toString(36).slice(2);
    for (let i = 0; i < 1_000; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, (_, j) => {
          const port = 1 + Math.floor(Math.random() * 65_535);
          const paths = [
            `/${random()}`,
            `/api/stream?port=${port}`,
            `/api/now-playing?port=${port}`,
            `/api/${random()}`,
          ];
          return get(paths[(i + j) % paths.length]!);
        }),
      );
    }
    expect(seriesCount(await scrape())).toBe(before);
  });

  it('is not on the public port: /metrics there is the site’s 404 page', async () => {
    const res = await fetch(`${app.url}/metrics`, { headers: { 'User-Agent': BROWSER_UA } });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain('</html>');
  });
});

describe('bad metrics and cache settings', () => {
  it.each([
    ['METRICS_PORT', '70000'],
    ['METRICS_PORT', 'same as PORT'],
    ['PAGE_S_MAXAGE', '-5'],
    ['PAGE_STALE_IF_ERROR', '-1'],
  ])('%s=%s stops the server at start with a message naming it', async (variable, value) => {
    const port = await freePort();
    const env = { PORT: String(port), [variable]: value === 'same as PORT' ? String(port) : value };
    await expect(startApp(env, { name: variable })).rejects.toThrow(new RegExp(`Invalid configuration: ${variable}`));
  });
});

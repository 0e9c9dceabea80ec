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

async function scrapeText(): Promise<string> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/plain; version=0.0.4');
  return res.text();
}

const scrape = async (): Promise<Family[]> => parsePrometheusTextFormat(await scrapeText());

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
 * Every series of ours, as `name{labels}`: one per sample line of the text (a histogram has one per
 * bucket, its sum and its count). The text must parse (the parser throws on anything else), but the
 * series are read from the sample lines themselves: parse-prometheus-text-format 1.1 folds all the
 * label sets of a histogram into one sample, so a histogram that gained a label from the request
 * would look unchanged to it. prom-client's default process metrics are left out: their labels come
 * from the runtime (GC kinds, handle types), which may add one as the process lives, never from a
 * request.
 */
function ourSeries(text: string): Set<string> {
  parsePrometheusTextFormat(text);
  const series = text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    // A sample line is `name{labels} value` (prom-client writes no timestamps); label values may hold spaces.
    .map((line) => line.slice(0, line.lastIndexOf(' ')))
    .filter((key) => !key.startsWith('nodejs_') && !key.startsWith('process_'));
  return new Set(series);
}

const get = (path: string, init: RequestInit = {}) =>
  fetch(app.url + path, { ...init, headers: { 'User-Agent': BROWSER_UA } }).then(async (r) => {
    await r.arrayBuffer();
    return r.status;
  });

/**
 * The status of a request that should be refused; an answer that is not an error is not read to its
 * end (an allowed stream port would be an endless audio answer), so it fails the test instead of
 * hanging it.
 */
async function refusedStatus(path: string): Promise<number> {
  const res = await fetch(app.url + path, { headers: { 'User-Agent': BROWSER_UA } });
  if (res.ok) await res.body?.cancel();
  else await res.arrayBuffer();
  return res.status;
}

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
      'stream_listener_seconds_total',
      'stream_listener_sessions_total',
      'stream_listeners_peak',
      'stream_listeners_max',
      'now_playing_push_clients',
      'now_playing_push_refusals_total',
      'now_playing_push_clients_max',
      'stream_upstream_failures_total',
      'log_lines_dropped_total',
    ]) {
      expect(names).toContain(name);
    }
    expect(sampleOf(families, 'http_requests_total', { lane: 'stream', status_class: '5xx' })).toBe(0);
    expect(sampleOf(families, 'stream_listeners', { port: '8078' })).toBe(0);
    expect(sampleOf(families, 'stream_upstream_failures_total', { reason: 'timeout' })).toBe(0);
    expect(sampleOf(families, 'stream_listener_seconds_total', { port: '8078', mode: 'live' })).toBe(0);
    expect(sampleOf(families, 'stream_listener_sessions_total', { port: '8078', mode: 'live' })).toBe(0);
    expect(sampleOf(families, 'stream_listeners_max')).toBe(1_000);
    expect(sampleOf(families, 'now_playing_push_clients_max')).toBe(10_000);
  });

  it("counts a listener's seconds while they listen, and as many as they listened once they leave", async () => {
    const seconds = async () =>
      sampleOf(await scrape(), 'stream_listener_seconds_total', { port: '8076', mode: 'live' });
    const before = await seconds();
    const started = performance.now();
    const res = await fetch(`${app.url}/api/stream?port=8076`, { headers: { 'User-Agent': BROWSER_UA } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const reading = (async () => {
      while (!(await reader.read()).done);
    })();
    // Counted while the session is under way, not only when it ends.
    await expect.poll(async () => (await seconds()) - before).toBeGreaterThan(1);
    expect(sampleOf(await scrape(), 'stream_listeners_peak', { port: '8076', mode: 'live' })).toBe(1);
    await reader.cancel();
    await reading;
    await expect.poll(async () => sampleOf(await scrape(), 'stream_listeners', { port: '8076' })).toBe(0);
    // Bounds by cause, not by speed: at least the second seen while listening, at most the time from
    // before the request to after the server let the listener go (a slow machine only widens it).
    const between = (performance.now() - started) / 1000;
    const listened = (await seconds()) - before;
    expect(listened).toBeGreaterThan(1);
    expect(listened).toBeLessThanOrEqual(between);
    // Gone means no longer counted.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await seconds()) - before).toBe(listened);
    // Under a minute: no session counted.
    expect(sampleOf(await scrape(), 'stream_listener_sessions_total', { port: '8076', mode: 'live' })).toBe(0);
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
      ['/api/now-playing/events?port=1', {}, 400],
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
    // The push's refusals, by reason: the bad port, and no other.
    expect(moved(after, 'now_playing_push_refusals_total', { reason: 'bad_request' })).toBe(1);
    expect(moved(after, 'now_playing_push_refusals_total', { reason: 'busy' })).toBe(0);
    expect(moved(after, 'now_playing_push_refusals_total', { reason: 'closing' })).toBe(0);
  });

  it('keeps the same series after 1,000 random paths and stream ports', async () => {
    const known = ourSeries(await scrapeText());
    const random = () => Math.random().toString(36).slice(2);
    // Never an allowed port (8076, 8078: below 9000): that would be a stream, an endless answer.
    const randomPort = () => 9_000 + Math.floor(Math.random() * 56_000);
    const fuzzed = (i: number) => {
      const port = randomPort();
      return [`/${random()}`, `/api/stream?port=${port}`, `/api/now-playing?port=${port}`, `/api/${random()}`][i % 4]!;
    };
    // Checked after every 20 requests: a label taken from the request fails the first check, naming it.
    for (let sent = 0; sent < 1_000; sent += 20) {
      const paths = Array.from({ length: 20 }, (_, j) => fuzzed(sent + j));
      const statuses = await Promise.all(paths.map(refusedStatus));
      const answered = paths.map((path, j) => `${statuses[j]} ${path}`);
      expect(
        answered.filter((a) => !a.startsWith('4')),
        'every invented path and port is refused with a 4xx',
      ).toEqual([]);
      const added = [...ourSeries(await scrapeText())].filter((key) => !known.has(key));
      const named = `${added.length} series added by requests ${sent + 1}-${sent + 20}, a label taking a value from the request: ${added.slice(0, 3).join(', ')}`;
      expect(added, named).toEqual([]);
    }
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

/**
 * POST /api/vitals on a real server process with metrics on: a beacon is recorded in the route's
 * histograms and answered 204 (no-store); every other input is refused with a 4xx and records
 * nothing; 1,000 random and hostile bodies add no series and no 5xx; one client's beacons are
 * limited per minute. Series are read from the metrics listener's text as in metrics.test.ts.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAVIGATION_TYPES } from '../src/shared/vitals.ts';
import { BEACONS_PER_MINUTE, MAX_BODY_BYTES, ROUTE_IDS } from '../src/server/vitals.ts';
import { freePort, startApp, type AppProcess } from './support/app-process.ts';

let app: AppProcess;
let metricsUrl: string;

beforeAll(async () => {
  const metricsPort = await freePort();
  // X-Forwarded-For from loopback is believed: each test names its own clients, so the rate limit
  // of one does not answer for another's bodies.
  app = await startApp({ METRICS_PORT: String(metricsPort), TRUST_PROXY: 'loopback' });
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
});
afterAll(() => app?.stop());

/** Every sample line of ours (`name{labels} value`), the process's own metrics left out. */
async function samples(): Promise<Map<string, number>> {
  const text = await (await fetch(metricsUrl)).text();
  const lines = text.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  return new Map(
    lines
      .filter((line) => !line.startsWith('nodejs_') && !line.startsWith('process_'))
      .map((line) => [line.slice(0, line.lastIndexOf(' ')), Number(line.slice(line.lastIndexOf(' ') + 1))]),
  );
}

/** The web_vitals_ samples only: what a beacon records. */
const vitalsOf = (all: Map<string, number>) => new Map([...all].filter(([key]) => key.startsWith('web_vitals_')));

interface Sent {
  method?: string;
  type?: string | null;
  body?: string | Buffer;
  client: string;
  /** Send without Content-Length (chunked). */
  chunked?: boolean;
}

/** One request by node:http (fetch would refuse some of the hostile ones), its status and headers. */
function send({ method = 'POST', type = 'text/plain;charset=UTF-8', body = '', client, chunked }: Sent) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const headers: Record<string, string> = { 'X-Forwarded-For': client };
    if (type !== null) headers['Content-Type'] = type;
    if (!chunked && method !== 'GET' && method !== 'HEAD') headers['Content-Length'] = String(Buffer.byteLength(body));
    const req = request(`${app.url}/api/vitals`, { method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    if (method === 'GET' || method === 'HEAD') req.end();
    else req.end(body);
  });
}

const beacon = (route = 'home', metrics: Record<string, number> = { LCP: 1234, CLS: 0.02, FCP: 800, TTFB: 40 }) =>
  JSON.stringify({ route, navigation: 'navigate', metrics });

/** A fresh client address for each call. */
let clients = 0;
const nextClient = () => {
  clients += 1;
  return `10.${(clients >> 16) & 255}.${(clients >> 8) & 255}.${clients & 255}`;
};

describe('POST /api/vitals', () => {
  it('has every route and navigation type series from the start', async () => {
    const all = await samples();
    for (const route of ROUTE_IDS) {
      for (const name of ['lcp_seconds', 'inp_seconds', 'cls', 'fcp_seconds', 'ttfb_seconds', 'navigation_seconds'])
        expect(all.get(`web_vitals_${name}_count{route="${route}"}`), `${name} ${route}`).toBe(0);
    }
    for (const navigation of NAVIGATION_TYPES)
      expect(all.get(`web_vitals_reports_total{navigation="${navigation}"}`)).toBe(0);
  });

  it('records a beacon in its route histograms and answers 204, never to be stored', async () => {
    const before = await samples();
    const res = await send({ body: beacon('books'), client: nextClient() });
    expect(res.status).toBe(204);
    expect(res.headers['cache-control']).toBe('no-store');
    const json = await send({ type: 'application/json', body: beacon('books', { INP: 72 }), client: nextClient() });
    expect(json.status).toBe(204);
    const after = await samples();
    const moved = (key: string) => after.get(key)! - before.get(key)!;
    expect(moved('web_vitals_lcp_seconds_count{route="books"}')).toBe(1);
    expect(moved('web_vitals_lcp_seconds_bucket{le="1",route="books"}')).toBe(0);
    expect(moved('web_vitals_lcp_seconds_bucket{le="1.5",route="books"}')).toBe(1);
    expect(moved('web_vitals_lcp_seconds_sum{route="books"}')).toBeCloseTo(1.234, 6);
    expect(moved('web_vitals_cls_bucket{le="0.025",route="books"}')).toBe(1);
    expect(moved('web_vitals_inp_seconds_count{route="books"}')).toBe(1);
    expect(moved('web_vitals_navigation_seconds_count{route="books"}')).toBe(0);
    expect(moved('web_vitals_lcp_seconds_count{route="home"}')).toBe(0);
    expect(moved('web_vitals_reports_total{navigation="navigate"}')).toBe(2);
  });

  it.each([
    ['another method', { method: 'GET' }],
    ['PUT', { method: 'PUT', body: beacon() }],
    ['another content type', { type: 'application/x-www-form-urlencoded', body: beacon() }],
    ['no content type', { type: null, body: beacon() }],
    ['an oversized body', { body: beacon().padEnd(MAX_BODY_BYTES + 1, ' ') }],
    ['an oversized body without a length', { body: 'x'.repeat(64 * 1024), chunked: true }],
    ['a malformed body', { body: '{"route":"home",' }],
    ['an empty body', { body: '' }],
    ['an unknown route', { body: beacon('admin') }],
    ['an unknown metric', { body: beacon('home', { FID: 12 }) }],
    ['no metric', { body: beacon('home', {}) }],
    ['an out-of-range value', { body: beacon('home', { LCP: -1 }) }],
    ['a value past a minute', { body: beacon('home', { TTFB: 60_001 }) }],
    ['an unknown navigation type', { body: beacon().replace('"navigate"', '"teleport"') }],
    ['an extra field', { body: beacon().replace('{', '{"url":"/secret",') }],
  ] as Array<[string, Omit<Sent, 'client'>]>)('refuses %s with 400 and records nothing', async (_what, sent) => {
    const before = vitalsOf(await samples());
    const res = await send({ ...sent, client: nextClient() });
    expect(res.status).toBe(400);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(vitalsOf(await samples())).toEqual(before);
  });

  it('takes 1,000 random and hostile bodies with no 5xx, no new series and nothing recorded', async () => {
    const before = await samples();
    const random = () => Math.random().toString(36).slice(2);
    const valid = () => ({ route: 'home', navigation: 'navigate', metrics: { LCP: 500 } as Record<string, unknown> });
    const hostile: Array<() => Omit<Sent, 'client'>> = [
      () => ({ body: Buffer.from(Array.from({ length: Math.floor(Math.random() * 200) }, () => Math.random() * 256)) }),
      () => ({ body: JSON.stringify({ ...valid(), route: random() }) }),
      () => ({ body: JSON.stringify({ ...valid(), route: ['__proto__', 'constructor', 'toString'][clients % 3] }) }),
      () => ({ body: JSON.stringify({ ...valid(), metrics: { [random()]: 1 } }) }),
      () => ({
        body: JSON.stringify({
          ...valid(),
          metrics: { LCP: [Number.MAX_VALUE, -0.001, '5', null, {}, 1e9][clients % 6] },
        }),
      }),
      () => ({ body: JSON.stringify({ ...valid(), navigation: random() }) }),
      () => ({ body: `{"route":"home","navigation":"navigate","metrics":{"__proto__":{"LCP":1}}}` }),
      () => ({ body: '{"route":"home","navigation":"navigate","metrics":{"LCP":1e999}}' }),
      () => ({ body: `${'['.repeat(500)}${']'.repeat(500)}` }),
      () => ({ body: JSON.stringify([valid()]) }),
      () => ({ body: JSON.stringify({ ...valid(), [random()]: random() }) }),
      () => ({
        body: JSON.stringify(valid()),
        type: ['text/html', 'application/json5', 'multipart/form-data'][clients % 3]!,
      }),
      () => ({ body: JSON.stringify(valid()), method: ['PATCH', 'DELETE', 'OPTIONS'][clients % 3]! }),
      () => ({ body: 'x'.repeat(MAX_BODY_BYTES + Math.floor(Math.random() * 4096)), chunked: clients % 2 === 0 }),
      () => ({ body: JSON.stringify({ ...valid(), metrics: { CLS: 101 } }) }),
    ];
    const statuses = new Map<number, number>();
    for (let sent = 0; sent < 1_000; sent += 20) {
      const batch = Array.from({ length: 20 }, (_, i) => hostile[(sent + i) % hostile.length]!());
      const answers = await Promise.all(batch.map((sent) => send({ ...sent, client: nextClient() })));
      for (const { status } of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect([...statuses.keys()].filter((status) => status < 400 || status >= 500)).toEqual([]);
    const after = await samples();
    expect(
      [...after.keys()].filter((key) => !before.has(key)),
      'series added',
    ).toEqual([]);
    expect(vitalsOf(after), 'values recorded').toEqual(vitalsOf(before));
  });

  it(`takes ${BEACONS_PER_MINUTE} beacons a minute from one client, then answers 429 and records nothing`, async () => {
    // The limit's window is the clock's minute: start well inside one.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
    const client = nextClient();
    const before = await samples();
    const accepted = [];
    for (let i = 0; i < BEACONS_PER_MINUTE; i++) accepted.push((await send({ body: beacon('about'), client })).status);
    expect(new Set(accepted)).toEqual(new Set([204]));
    const refused = await send({ body: beacon('about'), client });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    // The same client's neighbours on one IPv6 /64 would share it; another address does not.
    expect((await send({ body: beacon('about'), client: nextClient() })).status).toBe(204);
    const after = await samples();
    expect(
      after.get('web_vitals_lcp_seconds_count{route="about"}')! -
        before.get('web_vitals_lcp_seconds_count{route="about"}')!,
    ).toBe(BEACONS_PER_MINUTE + 1);
  });
});

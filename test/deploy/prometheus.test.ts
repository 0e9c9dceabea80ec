/**
 * deploy/prometheus run by a real Prometheus (Debian package "prometheus") against the documented
 * three app processes on loopback, each with its metrics listener. The shipped configuration is
 * used as it is, but for the three targets' ports and a 1 s scrape and rule interval (so the test
 * waits seconds, not minutes). Chromium loads and navigates pages with sampling at 1; Prometheus's
 * HTTP API then shows every target up, and the shipped recording rule's p75 LCP per route within
 * one bucket of what the browser's own PerformanceObserver measured. A radio listener of a few
 * seconds adds about as many listener-seconds.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VITAL_HISTOGRAMS } from '../../src/server/vitals.ts';
import { type AppProcess, freePort, startApp } from '../support/app-process.ts';
import { untilHydrated } from '../support/browser.ts';
import { CHROMIUM_BASE_FLAGS, requireChromium } from '../support/chromium.ts';
import { requireCommand } from '../support/system-deps.ts';
import { until } from '../support/wait.ts';

const SHIPPED = new URL('../../deploy/prometheus/', import.meta.url).pathname;
const PROMETHEUS = requireCommand('the Prometheus test', 'prometheus', 'prometheus');
/** Pages loaded, each on one of the three processes in turn, with the route id each is recorded under. */
const VISITS = [
  ['/', 'home'],
  ['/about', 'about'],
  ['/books', 'books'],
  ['/radio', 'radio'],
  ['/contact', 'contact'],
  ['/careers', 'careers'],
] as const;

let apps: AppProcess[] = [];
let metricsPorts: number[] = [];
let prometheus: ChildProcess | undefined;
let prometheusUrl = '';
let dir = '';
let browser: Browser | undefined;

/** The shipped prometheus.yml with the test's ports and a 1 s interval; fails if the shipped layout changed. */
function testConfig(shipped: string, ports: number[]): string {
  const targets = /( +)- 127\.0\.0\.1:9300\n\1- 127\.0\.0\.1:9301\n\1- 127\.0\.0\.1:9302\n/;
  expect(shipped).toMatch(targets);
  expect(shipped).toContain('scrape_interval: 15s');
  expect(shipped).toContain('evaluation_interval: 15s');
  return shipped
    .replace(targets, (_all, indent: string) => ports.map((port) => `${indent}- 127.0.0.1:${port}\n`).join(''))
    .replace('scrape_interval: 15s', 'scrape_interval: 1s')
    .replace('evaluation_interval: 15s', 'evaluation_interval: 1s');
}

async function query(promql: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await res.json()) as { status: string; data: { result: [] }; error?: string };
  if (body.status !== 'success') throw new Error(`${promql}: ${body.error}`);
  return body.data.result;
}

beforeAll(async () => {
  metricsPorts = await Promise.all([freePort(), freePort(), freePort()]);
  apps = await Promise.all(
    metricsPorts.map((port, i) => startApp({ LOG_LEVEL: 'warn', METRICS_PORT: String(port) }, { name: `app${i}` })),
  );
  dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
  cpSync(SHIPPED, dir, { recursive: true });
  writeFileSync(
    join(dir, 'prometheus.yml'),
    testConfig(readFileSync(join(SHIPPED, 'prometheus.yml'), 'utf8'), metricsPorts),
  );
  const port = await freePort();
  prometheusUrl = `http://127.0.0.1:${port}`;
  prometheus = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: 'ignore' },
  );
  await until(
    'Prometheus ready',
    () =>
      fetch(`${prometheusUrl}/-/ready`).then(
        (r) => r.ok,
        () => false,
      ),
    60_000,
  );
  browser = await chromium.launch({ executablePath: requireChromium(), args: CHROMIUM_BASE_FLAGS });
});

afterAll(async () => {
  await browser?.close();
  if (prometheus?.exitCode === null) {
    const exited = new Promise((resolve) => prometheus!.once('exit', resolve));
    prometheus.kill('SIGTERM');
    await exited;
  }
  await Promise.all(apps.map((app) => app.stop()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The bucket (index into the bounds, past the last one for +Inf) a value in seconds falls in. */
const bucketOf = (bounds: number[], seconds: number) => {
  const index = bounds.findIndex((bound) => seconds <= bound);
  return index < 0 ? bounds.length : index;
};

describe('the shipped Prometheus configuration against three app processes', () => {
  it('scrapes every process and loads every rule', async () => {
    await expect
      .poll(async () => {
        const up = await query('up{job="news"}');
        return up.map((sample) => `${sample.metric.instance} ${sample.value[1]}`).sort();
      })
      .toEqual(metricsPorts.map((port) => `127.0.0.1:${port} 1`).sort());
    const rules = (await (await fetch(`${prometheusUrl}/api/v1/rules`)).json()) as {
      data: { groups: Array<{ rules: Array<{ name: string; health: string }> }> };
    };
    const all = rules.data.groups.flatMap((group) => group.rules);
    expect(all).toHaveLength(18);
    expect(all.filter((rule) => rule.health === 'err')).toEqual([]);
    // Nothing is wrong with a site at rest: no alert fires.
    const alerts = (await (await fetch(`${prometheusUrl}/api/v1/alerts`)).json()) as { data: { alerts: unknown[] } };
    expect(alerts.data.alerts).toEqual([]);
  });

  it("records readers' LCP per route: the rule's p75 within a bucket of the browser's own figure", async () => {
    const bounds = VITAL_HISTOGRAMS.LCP.buckets;
    const measured = new Map<string, number>();
    const context = await browser!.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    // Third-party hosts cannot be reached here: fail them at once (the three apps are all on 127.0.0.1).
    await page.route(
      (url) => url.protocol.startsWith('http') && url.hostname !== '127.0.0.1',
      (route) => route.abort('blockedbyclient'),
    );
    for (const [i, [path, route]] of VISITS.entries()) {
      const app = apps[i % apps.length]!;
      const chunk = page.waitForResponse((res) => /\/assets\/vitals-[\w-]+\.js$/.test(res.url()));
      await page.goto(app.url + path, { waitUntil: 'load' });
      await untilHydrated(page, 'footer a[href="/terms"]');
      await chunk;
      const lcp = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            new PerformanceObserver((list) => resolve(list.getEntries().at(-1)!.startTime)).observe({
              type: 'largest-contentful-paint',
              buffered: true,
            });
          }),
      );
      measured.set(route, lcp / 1000);
      await page.waitForLoadState('networkidle');
    }
    // The last page's view ends when it is left (the context stays open while its beacon goes).
    await page.goto('about:blank');

    for (const [route, seconds] of measured) {
      const p75 = await (async () => {
        let value = Number.NaN;
        await expect
          .poll(
            async () => {
              const [sample] = await query(`route:web_vitals_lcp_seconds:p75_30m{route="${route}"}`);
              value = Number(sample?.value[1]);
              return Number.isFinite(value);
            },
            { timeout: 60_000 },
          )
          .toBe(true);
        return value;
      })();
      console.log(
        `${route.padEnd(8)} LCP in the browser ${seconds.toFixed(3)} s, p75 in Prometheus ${p75.toFixed(3)} s`,
      );
      expect(Math.abs(bucketOf(bounds, p75) - bucketOf(bounds, seconds)), route).toBeLessThanOrEqual(1);
    }
    await context.close();
  });

  it('counts about N listener-seconds for a listener of N seconds', async () => {
    const total = async () => Number((await query('sum(stream_listener_seconds_total{port="8076"})'))[0]?.value[1]);
    const before = await total();
    const started = performance.now();
    const res = await fetch(`${apps[0]!.url}/api/stream?port=8076`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const until = started + 4_000;
    while (performance.now() < until) if ((await reader.read()).done) break;
    await reader.cancel();
    const held = (performance.now() - started) / 1000;
    // Once a scrape after the listener left has reached Prometheus, the total no longer moves.
    let last = Number.NaN;
    await expect
      .poll(
        async () => {
          const now = await total();
          const settled = now === last && now - before > 0;
          last = now;
          return settled;
        },
        { interval: 1_500 },
      )
      .toBe(true);
    console.log(`listened ${held.toFixed(2)} s, Prometheus counted ${(last - before).toFixed(2)} listener-seconds`);
    expect(last - before).toBeCloseTo(held, 0);
  });
});

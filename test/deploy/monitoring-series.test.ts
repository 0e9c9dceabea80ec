/**
 * The shipped dashboard (deploy/grafana) and Prometheus rules (deploy/prometheus) name only series
 * a running app exports on its metrics listener, Prometheus's own `up`, or a recording rule of
 * deploy/prometheus/recording-rules.yml: a renamed or removed metric fails here, not on an
 * operator's empty panel or a silent alert.
 */
import { readFileSync } from 'node:fs';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppProcess } from '../support/app-process.ts';

const DEPLOY = new URL('../../deploy/', import.meta.url).pathname;
/** Made by Prometheus for every target, not by the app. */
const PROMETHEUS_SERIES = new Set(['up']);
/** PromQL words that look like series names. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'and',
  'or',
  'unless',
  'offset',
]);

/**
 * The series names a PromQL expression reads: identifiers outside strings, label matchers, ranges
 * and grouping lists, that are not a function's name (followed by "("), a keyword, or a number.
 */
function seriesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/(?<![\w.])([A-Za-z_:][\w:]*)(\s*\()?/g)]
    .filter((m) => m[2] === undefined)
    .map((m) => m[1]!)
    .filter((name, i, all) => !KEYWORDS.has(name) && all.indexOf(name) === i)
    .filter((name) => !/^(?:Inf|NaN)$/i.test(name));
}

/** The `expr:` values of a rules file in our layout (one line, or a `|` block indented below). */
function rulesExprs(file: string): Array<{ name: string; expr: string }> {
  const text = readFileSync(`${DEPLOY}prometheus/${file}`, 'utf8');
  return [...text.matchAll(/- (?:alert|record): (\S+)\n\s+expr: (?:\|\n((?:\s{10,}.*\n)+)|(.*)\n)/g)].map((m) => ({
    name: m[1]!,
    expr: (m[2] ?? m[3] ?? '').trim(),
  }));
}

const dashboard = JSON.parse(readFileSync(`${DEPLOY}grafana/news-dashboard.json`, 'utf8')) as {
  panels: Array<{ title: string; targets?: Array<{ expr: string }> }>;
};
const dashboardQueries = dashboard.panels.flatMap((panel) =>
  (panel.targets ?? []).map((target) => ({ name: panel.title, expr: target.expr })),
);
const recorded = new Set(rulesExprs('recording-rules.yml').map((rule) => rule.name));

let app: AppProcess;
/** Every name a PromQL query may use for the app's series (a histogram's _bucket, _sum, _count). */
let exported: Set<string>;

beforeAll(async () => {
  const metricsPort = await freePort();
  app = await startApp({ METRICS_PORT: String(metricsPort) });
  const families = parsePrometheusTextFormat(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
  exported = new Set(
    families.flatMap((f) =>
      f.type === 'HISTOGRAM' ? [`${f.name}_bucket`, `${f.name}_sum`, `${f.name}_count`] : [f.name],
    ),
  );
});
afterAll(() => app?.stop());

describe('the series the shipped monitoring reads', () => {
  it('finds the names in a query', () => {
    expect(
      seriesIn(
        'histogram_quantile(0.75, sum by (job, le) (rate(web_vitals_lcp_seconds_bucket{lane=~"a|b"}[30m]))) > 2.5',
      ),
    ).toEqual(['web_vitals_lcp_seconds_bucket']);
    expect(seriesIn('sum without (port) (stream_listeners) / on (instance) stream_listeners_max')).toEqual([
      'stream_listeners',
      'stream_listeners_max',
    ]);
  });

  it('reads the rules and the dashboard', () => {
    expect(rulesExprs('recording-rules.yml')).toHaveLength(8);
    expect(rulesExprs('alert-rules.yml')).toHaveLength(10);
    expect(dashboardQueries.length).toBeGreaterThan(15);
  });

  it.each([
    ...rulesExprs('recording-rules.yml').map((q) => ['recording rule', q] as const),
    ...rulesExprs('alert-rules.yml').map((q) => ['alert', q] as const),
    ...dashboardQueries.map((q) => ['dashboard panel', q] as const),
  ])('%s %o names only series the app exports', (_kind, { expr }) => {
    const names = seriesIn(expr);
    expect(names.length).toBeGreaterThan(0);
    const unknown = names.filter((name) => !exported.has(name) && !recorded.has(name) && !PROMETHEUS_SERIES.has(name));
    expect(unknown, expr).toEqual([]);
  });
});

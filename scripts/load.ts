/**
 * `npm run test:load`: the load and fault suite (issue 5), on loopback, about two minutes.
 * Every check is about behaviour, so a busy machine cannot fail it: throughput, latency and
 * times are printed as figures. Time limits only stop a hung client (and say so).
 *
 * 1. Mixed-route load: wrk, 256 connections, 20 s warm-up then LOAD_SECONDS (60) s over pages,
 *    a missing page, assets, robots.txt, sitemap.xml, the favicon and /healthz. Zero socket
 *    errors, zero 5xx, only the missing page answers 404 (its share is exact up to the requests
 *    in flight at the end); no runaway memory (RSS at the end under 1.5 × RSS after the warm-up).
 * 2. 10,000 random request targets (FUZZ_SEED to replay): no 5xx, no crash, every unknown path
 *    a 404, pages with any query string a 200, no file outside the public folder.
 * 3. Faults, with HEADERS_TIMEOUT_MS=1000: clients sending headers byte by byte are cut by the
 *    headers timeout long before they finish, while others are served; headers over the limit
 *    get 431; a body on a GET page (complete, unfinished, endless chunks) does not hold the
 *    answer up.
 * 4. SIGTERM during load: requests written before the signal are answered in full, later ones
 *    are served or refused cleanly, and the process exits 0 (it exits 1 when its shutdown
 *    timeout, under 10 s, has to force it).
 * Prints a summary table and exits non-zero if any check fails.
 */
import { readFileSync, mkdtempSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Manifest } from '../src/server/manifest.ts';
import { pages } from '../src/shared/pages.ts';
import { type AppProcess, requireBuild, startApp } from '../test/support/app-process.ts';
import { sleep } from '../test/support/wait.ts';
import {
  getWithBody,
  oversizedHeaders,
  pageArrived,
  slowHeaders,
  statusesOf,
  statusOf,
} from '../test/support/raw-http.ts';
import { fuzzCases, send, type Category } from './load/fuzz.ts';
import { mixedRoutesLua } from './load/mixed-routes.ts';
import { sigtermUnderLoad } from './load/sigterm.ts';
import { errorCount, requireWrk, runWrk } from './perf/wrk.ts';
import { CLIENT_CPU, loadAverage, mb, placement, SERVER_CPU, table } from './perf/harness.ts';

const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
// Long enough for V8 to size its heap for this load: the live heap stays near 30 MB, but the heap
// V8 keeps (and so RSS) grows over the first seconds of a new load.
const WARMUP_SECONDS = 20;
const CONNECTIONS = 256;
const FUZZ_COUNT = Number(process.env.FUZZ_COUNT ?? 10_000);
const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const HEADERS_TIMEOUT_MS = 1_000;
/** wrk counts an answer slower than this as a timeout error: a hang limit, far beyond any answer here. */
const WRK_TIMEOUT_S = 30;

interface Check {
  name: string;
  measured: string;
  target: string;
  ok: boolean;
}
const checks: Check[] = [];
function check(name: string, measured: string | number, target: string, ok: boolean): void {
  checks.push({ name, measured: String(measured), target, ok });
  console.log(`  ${ok ? 'ok  ' : 'FAIL'}  ${name}: ${measured} (target ${target})`);
}

function start(dir: string, name: string, env: Record<string, string> = {}): Promise<AppProcess> {
  return startApp(env, {
    name,
    logFile: join(dir, `${name}.log`),
    ...(SERVER_CPU !== undefined && { cpu: SERVER_CPU }),
  });
}

async function healthy(server: AppProcess): Promise<boolean> {
  try {
    return (await fetch(`${server.url}/healthz`)).ok;
  } catch {
    return false;
  }
}

const errorLines = (server: AppProcess) => server.logLines((l) => typeof l.level === 'number' && l.level >= 50);

async function mixedLoad(dir: string, server: AppProcess): Promise<void> {
  const manifest = JSON.parse(readFileSync('dist/manifest.json', 'utf8')) as Manifest;
  const pagePaths = pages.filter((p) => p.id !== 'notFound').map((p) => p.path);
  const paths = [
    ...pagePaths,
    '/no-such-page',
    manifest.entry.js,
    ...manifest.entry.imports.slice(0, 2),
    '/robots.txt',
    '/sitemap.xml',
    '/favicon.svg',
    '/healthz',
  ];
  const script = join(dir, 'mixed.lua');
  writeFileSync(script, mixedRoutesLua(paths));
  const wrk = (durationS: number) =>
    runWrk({
      url: server.url,
      connections: CONNECTIONS,
      durationS,
      script,
      headers: { 'Accept-Encoding': 'gzip, br' },
      timeoutS: WRK_TIMEOUT_S,
      ...(CLIENT_CPU !== undefined && { cpu: CLIENT_CPU }),
    });

  console.log(
    `\n1. mixed-route load: ${paths.length} paths, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${LOAD_SECONDS} s`,
  );
  await wrk(WARMUP_SECONDS);
  const rssWarm = server.rssKb();
  let rssPeak = rssWarm;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, server.rssKb())), 1_000);
  const run = await wrk(LOAD_SECONDS);
  clearInterval(sampler);
  const rssEnd = server.rssKb();
  const counts = run.custom ?? { s2xx: 0, s3xx: 0, s404: 0, s4xx: 0, s5xx: 0 };
  const total = counts.s2xx! + counts.s3xx! + counts.s404! + counts.s4xx! + counts.s5xx!;
  console.log(
    `  ${run.requests} requests, ${run.rps.toFixed(0)} req/s, p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms, max ${run.maxMs.toFixed(0)} ms; ` +
      `2xx ${counts.s2xx}, 404 ${counts.s404}, other 4xx ${counts.s4xx}, 3xx ${counts.s3xx}, 5xx ${counts.s5xx}`,
  );
  console.log(`  RSS after warm-up ${mb(rssWarm)}, peak ${mb(rssPeak)}, at the end ${mb(rssEnd)}`);
  const drift = (rssEnd - rssWarm) / rssWarm;
  // wrk's one thread hands the paths out in turn, so the missing page is exactly every Nth request
  // sent; only the requests still in flight at the end (at most one per connection) blur the count.
  const expected404 = total / paths.length;
  const off404 = Math.abs(counts.s404! - expected404);
  check(
    'load: socket errors (connect/read/write/timeout)',
    `${errorCount(run)} (${Object.values(run.errors).join('/')})`,
    '0',
    errorCount(run) === 0,
  );
  check('load: 5xx responses', counts.s5xx!, '0', counts.s5xx === 0 && total > 0);
  check(
    'load: unexpected statuses (3xx, 4xx but 404)',
    counts.s3xx! + counts.s4xx!,
    '0',
    counts.s3xx === 0 && counts.s4xx === 0,
  );
  check(
    'load: 404s (only /no-such-page, every Nth request)',
    `${counts.s404} of ${total}`,
    `${expected404.toFixed(0)} ± ${CONNECTIONS + 1}`,
    off404 <= CONNECTIONS + 1,
  );
  // A leak check, not a figure: V8 sizes its heap to the load, which a busy machine changes.
  check(
    'load: RSS end vs after warm-up (no runaway growth)',
    `${drift >= 0 ? '+' : ''}${(drift * 100).toFixed(1)} %`,
    'under +50 %',
    drift < 0.5,
  );
  check('load: throughput (figure)', `${run.rps.toFixed(0)} req/s, p99 ${run.p99Ms.toFixed(1)} ms`, 'printed', true);
}

async function fuzz(server: AppProcess): Promise<void> {
  const pagePaths = pages.filter((p) => p.id !== 'notFound').map((p) => p.path);
  const publicNames = readdirSync('dist/client');
  const reserved = [
    ...pagePaths.map((p) => p.split('/')[1] ?? ''),
    'assets',
    'api',
    'healthz',
    'robots.txt',
    'sitemap.xml',
    ...publicNames,
  ];
  const cases = fuzzCases(FUZZ_COUNT, FUZZ_SEED, pagePaths, reserved);
  console.log(`\n2. ${cases.length} random request targets (FUZZ_SEED=${FUZZ_SEED})`);
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const byCategory = new Map<Category, { n: number; statuses: Map<number, number> }>();
  const wrong: string[] = [];
  const leaks: string[] = [];
  let fivexx = 0;
  let errors = 0;
  let next = 0;
  const record = (c: (typeof cases)[number], outcome: Awaited<ReturnType<typeof send>>) => {
    const entry = byCategory.get(c.category) ?? { n: 0, statuses: new Map() };
    entry.n++;
    entry.statuses.set(outcome.status, (entry.statuses.get(outcome.status) ?? 0) + 1);
    byCategory.set(c.category, entry);
    if (outcome.status >= 500) fivexx++;
    if (outcome.error) errors++;
    if (outcome.leaked) leaks.push(`${c.target} (${outcome.leaked})`);
    if (outcome.status !== c.expected && wrong.length < 1_000)
      wrong.push(`${outcome.status || outcome.error} ≠ ${c.expected}: ${JSON.stringify(c.target.slice(0, 120))}`);
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        record(c, await send(agent, server.port, c.target));
      }
    }),
  );
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  console.log(
    table(
      ['category', 'requests', 'statuses'],
      [...byCategory].map(([category, e]) => [
        category,
        e.n,
        [...e.statuses]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s}×${n}`)
          .join(' '),
      ]),
    ),
  );
  console.log(`  ${(cases.length / seconds).toFixed(0)} req/s over ${seconds.toFixed(1)} s`);
  for (const w of wrong.slice(0, 10)) console.log(`  unexpected: ${w}`);
  check('fuzz: 5xx responses', fivexx, '0', fivexx === 0);
  check(
    'fuzz: answers other than expected (404 unknown, 200 page+query, 400 bad bytes)',
    wrong.length,
    '0',
    wrong.length === 0,
  );
  check('fuzz: connection errors', errors, '0', errors === 0);
  check('fuzz: bodies revealing files', leaks.length, '0', leaks.length === 0);
  const alive = server.alive() && (await healthy(server));
  check('fuzz + load: server alive and healthy afterwards', alive ? 'yes' : 'no', 'yes', alive);
  const logged = errorLines(server);
  for (const l of logged.slice(0, 3)) console.log(`  error log: ${JSON.stringify(l).slice(0, 300)}`);
  check('fuzz + load: error-level log lines', logged.length, '0', logged.length === 0);
}

async function faults(dir: string): Promise<void> {
  console.log(`\n3. faults (HEADERS_TIMEOUT_MS=${HEADERS_TIMEOUT_MS}, MAX_HEADER_SIZE=16384)`);
  // A request timeout far beyond the slow clients' minute: only the headers timeout can cut them.
  const server = await start(dir, 'faults', {
    HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    REQUEST_TIMEOUT_MS: '300000',
  });
  try {
    // Sixteen clients drip their headers one byte every 100 ms (it would take about a minute each).
    const slow = Array.from({ length: 16 }, (_, i) => slowHeaders(server.port, `/about?slow=${i}`, 100));
    await sleep(300);
    const t0 = performance.now();
    const normal = await fetch(`${server.url}/`, { headers: { 'Accept-Encoding': 'br' } });
    const normalMs = performance.now() - t0;
    const slowResults = await Promise.all(slow);
    const cutAfter = slowResults.map((r) => r.closedAfterMs ?? Number.POSITIVE_INFINITY);
    const cutEarly = slowResults.filter((r) => r.closedAfterMs !== null && r.sent < r.total).length;
    const served = slowResults.filter((r) => statusOf(r.text) === 200).length;
    const statuses = [...new Set(slowResults.map((r) => statusOf(r.text) || 'none'))].join(', ');
    console.log(
      `  slow clients cut after ${Math.min(...cutAfter).toFixed(0)}–${Math.max(...cutAfter).toFixed(0)} ms (answers: ${statuses}); a normal request meanwhile: ${normal.status} in ${normalMs.toFixed(0)} ms`,
    );
    check(
      'slow headers: cut by the server before they finish sending',
      `${cutEarly}/16 cut, ${served} served`,
      '16/16 cut, 0 served',
      cutEarly === 16 && served === 0,
    );
    check('slow headers: others still served', normal.status, '200', normal.status === 200);

    const one = await oversizedHeaders(server.port, 'one', 20_000);
    const many = await oversizedHeaders(server.port, 'many', 20_000);
    check('headers over the limit: one 20 KB header', statusOf(one.text) || 'none', '431', statusOf(one.text) === 431);
    check(
      'headers over the limit: 200 headers, 20 KB',
      statusOf(many.text) || 'none',
      '431',
      statusOf(many.text) === 431,
    );

    const complete = await getWithBody(server.port, 'complete');
    const unfinished = await getWithBody(server.port, 'unfinished');
    const chunked = await getWithBody(server.port, 'chunked-open');
    const firstMs = (r: { firstByteMs: number | null }) =>
      r.firstByteMs === null ? 'never' : `${r.firstByteMs.toFixed(0)} ms`;
    check(
      'GET with a 64 KB body, then a 2nd request',
      statusesOf(complete.text).join(', ') || 'none',
      '200, 200',
      statusesOf(complete.text).join(',') === '200,200',
    );
    // The body never completes: a server that waited for it would never answer.
    check(
      'GET with an unfinished body',
      `${statusOf(unfinished.text) || 'none'} after ${firstMs(unfinished)}`,
      '200, the whole page',
      statusOf(unfinished.text) === 200 && pageArrived(unfinished.text),
    );
    check(
      'GET with endless chunked body',
      `${statusOf(chunked.text) || 'none'} after ${firstMs(chunked)}`,
      '200, the whole page',
      statusOf(chunked.text) === 200 && pageArrived(chunked.text),
    );
    const alive = server.alive() && (await healthy(server));
    check('faults: server alive and healthy afterwards', alive ? 'yes' : 'no', 'yes', alive);
  } finally {
    await server.stop();
  }
}

async function sigterm(dir: string): Promise<void> {
  console.log(`\n4. SIGTERM during load (${CONNECTIONS} keep-alive connections)`);
  const server = await start(dir, 'sigterm');
  const result = await sigtermUnderLoad(server, {
    paths: pages.filter((p) => p.id !== 'notFound').map((p) => p.path),
    connections: CONNECTIONS,
    beforeMs: 2_000,
    afterMs: 3_000,
  });
  console.log(
    `  before the signal: ${result.sentBefore} requests sent, ${result.inFlightAtSignal} in flight at the signal, ${result.okBefore} answered in full`,
  );
  console.log(
    `  after the signal: ${result.after.ok} served, ${result.after.refused} refused (connection refused), ` +
      `${result.after['closed-before-answer']} closed before any answer (idle keep-alive connection), ${result.after.bad} bad`,
  );
  for (const a of [...result.lostBefore, ...result.badAfter].slice(0, 5))
    console.log(`  problem: ${a.outcome} ${a.detail}`);
  check(
    'SIGTERM: in-flight requests answered in full',
    `${result.okBefore}/${result.sentBefore}`,
    'all',
    result.lostBefore.length === 0 && result.sentBefore > 0,
  );
  check('SIGTERM: later requests refused cleanly', `${result.after.bad} bad`, '0 bad', result.badAfter.length === 0);
  // Exit code 0: stopped by itself; its shutdown timeout (under 10 s) would have forced exit code 1.
  check(
    'SIGTERM: exit code (time printed)',
    `${result.exitCode} after ${result.exitMs.toFixed(0)} ms`,
    '0',
    result.exitCode === 0,
  );
}

async function main(): Promise<number> {
  requireBuild();
  requireWrk();
  const dir = mkdtempSync(join(tmpdir(), 'news-load-'));
  const started = performance.now();
  console.log(placement());
  console.log(`load average (1/5/15 min) before: ${loadAverage()}`);
  let server: AppProcess | undefined;
  try {
    server = await start(dir, 'load');
    await mixedLoad(dir, server);
    await fuzz(server);
    const code = await server.stop();
    check('load server: clean exit on SIGTERM', String(code), '0', code === 0);
    await faults(dir);
    await sigterm(dir);
  } finally {
    await server?.stop();
  }
  console.log(`\nsummary (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  console.log(
    table(
      ['check', 'measured', 'target', 'result'],
      checks.map((c) => [c.name, c.measured, c.target, c.ok ? 'PASS' : 'FAIL']),
    ),
  );
  const failed = checks.filter((c) => !c.ok);
  if (failed.length === 0) rmSync(dir, { recursive: true, force: true });
  else console.log(`\n${failed.length} check(s) failed; server logs kept in ${dir}`);
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(2);
  },
);

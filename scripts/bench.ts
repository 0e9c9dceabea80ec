/**
 * `npm run bench`: how fast the home page is served, against nginx serving the same bytes.
 *
 * wrk, 64 connections, `Accept-Encoding: gzip, br`, alternating targets in rounds (in this order,
 * so the app and its peers are measured back to back):
 *   app            the home page from the app (page fast lane, pre-compressed, request log on, to a
 *                  socket as under systemd or Docker, read by a `cat` on wrk's CPU into a file)
 *   nginx static   the same bytes from nginx with gzip_static (the app's own .gz bytes; no access log)
 *   node bare      a bare Node `http` server sending the app's brotli bytes and headers, nothing
 *                  else (scripts/perf/bare-node.ts, same Node flags as `npm start`): Node's ceiling
 *   app no log     the app with LOG_LEVEL=silent: what the request log costs
 *   nginx gzip     the same HTML from nginx compressing each response (gzip_comp_level 6)
 *   app uncached   the app's render path (a second process with PAGE_CACHE=off)
 *   app metrics    the app with METRICS_PORT set (Prometheus counters on every answer): what they cost
 *   nginx cache    the home page through the shipped deploy/nginx.conf (its HTTPS server, proxy_cache
 *                  warm, in front of the app): what a visitor behind our nginx gets in a burst
 *   nginx tls static  the same bytes from nginx gzip_static in that same HTTPS server, with the same
 *                  header lines as a cache hit (a location the bench adds to the shipped file, nothing
 *                  else changed; the run stops if the two answers' headers differ): the peer of nginx cache
 * The two nginx-over-TLS targets ask for gzip (the bytes gzip_static has) on 32 connections, not 64:
 * the shipped server allows one client 32 connections with a request under way (limit_conn; more
 * get 429), and wrk is one client. Both sides of that ratio run the same way, so it is like for like.
 * nginx writes no access log here (a main-configuration setting: Debian's writes one).
 * Servers are pinned to CPU 0 and wrk to CPU 1 (taskset) when there are two CPUs; without taskset
 * or a second CPU the bench says so and runs unpinned. CPU per request is the server's user +
 * system time over the run (nginx: master and workers) ÷ requests.
 * Targets (issue 10): app ≥ 0.5 × nginx static, app ≥ 10 × app uncached, app p99 ≤ 5 ms.
 * Goals (issues 18, 19), each judged on the median of its per-round ratios (two targets measured
 * seconds apart), printed also by CPU per request: app ≥ 0.85 × node bare, app metrics ≥ 0.97 ×
 * app, nginx cache ≥ 0.95 × nginx tls static.
 *
 * The machine is shared: for tens of seconds at a time the server's CPU gets through half the
 * work in the same CPU time (the host's doing; nothing in /proc shows it), whatever runs there.
 * So the run is many short rounds rather than a few long ones, each target's best round (by
 * req/s, with that round's latency) stands for it, and each round's app ÷ nginx static (measured
 * seconds apart) is printed too, with their median.
 *
 * Each app first answers the other lanes a running site answers (a file, a 404 page, robots.txt, a
 * refused stream port: scripts/perf/variants.ts otherLanes), 20 times each, so its process is not
 * one that never met Express (decision 016). Each target then gets BENCH_WARMUP_SECONDS (default 3)
 * of the same load, not counted.
 * BENCH_SECONDS (default 4) and BENCH_ROUNDS (default 8) set the run length.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { type DeployNginx, NGINX_BIN, startNginx } from '../test/support/nginx.ts';
import {
  type AppProcess,
  cpuMs,
  freePort,
  requireBuild,
  shippedServerArgs,
  startApp,
  TASKSET,
} from '../test/support/app-process.ts';
import { untilCached } from '../test/support/http.ts';
import { median } from '../test/support/stats.ts';
import { requireWrk, runWrk, type WrkResult } from './perf/wrk.ts';
import { fetchBytes } from './perf/fetch-bytes.ts';
import { barePeerArgs, otherLanes } from './perf/variants.ts';
import { warmNginxCache, withTlsStatic } from './perf/nginx-tls-static.ts';
import { table } from './text-table.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
const CONNECTIONS = 64;
const ACCEPT = 'gzip, br';
const GZIP_LEVEL = 6;
const pinned = TASKSET !== null && availableParallelism() >= 2;
/** Why the run is not pinned, said before anything is measured (unpinned figures swing more). */
function warnIfUnpinned(): void {
  if (pinned) return;
  const why =
    TASKSET === null ? 'taskset is not installed (Debian package "util-linux")' : `${availableParallelism()} CPU only`;
  console.warn(`warning: ${why}: servers and wrk run unpinned, sharing CPUs; the ratios are less comparable`);
}
const SERVER_CPU = pinned ? 0 : undefined;
const CLIENT_CPU = pinned ? 1 : undefined;

/** The nginx-over-TLS targets: limit_conn in deploy/nginx.conf allows one client 32. */
const TLS_CONNECTIONS = 32;
const TLS_ACCEPT = 'gzip';

const TARGET = { vsStatic: 0.5, vsUncached: 10, p99Ms: 5, vsBare: 0.85, metricsCost: 0.03, cacheVsStatic: 0.95 };

interface Target {
  name: string;
  url: string;
  pid: number;
  /** wrk's connections and Accept-Encoding when not CONNECTIONS and ACCEPT. */
  connections?: number;
  accept?: string;
  /** The certificate to trust (nginx's self-signed one, for https://). */
  ca?: string;
}

interface Run extends WrkResult {
  /** Server CPU time per request, in µs. */
  cpuUsPerRequest: number;
}

const mb = (kbytes: number) => `${(kbytes / 1024).toFixed(1)} MB`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/**
 * Waits until a server has done what the last load left it (the uncached app finishes ~200 ms of
 * renders after wrk stops): at most one clock tick of CPU in 200 ms, or 3 s. Without it, that work
 * shared the CPU with the first moments of the next target's round and made its p99.
 */
async function settle(pid: number): Promise<void> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const before = cpuMs(pid);
    await new Promise((r) => setTimeout(r, 200));
    if (cpuMs(pid) - before <= 10 || Date.now() > deadline) return;
  }
}

/** Where the run's servers and files live; stopped and removed at the end. */
interface Bench {
  dir: string;
  servers: AppProcess[];
  nginx?: DeployNginx;
}

/**
 * A server pinned where the servers run. Its log goes, as in production, to a socket whose reader
 * (a `cat` on wrk's CPU, standing in for journald or Docker) appends it to a file in the run's folder.
 */
async function startServer(
  bench: Bench,
  name: string,
  env: Record<string, string> = {},
  args?: string[],
): Promise<AppProcess> {
  const server = await startApp(env, {
    name,
    logFile: join(bench.dir, `${name.replaceAll(' ', '-')}.log`),
    ...(args && { args }),
    ...(SERVER_CPU !== undefined && { cpu: SERVER_CPU }),
    ...(CLIENT_CPU !== undefined && { logReaderCpu: CLIENT_CPU }),
  });
  bench.servers.push(server);
  return server;
}

/** The home page as the app caches it, in each encoding: render once, then wait for the cached copy (it has an ETag). */
async function cachedHomePage(app: AppProcess) {
  const cached = await untilCached(
    () => fetchBytes(`${app.url}/`, ACCEPT),
    (r) => r.etag,
  );
  if (cached.status !== 200 || !cached.etag) throw new Error(`home page not cached (status ${cached.status})`);
  const html = (await fetchBytes(`${app.url}/`, 'identity')).body;
  const gzip = await fetchBytes(`${app.url}/`, 'gzip');
  const br = await fetchBytes(`${app.url}/`, 'br');
  return { html, gz: gzip.body, gzipHeaders: gzip.headers, br };
}

type HomePage = Awaited<ReturnType<typeof cachedHomePage>>;

/** The peer: the same brotli answer from a bare Node server. */
function startBareNode(bench: Bench, br: HomePage['br']): Promise<AppProcess> {
  return startServer(bench, 'node bare', {}, [...shippedServerArgs().slice(0, -1), ...barePeerArgs(bench.dir, br)]);
}

/** nginx gets the very same bytes: the HTML, and the app's gzip copy for gzip_static. */
async function startNginxPeers(bench: Bench, home: HomePage, appPort: number): Promise<DeployNginx> {
  const { dir } = bench;
  for (const sub of ['static', 'dynamic']) mkdirSync(join(dir, 'www', sub), { recursive: true, mode: 0o755 });
  chmodSync(join(dir, 'www'), 0o755);
  writeFileSync(join(dir, 'www', 'static', 'index.html'), home.html, { mode: 0o644 });
  writeFileSync(join(dir, 'www', 'static', 'index.html.gz'), home.gz, { mode: 0o644 });
  writeFileSync(join(dir, 'www', 'dynamic', 'index.html'), home.html, { mode: 0o644 });
  const nginx = await startNginx({
    upstreams: [appPort],
    accessLog: false,
    edit: withTlsStatic(dir, home.gzipHeaders),
    ...(SERVER_CPU !== undefined && { cpu: SERVER_CPU }),
    serverExtra: `
    location /static/ { root ${dir}/www; gzip_static on; gzip_vary on; access_log off; }
    location /dynamic/ { root ${dir}/www; gzip on; gzip_comp_level ${GZIP_LEVEL}; gzip_min_length 0; gzip_vary on; access_log off; }`,
  });
  bench.nginx = nginx;
  return nginx;
}

interface Servers {
  app: AppProcess;
  quiet: AppProcess;
  uncached: AppProcess;
}

/** Every server, started and warmed, as the targets in the order they are measured. */
async function startTargets(bench: Bench): Promise<{ servers: Servers; home: HomePage; targets: Target[] }> {
  const app = await startServer(bench, 'app');
  const quiet = await startServer(bench, 'app no log', { LOG_LEVEL: 'silent' });
  const uncached = await startServer(bench, 'app uncached', { PAGE_CACHE: 'off' });
  const metrics = await startServer(bench, 'app metrics', { METRICS_PORT: String(await freePort()) });
  const home = await cachedHomePage(app);
  const bare = await startBareNode(bench, home.br);
  const nginx = await startNginxPeers(bench, home, app.port);
  // Warm the other processes' caches too.
  for (const server of [quiet, metrics]) {
    await untilCached(
      () => fetchBytes(`${server.url}/`, ACCEPT),
      (r) => r.etag,
    );
  }
  // Each app answers what a running site's other lanes do before its cached pages are measured.
  for (const server of [app, quiet, metrics]) await otherLanes(server);
  await warmNginxCache(nginx, TLS_ACCEPT);
  const nginxPid = nginx.child.pid!;
  const tls = { connections: TLS_CONNECTIONS, accept: TLS_ACCEPT, pid: nginxPid, ca: nginx.certificate.cert };
  const targets: Target[] = [
    { name: 'app', url: `${app.url}/`, pid: app.pid },
    { name: 'nginx static', url: `${nginx.url}/static/index.html`, pid: nginxPid },
    { name: 'node bare', url: `${bare.url}/`, pid: bare.pid },
    { name: 'app no log', url: `${quiet.url}/`, pid: quiet.pid },
    { name: 'nginx gzip', url: `${nginx.url}/dynamic/index.html`, pid: nginxPid },
    { name: 'app uncached', url: `${uncached.url}/`, pid: uncached.pid },
    { name: 'app metrics', url: `${metrics.url}/`, pid: metrics.pid },
    { name: 'nginx cache', url: `${nginx.httpsUrl}/`, ...tls },
    { name: 'nginx tls static', url: `${nginx.httpsUrl}/static/index.html`, ...tls },
  ];
  return { servers: { app, quiet, uncached }, home, targets };
}

/** Two targets compared in a goal must send the same header lines (but Date), or the ratio is not like for like. */
function requireSameHeaders(lines: Map<string, string[]>, a: string, b: string): void {
  const [of, to] = [lines.get(a)!, lines.get(b)!];
  const differ = [...of.filter((l) => !to.includes(l)), ...to.filter((l) => !of.includes(l))];
  if (differ.length > 0) throw new Error(`${a} and ${b} send different header lines:\n${differ.join('\n')}`);
}

/** The page's sizes, what each target sends, the load and the run's settings. */
async function printSetup(home: HomePage, targets: Target[]): Promise<void> {
  const { html, gz, br } = home;
  console.log(
    `home page HTML: ${html.length} B raw, ${gz.length} B gzip (level 9), ${br.body.length} B brotli (quality 11)`,
  );
  console.log(
    `  (for reference: gzip level ${GZIP_LEVEL} ${gzipSync(html, { level: GZIP_LEVEL }).length} B, brotli q4 ${brotliCompressSync(html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }).length} B)`,
  );
  const sample: Array<Array<string | number>> = [];
  const headerLines = new Map<string, string[]>();
  for (const t of targets) {
    const r = await fetchBytes(t.url, t.accept ?? ACCEPT, t.ca);
    if (r.status !== 200) throw new Error(`${t.name} answered ${r.status}`);
    sample.push([t.name, t.accept ?? ACCEPT, r.encoding ?? 'identity', r.body.length, r.cacheStatus ?? '']);
    headerLines.set(t.name, r.headers.map(([name, value]) => `${name.toLowerCase()}: ${value}`).sort());
  }
  requireSameHeaders(headerLines, 'nginx cache', 'nginx tls static');
  console.log(
    `\nwhat each target sends:\n${table(['target', 'Accept-Encoding', 'encoding', 'bytes', 'X-Cache-Status'], sample)}`,
  );
  console.log(
    `\nload average (1/5/15 min) before: ${load()} on ${availableParallelism()} CPUs (other work on the machine skews the figures)`,
  );
  console.log(
    `wrk: ${CONNECTIONS} connections (${TLS_CONNECTIONS} for nginx over TLS: its limit_conn per client), ${SECONDS} s per target, ${ROUNDS} rounds; ` +
      (pinned ? `servers on CPU ${SERVER_CPU}, wrk on CPU ${CLIENT_CPU}` : 'NOT PINNED (see the warning above)'),
  );
}

const wrkAt = (t: Target, durationS: number) =>
  runWrk({
    url: t.url,
    connections: t.connections ?? CONNECTIONS,
    durationS,
    headers: { 'Accept-Encoding': t.accept ?? ACCEPT },
    ...(CLIENT_CPU !== undefined && { cpu: CLIENT_CPU }),
  });

/** Warm-up, not counted: every server's JIT gets the same few seconds of this load first. */
async function warmUp(targets: Target[]): Promise<void> {
  for (const t of targets) {
    await wrkAt(t, WARMUP_SECONDS);
    await settle(t.pid);
  }
}

const errorsOf = (r: Run) => Object.values(r.errors).reduce((a, b) => a + b, 0);

/** One measured run of a target, printed as it ends. */
async function measure(t: Target, round: number): Promise<Run> {
  const cpuBefore = cpuMs(t.pid);
  const wrk = await wrkAt(t, SECONDS);
  const result: Run = { ...wrk, cpuUsPerRequest: ((cpuMs(t.pid) - cpuBefore) * 1000) / wrk.requests };
  await settle(t.pid);
  const errors = errorsOf(result);
  console.log(
    `  round ${round}  ${t.name.padEnd(13)} ${fixed(result.rps, 0).padStart(8)} req/s  p50 ${fixed(result.p50Ms, 2).padStart(7)} ms  p99 ${fixed(result.p99Ms, 2).padStart(8)} ms  CPU ${fixed(result.cpuUsPerRequest, 1).padStart(7)} µs/req` +
      (errors || result.non2xx3xx ? `  errors ${errors}, non-2xx ${result.non2xx3xx}` : ''),
  );
  return result;
}

/**
 * The ratios issues 18 and 19 set goals for, each of two targets measured seconds apart in the
 * same round (`at least`: the goal for the ratio).
 */
const GOALS = [
  { name: 'app / node bare', of: 'app', to: 'node bare', atLeast: TARGET.vsBare },
  { name: 'app metrics / app', of: 'app metrics', to: 'app', atLeast: 1 - TARGET.metricsCost },
  { name: 'nginx cache / nginx tls static', of: 'nginx cache', to: 'nginx tls static', atLeast: TARGET.cacheVsStatic },
] as const;

/** Each round's `of` ÷ `to` (req/s), in round order. */
const sameRound = (runs: Map<string, Run[]>, of: string, to: string) =>
  runs.get(of)!.map((r, i) => r.rps / runs.get(to)![i]!.rps);

/** ROUNDS rounds over every target in turn; each round's ratios printed as it ends. */
async function runRounds(targets: Target[]): Promise<Map<string, Run[]>> {
  const runs = new Map<string, Run[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of targets) runs.set(t.name, [...(runs.get(t.name) ?? []), await measure(t, round)]);
    const ratios = [{ name: 'app / nginx static', of: 'app', to: 'nginx static' }, ...GOALS].map(
      ({ name, of, to }) => `${name} ${fixed(sameRound(runs, of, to).at(-1)!, 3)}`,
    );
    console.log(`  round ${round}  ${ratios.join(', ')} (seconds apart)`);
  }
  return runs;
}

/**
 * The goals' ratios: every round's, their median (what the goal is judged on) and the best rounds';
 * beside them the same ratio of CPU time per request (`to`'s ÷ `of`'s, so above 1 is `of` cheaper),
 * which a busy machine moves less than req/s: a server waiting for a CPU loses requests, not CPU
 * time per request.
 */
function goalChecks(runs: Map<string, Run[]>): Array<[string, string, boolean]> {
  const best = bestOf(runs);
  return GOALS.map(({ name, of, to, atLeast }) => {
    const each = sameRound(runs, of, to);
    const mid = median(each);
    const cpu = runs.get(of)!.map((r, i) => runs.get(to)![i]!.cpuUsPerRequest / r.cpuUsPerRequest);
    console.log(
      `${name}: same-round median ${fixed(mid, 3)} (${each.map((r) => fixed(r, 2)).join(', ')}); best rounds ${fixed(best(of).rps / best(to).rps, 3)}; ` +
        `by CPU per request, same-round median ${fixed(median(cpu), 3)} (${cpu.map((r) => fixed(r, 2)).join(', ')})`,
    );
    return [`${name} ≥ ${atLeast} (same-round median)`, fixed(mid, 3), mid >= atLeast] as [string, string, boolean];
  });
}

/** The best round per target: the machine is shared, and interference only ever slows a run down. */
const bestOf = (runs: Map<string, Run[]>) => (name: string) =>
  runs.get(name)!.reduce((a, b) => (b.rps > a.rps ? b : a));

function printResults(targets: Target[], runs: Map<string, Run[]>, servers: Servers): void {
  const best = bestOf(runs);
  const rows = targets.map((t) => {
    const r = best(t.name);
    return [
      t.name,
      fixed(r.rps, 0),
      fixed(r.p50Ms, 2),
      fixed(r.p99Ms, 2),
      fixed(r.maxMs, 1),
      fixed(r.cpuUsPerRequest, 1),
    ];
  });
  console.log(
    `\nbest round per target\n${table(['target', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'CPU µs/req'], rows)}`,
  );

  const appRun = best('app');
  const ratio = (name: string) => appRun.rps / best(name).rps;
  const appRounds = runs.get('app')!;
  const sameRound = appRounds.map((r, i) => r.rps / runs.get('nginx static')![i]!.rps);
  console.log(
    `\napp / nginx static in the same round: median ${fixed(median(sameRound), 3)} (${sameRound.map((r) => fixed(r, 2)).join(', ')}); ` +
      `app p99 per round: ${appRounds.map((r) => fixed(r.p99Ms, 2)).join(', ')} ms, ` +
      `${appRounds.filter((r) => r.p99Ms <= TARGET.p99Ms).length} of ${appRounds.length} rounds ≤ ${TARGET.p99Ms} ms`,
  );
  console.log(
    `\nratios: app / nginx static ${fixed(ratio('nginx static'), 3)}, app / nginx gzip ${fixed(ratio('nginx gzip'), 2)}, ` +
      `app / app uncached ${fixed(ratio('app uncached'), 1)}, app / app no log ${fixed(ratio('app no log'), 3)}, ` +
      `app / node bare ${fixed(ratio('node bare'), 3)}, app metrics / app ${fixed(best('app metrics').rps / appRun.rps, 3)}, node bare / nginx static ${fixed(best('node bare').rps / best('nginx static').rps, 3)} ` +
      `(the request log costs ${fixed(appRun.cpuUsPerRequest - best('app no log').cpuUsPerRequest, 1)} µs CPU per request)`,
  );
  const { app, quiet, uncached } = servers;
  console.log(
    `RSS after the run: app ${mb(app.rssKb())}, app no log ${mb(quiet.rssKb())}, app uncached ${mb(uncached.rssKb())}`,
  );
  console.log(`load average (1/5/15 min) at the end: ${load()} on ${availableParallelism()} CPUs`);
}

/** The targets of issues 10, 18 and 19, printed as a table; true when all pass. */
function checkTargets(runs: Map<string, Run[]>): boolean {
  console.log('');
  const goals = goalChecks(runs);
  const best = bestOf(runs);
  const appRun = best('app');
  const ratio = (name: string) => appRun.rps / best(name).rps;
  const all = [...runs.values()].flat();
  const checks: Array<[string, string, boolean]> = [
    [
      `app ≥ ${TARGET.vsStatic} × nginx static`,
      fixed(ratio('nginx static'), 3),
      ratio('nginx static') >= TARGET.vsStatic,
    ],
    [
      `app ≥ ${TARGET.vsUncached} × app uncached`,
      fixed(ratio('app uncached'), 1),
      ratio('app uncached') >= TARGET.vsUncached,
    ],
    [`app p99 ≤ ${TARGET.p99Ms} ms`, fixed(appRun.p99Ms, 2), appRun.p99Ms <= TARGET.p99Ms],
    ...goals,
    [
      'no errors or non-2xx',
      String(all.reduce((n, r) => n + r.non2xx3xx + errorsOf(r), 0)),
      all.every((r) => r.non2xx3xx === 0 && Object.values(r.errors).every((e) => e === 0)),
    ],
  ];
  console.log(
    `\n${table(
      ['target', 'measured', 'result'],
      checks.map(([name, value, ok]) => [name, value, ok ? 'PASS' : 'FAIL']),
    )}`,
  );
  return checks.every(([, , ok]) => ok);
}

async function main(): Promise<number> {
  requireBuild();
  requireWrk();
  warnIfUnpinned();
  if (!NGINX_BIN) throw new Error('nginx is not installed (Debian package "nginx")');

  const bench: Bench = { dir: mkdtempSync(join(tmpdir(), 'news-bench-')), servers: [] };
  chmodSync(bench.dir, 0o755);
  try {
    const { servers, home, targets } = await startTargets(bench);
    await printSetup(home, targets);
    await warmUp(targets);
    const runs = await runRounds(targets);
    printResults(targets, runs, servers);
    return checkTargets(runs) ? 0 : 1;
  } finally {
    await bench.nginx?.stop();
    await Promise.all(bench.servers.map((s) => s.stop()));
    rmSync(bench.dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);

/**
 * `npm run bench:stream`: many listeners on the live stream, through our
 * proxy (the built server, dist/server/main.js) and through nginx
 * (proxy_pass, buffering off) to the same real Icecast fed by ezstream, in
 * one run, printed side by side.
 *
 * Per listener count (default 200, 500, 1000): connects ramped over 2 s, each
 * listener reads for 20 s from its own start. Reported: bytes per listener and
 * the steady rate against the stream's real-time rate (after Icecast's burst),
 * time to first byte, server RSS per listener (steady RSS minus the idle
 * server's, over the listeners Icecast counts at that moment, so listeners a
 * loaded machine has not connected yet do not flatter anyone) and server CPU
 * (% of one core while all listen). Each server is started fresh per run, so
 * every baseline is clean. Servers: "proxy" is the app as shipped (`npm start`,
 * its node flags included); "proxy*" the same with --variant's node flags
 * instead ('none' for Node's defaults); "nginx" is proxy_pass with
 * proxy_buffering off and one worker (like the one Node process).
 *
 * Then (--window 1000, 0 skips) that many listeners of the rewind window through the shipped nginx,
 * with nginx's and the app's CPU and the requests that reached the app, beside the same number of
 * live listeners through the app (perf/window-listeners.ts).
 *
 * Also (before the listeners): title-change latency through Icecast's status page and through ICY
 * metadata (bench-title-latency.ts, --title-reps 8), the shown title's offset from the audible song change in
 * Chromium beside the pushed title's (bench-heard-title.ts, --heard-changes 8), and the now-playing push (bench-push.ts, --push 10000
 * clients, --push-changes 3, each against a floor peer measured in the same run).
 *
 * Options: --counts 200,500,1000 (0: none, the push part only)  --seconds 20  --ramp 2  --kbps 128  --variant '<node flags>|none' (default: no proxy* run)
 * Needs: icecast2, ezstream, lame, sox, nginx (Debian packages); a build (made if missing).
 * Everything listens on 127.0.0.1 on free ports and is stopped by PID.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { shippedServerArgs, startApp, type AppProcess } from '../test/support/app-process.ts';
import { makeTestMp3, startEzstream, startIcecast, type Icecast } from '../test/support/icecast.ts';
import { startNginxSite } from '../test/support/nginx.ts';
import { benchPush, type Delivery, type PushResult } from './bench-push.ts';
import { benchHeardTitle, describeHeardTitle } from './bench-heard-title.ts';
import { benchTitleLatency, type TitleLatency } from './bench-title-latency.ts';
import { sleep } from '../test/support/wait.ts';
import { benchWindow, describeWindow } from './perf/window-listeners.ts';
import {
  type Cleanup,
  childPids,
  cpuMs,
  interleave,
  loadAverage,
  median,
  percentile,
  rssKb,
  table,
  withCleanup,
} from './perf/harness.ts';

const ROOT = new URL('..', import.meta.url).pathname;

const { values: args } = parseArgs({
  options: {
    counts: { type: 'string', default: '200,500,1000' },
    seconds: { type: 'string', default: '20' },
    ramp: { type: 'string', default: '2' },
    kbps: { type: 'string', default: '128' },
    /** A second proxy run per count with these node flags instead of the shipped ones ('none': no flags). */
    variant: { type: 'string', default: '' },
    client: { type: 'string' },
    /** Now-playing push clients on one process (bench-push.ts); 0 skips that part. */
    push: { type: 'string', default: '10000' },
    /** Title changes pushed to them, ours and the floor peer's (medians printed). */
    'push-changes': { type: 'string', default: '3' },
    /** Title changes timed through Icecast's status page and ICY metadata (bench-title-latency.ts); 0 skips. */
    'title-reps': { type: 'string', default: '8' },
    /** Song changes of a tone track heard in Chromium, the shown title timed against the tone (bench-heard-title.ts); 0 skips. */
    'heard-changes': { type: 'string', default: '8' },
    /** Rewind window listeners through the shipped nginx (perf/window-listeners.ts); 0 skips. */
    window: { type: 'string', default: '1000' },
  },
});

// ---------------------------------------------------------------------------
// Load client (a child process, so its own work does not show in the server's figures)

interface ListenerResult {
  status: number;
  /** ms from connect start to the first response byte. */
  ttfbMs: number;
  /** Body bytes (after the response headers) over the whole read. */
  bytes: number;
  /** Body bytes between 5 s after start and the end: the steady rate, past Icecast's burst. */
  steadyBytes: number;
  steadyMs: number;
  error?: string;
}

/** One listener: connects, sends the request, reads for `readMs`, and counts what arrives. */
function listen(host: string, port: number, request: Buffer, readMs: number): Promise<ListenerResult> {
  return new Promise<ListenerResult>((resolve) => {
    const start = performance.now();
    const r: ListenerResult = { status: 0, ttfbMs: -1, bytes: 0, steadyBytes: 0, steadyMs: 0 };
    let head = '';
    let inBody = false;
    let steadyFrom = -1;
    /** The body bytes in a chunk: none until the response head has ended. */
    const bodyOf = (chunk: Buffer): Buffer | undefined => {
      if (inBody) return chunk;
      head += chunk.toString('latin1');
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return undefined;
      r.status = Number(head.slice(9, 12));
      inBody = true;
      return chunk.subarray(chunk.length - (head.length - end - 4));
    };
    const socket = connect({ host, port });
    socket.on('connect', () => socket.write(request));
    socket.on('data', (chunk: Buffer) => {
      const now = performance.now();
      if (r.ttfbMs < 0) r.ttfbMs = now - start;
      const body = bodyOf(chunk);
      if (!body) return;
      r.bytes += body.length;
      if (now - start < 5_000) return;
      if (steadyFrom < 0) steadyFrom = now;
      else r.steadyBytes += body.length;
      r.steadyMs = now - steadyFrom;
    });
    const timer = setTimeout(() => socket.destroy(), readMs);
    socket.on('error', (e) => (r.error = e.message));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(r);
    });
  });
}

async function runClient(spec: string): Promise<void> {
  const { host, port, path, count, rampMs, readMs } = JSON.parse(spec) as {
    host: string;
    port: number;
    path: string;
    count: number;
    rampMs: number;
    readMs: number;
  };
  const request = Buffer.from(
    `GET ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nUser-Agent: bench-stream\r\nAccept: */*\r\n\r\n`,
  );
  const results: Promise<ListenerResult>[] = [];
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const due = t0 + (i * rampMs) / count;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    results.push(listen(host, port, request, readMs));
  }
  process.stdout.write(JSON.stringify(await Promise.all(results)));
}

/** Established TCP connections whose local port is `port` (IPv4, /proc/net/tcp): the server's side of each client. */
function establishedTo(port: number): number {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => {
      const fields = line.trim().split(/\s+/);
      return fields[1]?.endsWith(hexPort) && fields[3] === '01';
    }).length;
}

// ---------------------------------------------------------------------------
// Servers under test

interface Target {
  name: string;
  port: number;
  path: string;
  /** PIDs whose RSS and CPU are the server's (nginx: its worker). */
  pids(): number[];
  stop(): Promise<void>;
}

async function startProxy(ice: Icecast, variant = ''): Promise<Target> {
  const flags = variant === 'none' ? [] : variant.split(/\s+/).filter(Boolean);
  const app: AppProcess = await startApp(
    {
      LOG_LEVEL: 'warn',
      STREAM_UPSTREAM_HOST: '127.0.0.1',
      STREAM_PORT_MAP: `8076:${ice.port}`,
      STREAM_MAX_LISTENERS: '5000',
      STREAM_MAX_LISTENERS_PER_CLIENT: '5000',
    },
    { args: variant ? [...flags, 'dist/server/main.js'] : shippedServerArgs() },
  );
  return {
    name: variant ? 'proxy*' : 'proxy',
    port: app.port,
    path: '/api/stream?port=8076',
    pids: () => [app.child.pid!],
    stop: async () => void (await app.stop()),
  };
}

async function startNginx(ice: Icecast): Promise<Target> {
  const nginx = await startNginxSite({
    workerConnections: 8192,
    accessLog: false,
    site: (port) => `
    server {
      listen 127.0.0.1:${port};
      location = /api/stream {
        proxy_pass http://127.0.0.1:${ice.port}/stream;
        proxy_buffering off;
        proxy_http_version 1.1;
        proxy_read_timeout 15s;
      }
    }`,
  });
  return {
    name: 'nginx',
    port: nginx.port,
    path: '/api/stream?port=8076',
    pids: () => childPids(nginx.child.pid!),
    stop: () => nginx.stop(),
  };
}

// ---------------------------------------------------------------------------
// One run: N listeners against one freshly started server

interface RunResult {
  server: string;
  count: number;
  ok: number;
  errors: number;
  bytesAvg: number;
  steadyRatio: number;
  steadyRatioMin: number;
  ttfbP50: number;
  ttfbP95: number;
  ttfbMax: number;
  rssBaseKiB: number;
  rssPerListenerKiB: number;
  cpuPct: number;
  icecastListeners: number;
}

async function run(
  ice: Icecast,
  start: (ice: Icecast) => Promise<Target>,
  count: number,
  seconds: number,
  rampS: number,
  bytesPerSecond: number,
): Promise<RunResult> {
  await ice.waitForListeners(0, '/stream', 20_000);
  const target = await start(ice);
  try {
    // Warm the server with one short listener, then take the idle baseline.
    const warm = connect({ host: '127.0.0.1', port: target.port }, () =>
      warm.write(`GET ${target.path} HTTP/1.1\r\nHost: x\r\n\r\n`),
    );
    warm.on('error', () => {});
    await sleep(1_000);
    warm.destroy();
    await ice.waitForListeners(0, '/stream', 10_000);
    await sleep(1_000);
    const pids = target.pids();
    const rssBase = pids.reduce((n, p) => n + rssKb(p), 0);

    const spec = JSON.stringify({
      host: '127.0.0.1',
      port: target.port,
      path: target.path,
      count,
      rampMs: rampS * 1000,
      readMs: seconds * 1000,
    });
    const client = spawn(process.execPath, [new URL(import.meta.url).pathname, '--client', spec], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    client.stdout.on('data', (c: Buffer) => (out += c));
    const clientDone = new Promise<void>((r) => client.once('exit', () => r()));

    // Steady window: from 3 s after the ramp ends (bursts delivered) to 2 s before reads stop.
    const runStart = performance.now();
    await sleep((rampS + 3) * 1000);
    const cpu0 = pids.reduce((n, p) => n + cpuMs(p) / 1000, 0);
    const t0 = performance.now();
    /**
     * RSS growth per listener connected at that moment: the established connections to the server's
     * port, counted by the kernel the same way for every server (our proxy shares one Icecast
     * connection among its listeners, so Icecast's count is not the listeners').
     */
    const perListener: number[] = [];
    let icecastListeners = 0;
    while (performance.now() - runStart < (seconds - 2) * 1000) {
      const rss = pids.reduce((n, p) => n + rssKb(p), 0);
      const listening = establishedTo(target.port);
      icecastListeners = Math.max(icecastListeners, await ice.listeners().catch(() => 0));
      if (listening > 0) perListener.push((rss - rssBase) / listening);
      await sleep(500);
    }
    const cpu1 = pids.reduce((n, p) => n + cpuMs(p) / 1000, 0);
    const cpuPct = ((cpu1 - cpu0) / ((performance.now() - t0) / 1000)) * 100;
    await clientDone;

    const results = JSON.parse(out) as ListenerResult[];
    const ok = results.filter((r) => r.status === 200 && r.bytes > 0);
    const ratios = ok
      .filter((r) => r.steadyMs > 1_000)
      .map((r) => r.steadyBytes / (r.steadyMs / 1000) / bytesPerSecond);

    return {
      server: target.name,
      count,
      ok: ok.length,
      errors: results.length - ok.length,
      bytesAvg: ok.reduce((n, r) => n + r.bytes, 0) / Math.max(1, ok.length),
      steadyRatio: ratios.reduce((a, b) => a + b, 0) / Math.max(1, ratios.length),
      steadyRatioMin: Math.min(...ratios),
      ttfbP50: percentile(
        ok.map((r) => r.ttfbMs),
        50,
      ),
      ttfbP95: percentile(
        ok.map((r) => r.ttfbMs),
        95,
      ),
      ttfbMax: Math.max(...ok.map((r) => r.ttfbMs)),
      rssBaseKiB: rssBase,
      rssPerListenerKiB: median(perListener.slice(Math.floor(perListener.length / 2))),
      cpuPct,
      icecastListeners,
    };
  } finally {
    await target.stop();
  }
}

// ---------------------------------------------------------------------------

/** The parts about titles and the push, before the listener runs (each skipped with 0). */
async function runRadioParts(ice: Icecast, bytesPerSecond: number): Promise<void> {
  const titleReps = Number(args['title-reps']);
  if (titleReps > 0) printTitleLatency(await benchTitleLatency(ice, titleReps), bytesPerSecond);
  const pushCount = Number(args.push);
  if (pushCount > 0) {
    printPush(await benchPush(ice, pushCount, Number(args['push-changes'])));
  }
}

/** The median of each figure over the changes, and each change's CPU and last client. */
function describeDeliveries(name: string, ds: Delivery[]): string {
  const f = (ms: number) => ms.toFixed(0);
  const m = (pick: (d: Delivery) => number) => median(ds.map(pick));
  const clients = ds[0]?.timing.clients ?? 0;
  const cpu = m((d) => d.timing.writeCpuMs);
  return (
    `    ${name}: ${clients} clients in ${m((d) => d.timing.turns)} turn(s); medians of ${ds.length} changes: ` +
    `${f(m((d) => d.timing.writeMs))} ms wall, ${f(cpu)} ms CPU on the main thread ` +
    `(user ${f(m((d) => d.timing.userMs))}, system ${f(m((d) => d.timing.systemMs))}; ${((cpu * 1000) / Math.max(1, clients)).toFixed(1)} µs per client; ` +
    `the whole process ${f(m((d) => d.timing.processCpuMs))}); ` +
    `read by all ${m((d) => d.got)}, the first after ${f(m((d) => d.firstMs))} ms, the last after ${f(m((d) => d.lastMs))} ms ` +
    `(client process ${f(m((d) => d.clientReadCpuMs))} ms CPU reading)\n` +
    `      each change, CPU / last client ms: ${ds.map((d) => `${f(d.timing.writeCpuMs)} / ${f(d.lastMs)}`).join(', ')}`
  );
}

function printPush(p: PushResult): void {
  const { ours, floor } = p;
  const ratio = (pick: (d: Delivery) => number) => `${(median(ours.map(pick)) / median(floor.map(pick))).toFixed(2)}×`;
  console.log(
    `  push: ${p.clients} clients; RSS ${p.rssPerClientKiB.toFixed(1)} KiB/client (goal 16); ` +
      `server began writing a change ${median(p.learntMs).toFixed(0)} ms (median) after Icecast's admin update\n` +
      `  push fan-out (goal 100 ms; servers on CPU 0, clients on CPU 1; times from the first write):\n` +
      `${describeDeliveries('ours  (the app as shipped)', ours)}\n` +
      `${describeDeliveries('floor (plain sockets, one loop)', floor)}\n` +
      `    ours ÷ floor (medians): main-thread CPU ${ratio((d) => d.timing.writeCpuMs)}, ` +
      `wall ${ratio((d) => d.timing.writeMs)}, to the last client ${ratio((d) => d.lastMs)}`,
  );
}

function printTitleLatency(t: TitleLatency, bytesPerSecond: number): void {
  const summary = (ms: number[]) =>
    `median ${ms.length ? median(ms).toFixed(0) : '-'} ms (${ms.map((x) => x.toFixed(0)).join(', ')})`;
  console.log(
    `  title change learnt after Icecast's admin update, ${t.status.length} times: status page (read back to back) ${summary(t.status)}; ` +
      `ICY metadata (every ${t.metaint} B = ${((t.metaint / bytesPerSecond) * 1000).toFixed(0)} ms of audio) ${summary(t.icy)}`,
  );
}

/** The run's settings from the command line, refused when they cannot give a figure. */
function runSettings() {
  // --counts 0: the push part only.
  const counts = args
    .counts!.split(',')
    .map(Number)
    .filter((n) => n > 0);
  const seconds = Number(args.seconds);
  const rampS = Number(args.ramp);
  // RSS is sampled from ramp + 3 s until 2 s before the end: a shorter run would sample nothing.
  if (counts.length > 0 && seconds <= rampS + 5)
    throw new Error(`--seconds must be more than --ramp + 5 (${rampS + 5})`);
  const kbps = Number(args.kbps);
  return { counts, seconds, rampS, kbps, bytesPerSecond: (kbps * 1000) / 8 };
}

/** nginx on the PATH, and a build to run. */
function ensureToolsAndBuild(): void {
  for (const bin of ['nginx']) execFileSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' });
  if (!existsSync(join(ROOT, 'dist/server/main.js')))
    execFileSync(process.execPath, [join(ROOT, 'scripts/build.ts')], { stdio: 'inherit' });
}

/** A server to measure: its name, and how to start it fresh against Icecast. */
interface Server {
  name: string;
  start: (ice: Icecast) => Promise<Target>;
}

/** Each run's figures as a table, listener counts in turn, with each proxy's ratios to nginx's. */
function printRuns(rows: RunResult[], variant: string): void {
  const f = (n: number, d = 0) => n.toFixed(d);
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}x` : '-');
  console.log(
    `\nproxy = as shipped (node ${shippedServerArgs().join(' ')}); proxy* = node flags '${variant || '(skipped)'}' instead; nginx = proxy_pass, proxy_buffering off, 1 worker`,
  );
  const header = ['listeners', 'server', 'ok', 'KiB/listener', 'steady (min)', 'TTFB p50/p95/max ms'];
  const rssHeader = ['RSS KiB/listener', 'CPU %', 'idle RSS MiB', 'RSS, CPU, TTFB p50 ÷ nginx'];
  const cells = rows.map((r) => {
    const nginx = rows.find((x) => x.count === r.count && x.server === 'nginx');
    const vsNginx =
      nginx && r !== nginx
        ? `${ratio(r.rssPerListenerKiB, nginx.rssPerListenerKiB)}, ${ratio(r.cpuPct, nginx.cpuPct)}, ${ratio(r.ttfbP50, nginx.ttfbP50)}`
        : '';
    return [
      r.count,
      r.server,
      `${r.ok}/${r.count}`,
      f(r.bytesAvg / 1024),
      `${f(r.steadyRatio, 3)}x (${f(r.steadyRatioMin, 3)}x)`,
      `${f(r.ttfbP50)}/${f(r.ttfbP95)}/${f(r.ttfbMax)}`,
      f(r.rssPerListenerKiB, 1),
      f(r.cpuPct),
      f(r.rssBaseKiB / 1024, 1),
      vsNginx,
    ];
  });
  console.log(table([...header, ...rssHeader], cells));
}

async function runListeners(ice: Icecast, servers: Server[], settings: ReturnType<typeof runSettings>) {
  const { counts, seconds, rampS, bytesPerSecond } = settings;
  // Listener counts in turn, every server fresh for each (interleaved, so they share the machine's phases).
  const runs = await interleave(counts.length, servers, async ({ start }, round) => {
    const count = counts[round - 1]!;
    const r = await run(ice, start, count, seconds, rampS, bytesPerSecond);
    console.log(
      `  ${String(count).padStart(5)} ${r.server.padEnd(6)}  ok ${r.ok}/${count}  ${(r.bytesAvg / 1024).toFixed(0)} KiB/listener  ` +
        `steady ${r.steadyRatio.toFixed(3)}x (min ${r.steadyRatioMin.toFixed(3)})  ttfb p50 ${r.ttfbP50.toFixed(0)} ms p95 ${r.ttfbP95.toFixed(0)} ms  ` +
        `rss ${r.rssPerListenerKiB.toFixed(1)} KiB/listener  cpu ${r.cpuPct.toFixed(0)}%  (icecast saw ${r.icecastListeners})`,
    );
    return r;
  });
  return counts.flatMap((_, i) => servers.map((server) => runs.get(server.name)![i]!));
}

/** The rewind window's listeners through nginx, printed beside as many live listeners through the app. */
async function runWindow(cleanup: Cleanup, ice: Icecast, rows: RunResult[], seconds: number): Promise<void> {
  const count = Number(args.window);
  if (!(count > 0)) return;
  const window = await benchWindow(cleanup, ice, count, seconds);
  console.log(`\n${describeWindow(window, seconds)}`);
  const live = rows.find((r) => r.server === 'proxy' && r.count === count);
  console.log(
    live
      ? `  live: ${count} listeners through the app (/api/stream): app CPU ${live.cpuPct.toFixed(1)}%, RSS ${live.rssPerListenerKiB.toFixed(1)} KiB per listener`
      : `  live: no run of ${count} listeners through the app (--counts), nothing to print beside it`,
  );
}

async function bench(cleanup: Cleanup): Promise<void> {
  const settings = runSettings();
  const { counts, seconds, rampS, kbps, bytesPerSecond } = settings;
  ensureToolsAndBuild();
  console.log(
    `bench:stream: ${counts.join(', ')} listeners, ramp ${rampS} s, ${seconds} s each, ${kbps} kbps MP3 from Icecast 2 + ezstream; load average ${loadAverage()}`,
  );
  const ice = cleanup.add(await startIcecast({ clients: Math.max(0, ...counts) * 2 + 200 }), (i) => i.stop());
  // A 10-minute file: ezstream sets its own title again each time the file loops, which could
  // overwrite the benches' title changes before anything read them.
  cleanup.add(await startEzstream(ice, { file: makeTestMp3(kbps, 600) }), (source) => source.stop());
  const variant = args.variant ?? '';
  const servers: Server[] = [
    { name: 'proxy', start: (i) => startProxy(i) },
    ...(variant ? [{ name: 'proxy*', start: (i: Icecast) => startProxy(i, variant) }] : []),
    { name: 'nginx', start: startNginx },
  ];
  await runRadioParts(ice, bytesPerSecond);
  const heardChanges = Number(args['heard-changes']);
  if (heardChanges > 0) console.log(describeHeardTitle(await benchHeardTitle(cleanup, heardChanges)));
  const rows = await runListeners(ice, servers, settings);
  if (rows.length > 0) printRuns(rows, variant);
  await runWindow(cleanup, ice, rows, seconds);
  console.log(
    `\nreal-time rate: ${bytesPerSecond} B/s; each listener also gets Icecast's ~64 KiB burst first. Target: RSS per listener at most 2x nginx's. Load average at the end ${loadAverage()}`,
  );
}

if (args.client) await runClient(args.client);
else await withCleanup(bench);

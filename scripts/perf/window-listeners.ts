/**
 * `npm run bench:stream`'s rewind part: N listeners of the rewind window through the shipped
 * deploy/nginx.conf (TLS, its REWIND_DIR swapped in) in front of the app recording the same
 * Icecast, each behaving as an HLS player 30 s behind live: the playlist, then the segments from
 * there, then every segment duration the playlist again and the next segment. Printed: requests
 * and bytes served, errors, nginx's CPU, the app's CPU against its own while recording with no
 * listener, and how many of those requests reached the app (its rewind lane's answers, from
 * /metrics). The same N live listeners through the app are bench-stream.ts's own rows.
 * The listeners run in a child process (this file with --client), so their work is not counted.
 */
import { spawn } from 'node:child_process';
import { request, Agent } from 'node:https';
import { parseArgs } from 'node:util';
import { parsePlaylist } from '../../src/server/rewind/window.ts';
import { type AppProcess, freePort, startApp } from '../../test/support/app-process.ts';
import type { Icecast } from '../../test/support/icecast.ts';
import { startNginx } from '../../test/support/nginx.ts';
import { sleep } from '../../test/support/wait.ts';
import { type Cleanup, childPids, cpuMs, tempDir } from './harness.ts';

const PORT = 8076;
const PLAYLIST = `/api/rewind/${PORT}/playlist.m3u8`;

interface ClientSpec {
  origin: string;
  ca: string;
  count: number;
  rampMs: number;
  readMs: number;
  segmentS: number;
}

interface ClientTotals {
  requests: number;
  bytes: number;
  errors: number;
}

function fetchOnce(spec: ClientSpec, agent: Agent, path: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = request(`${spec.origin}${path}`, { agent, ca: spec.ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${res.statusCode}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** One player 30 s behind live, on its own kept-alive TLS connection. */
async function player(spec: ClientSpec, totals: ClientTotals, until: number): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = async (path: string) => {
    try {
      const body = await fetchOnce(spec, agent, path);
      totals.requests += 1;
      totals.bytes += body.length;
      return body;
    } catch {
      totals.errors += 1;
      return null;
    }
  };
  const behind = Math.ceil(30 / spec.segmentS);
  let next: string | null = null;
  while (Date.now() < until) {
    const playlist = await get(PLAYLIST);
    const names = playlist ? parsePlaylist(playlist.toString()).segments.map((s) => s.name) : [];
    // The first time: three segments from 30 s behind live (a player's buffer); then the next one.
    const from = next === null ? Math.max(0, names.length - behind) : names.indexOf(next);
    const take = names.slice(Math.max(0, from), Math.max(0, from) + (next === null ? 3 : 1));
    for (const name of take) await get(`/api/rewind/${PORT}/${name}`);
    next = names[names.indexOf(take.at(-1) ?? '') + 1] ?? take.at(-1) ?? null;
    await sleep(spec.segmentS * 1000);
  }
  agent.destroy();
}

async function runClient(spec: ClientSpec): Promise<void> {
  const totals: ClientTotals = { requests: 0, bytes: 0, errors: 0 };
  const until = Date.now() + spec.readMs;
  const players: Promise<void>[] = [];
  for (let i = 0; i < spec.count; i++) {
    players.push(player(spec, totals, until));
    await sleep(spec.rampMs / spec.count);
  }
  await Promise.all(players);
  process.stdout.write(JSON.stringify(totals));
}

export interface WindowResult {
  listeners: number;
  totals: ClientTotals;
  nginxCpuPct: number;
  appCpuPct: number;
  appIdleCpuPct: number;
  appRequests: number;
}

const cpuOf = (pids: number[]) => pids.reduce((n, p) => n + cpuMs(p), 0);

/** The app's CPU % over `ms` (while recording, with or without listeners). */
async function cpuPctOver(pids: () => number[], ms: number): Promise<number> {
  const before = cpuOf(pids());
  await sleep(ms);
  return ((cpuOf(pids()) - before) / ms) * 100;
}

async function rewindAnswers(metricsPort: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return text
    .split('\n')
    .filter((l) => l.startsWith('http_requests_total{lane="rewind"'))
    .reduce((n, l) => n + Number(l.split(' ').at(-1)), 0);
}

/** The app recording `ice`, nginx in front; resolves once the window holds 30 s behind live. */
async function startWindow(cleanup: Cleanup, ice: Icecast, segmentS: number) {
  const dir = tempDir(cleanup, 'bench-rewind-');
  const metricsPort = String(await freePort());
  const env = {
    LOG_LEVEL: 'warn',
    STREAM_UPSTREAM_HOST: '127.0.0.1',
    STREAM_PORT_MAP: `${PORT}:${ice.port}`,
    REWIND: 'on',
    REWIND_DIR: dir,
    REWIND_SEGMENT_S: String(segmentS),
    METRICS_PORT: metricsPort,
  };
  const app: AppProcess = cleanup.add(await startApp(env, { name: 'recorder' }), (a) => a.stop());
  const nginx = cleanup.add(await startNginx({ upstreams: [app.port], rewindDir: dir, accessLog: false }), (n) =>
    n.stop(),
  );
  const wanted = Math.ceil(30 / segmentS) + 1;
  for (;;) {
    const res = await fetch(`${app.url}${PLAYLIST}`);
    if (res.ok && parsePlaylist(await res.text()).segments.length >= wanted) break;
    await sleep(1_000);
  }
  return { app, nginx, metricsPort };
}

/** N window listeners for `seconds` through nginx; the app's CPU measured as long with none first. */
export async function benchWindow(
  cleanup: Cleanup,
  ice: Icecast,
  count: number,
  seconds: number,
): Promise<WindowResult> {
  const segmentS = 6;
  const { app, nginx, metricsPort } = await startWindow(cleanup, ice, segmentS);
  const appIdleCpuPct = await cpuPctOver(() => [app.pid], seconds * 1000);
  const answersBefore = await rewindAnswers(metricsPort);
  const rampMs = 2_000;
  const spec: ClientSpec = {
    origin: nginx.httpsUrl,
    ca: nginx.certificate.cert,
    count,
    rampMs,
    readMs: seconds * 1000,
    segmentS,
  };
  const nginxPids = () => childPids(nginx.child.pid!);
  // CPU over the whole run, the ramp included (each player's first three segments come then).
  const cpu0 = { app: cpuOf([app.pid]), nginx: cpuOf(nginxPids()), at: performance.now() };
  const client = spawn(process.execPath, [new URL(import.meta.url).pathname, '--client', JSON.stringify(spec)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  client.stdout.on('data', (c: Buffer) => (out += c));
  await new Promise<void>((resolve) => client.once('exit', () => resolve()));
  const ms = performance.now() - cpu0.at;
  return {
    listeners: count,
    totals: JSON.parse(out) as ClientTotals,
    nginxCpuPct: ((cpuOf(nginxPids()) - cpu0.nginx) / ms) * 100,
    appCpuPct: ((cpuOf([app.pid]) - cpu0.app) / ms) * 100,
    appIdleCpuPct,
    appRequests: (await rewindAnswers(metricsPort)) - answersBefore,
  };
}

export function describeWindow(r: WindowResult, seconds: number): string {
  const f = (n: number) => n.toFixed(1);
  return (
    `  rewind window: ${r.listeners} listeners through nginx (TLS, 6 s segments, 30 s behind live, ${seconds} s, ramp 2 s; CPU over it all): ` +
    `${r.totals.requests} requests (${(r.totals.requests / seconds).toFixed(0)}/s), ${(r.totals.bytes / 1024 / 1024).toFixed(1)} MiB, ${r.totals.errors} errors; ` +
    `nginx CPU ${f(r.nginxCpuPct)}%; app CPU ${f(r.appCpuPct)}% (${f(r.appIdleCpuPct)}% recording with no listener); ` +
    `requests that reached the app: ${r.appRequests}`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { client: { type: 'string' } } });
  if (values.client) await runClient(JSON.parse(values.client) as ClientSpec);
}

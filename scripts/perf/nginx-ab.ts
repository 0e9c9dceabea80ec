/**
 * nginx's page cache against gzip_static, for variants of deploy/nginx.conf's `location /`: each
 * variant is an nginx of its own in front of one app, serving the cached home page (`/`) and its
 * peer (the same bytes and header lines from gzip_static, scripts/perf/nginx-tls-static.ts) over
 * TLS. The variants and the two locations take turns in short wrk rounds (order reversed every
 * round), nginx on CPU 0, wrk on CPU 1. Printed per variant: the median over rounds of cache ÷
 * static by req/s and by the workers' CPU per request (the steadier figure on a shared machine).
 *
 *   node scripts/perf/nginx-ab.ts ROUNDS NAME=DIRECTIVES ...
 *     DIRECTIVES: directives for `location /`, ';'-separated, each replacing the shipped directive
 *     of the same name; "shipped" for the file as it is
 *   e.g. node scripts/perf/nginx-ab.ts 8 shipped=shipped "no-fd-cache=open_file_cache off"
 *
 * NGINX_AB_SECONDS (default 3) sets a round's length per location.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppProcess, cpuMs, startApp } from '../../test/support/app-process.ts';
import { type DeployNginx, startNginx } from '../../test/support/nginx.ts';
import { median } from '../../test/support/stats.ts';
import { untilCached } from '../../test/support/http.ts';
import { fetchBytes } from './fetch-bytes.ts';
import { warmNginxCache, withTlsStatic } from './nginx-tls-static.ts';
import { requireWrk, runWrk } from './wrk.ts';

const SECONDS = Number(process.env.NGINX_AB_SECONDS ?? 3);
/** As `npm run bench`'s TLS targets: limit_conn allows one client 32; gzip is what gzip_static holds. */
const CONNECTIONS = 32;
const ACCEPT = 'gzip';

interface Variant {
  name: string;
  edit: (source: string) => string;
  nginx?: DeployNginx;
}

/** `NAME=DIRECTIVES`: the shipped directives of those names removed, these put after `proxy_cache`. */
function parseVariant(spec: string): Variant {
  const eq = spec.indexOf('=');
  if (eq < 1) throw new Error(`expected NAME=DIRECTIVES, got "${spec}"`);
  const name = spec.slice(0, eq);
  const body = spec.slice(eq + 1);
  if (body === 'shipped') return { name, edit: (source) => source };
  const directives = body
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);
  return {
    name,
    edit(source) {
      let out = source;
      for (const d of directives) out = out.replace(new RegExp(`^\\s*${d.split(/\s/)[0]}\\s[^;]*;\\n`, 'gm'), '');
      const anchor = /^(\s*)proxy_cache news_pages;$/m;
      if (!anchor.test(out)) throw new Error('deploy/nginx.conf: expected "proxy_cache news_pages;"');
      return out.replace(anchor, (line, indent: string) =>
        [line, ...directives.map((d) => `${indent}${d};`)].join('\n'),
      );
    },
  };
}

/** The app's cached home page in gzip, as gzip_static's file, and its header lines. */
async function homePage(app: AppProcess, dir: string): Promise<Array<[string, string]>> {
  const page = await untilCached(
    () => fetchBytes(`${app.url}/`, ACCEPT),
    (r) => r.etag,
  );
  const www = join(dir, 'www', 'static');
  mkdirSync(www, { recursive: true, mode: 0o755 });
  for (const d of [dir, join(dir, 'www')]) chmodSync(d, 0o755);
  writeFileSync(join(www, 'index.html.gz'), page.body, { mode: 0o644 });
  return page.headers;
}

/** One location's wrk round: req/s and the nginx workers' CPU per request (µs). */
async function measure(nginx: DeployNginx, path: string): Promise<{ rps: number; cpuUs: number }> {
  const before = cpuMs(nginx.child.pid!);
  const r = await runWrk({
    url: `${nginx.httpsUrl}${path}`,
    connections: CONNECTIONS,
    durationS: SECONDS,
    cpu: 1,
    headers: { 'Accept-Encoding': ACCEPT },
  });
  const failed = r.non2xx3xx + r.errors.connect + r.errors.read + r.errors.write + r.errors.timeout;
  if (failed > 0) throw new Error(`${path}: ${failed} failed requests`);
  return { rps: r.rps, cpuUs: ((cpuMs(nginx.child.pid!) - before) * 1000) / r.requests };
}

async function run(rounds: number, variants: Variant[], dir: string): Promise<void> {
  const ratios = new Map(variants.map((v) => [v.name, { rps: [] as number[], cpu: [] as number[] }]));
  for (let round = 0; round < rounds; round++) {
    for (const v of round % 2 ? [...variants].reverse() : variants) {
      const paths = round % 2 ? ['/static/index.html', '/'] : ['/', '/static/index.html'];
      const got = new Map<string, { rps: number; cpuUs: number }>();
      for (const path of paths) got.set(path, await measure(v.nginx!, path));
      const [cache, stat] = [got.get('/')!, got.get('/static/index.html')!];
      ratios.get(v.name)!.rps.push(cache.rps / stat.rps);
      ratios.get(v.name)!.cpu.push(stat.cpuUs / cache.cpuUs);
      console.log(
        `round ${round + 1} ${v.name}: cache ${Math.round(cache.rps)} req/s ${cache.cpuUs.toFixed(1)} µs, ` +
          `static ${Math.round(stat.rps)} req/s ${stat.cpuUs.toFixed(1)} µs (load ${loadavg()[0]!.toFixed(1)})`,
      );
    }
  }
  console.log(`\ncache ÷ static, median of ${rounds} rounds (${dir}):`);
  for (const [name, r] of ratios)
    console.log(`  ${name}: by req/s ${median(r.rps).toFixed(3)}, by CPU per request ${median(r.cpu).toFixed(3)}`);
}

async function main(): Promise<void> {
  const [roundsArg, ...specs] = process.argv.slice(2);
  const rounds = Number(roundsArg);
  if (!Number.isInteger(rounds) || rounds < 1 || specs.length === 0)
    throw new Error('usage: node scripts/perf/nginx-ab.ts ROUNDS NAME=DIRECTIVES ...');
  requireWrk();
  const variants = specs.map(parseVariant);
  const dir = mkdtempSync(join(tmpdir(), 'nginx-ab-'));
  const app = await startApp({}, { name: 'app', cpu: 0, logFile: join(dir, 'app.log'), logReaderCpu: 1 });
  try {
    const headers = await homePage(app, dir);
    for (const v of variants) {
      const peer = withTlsStatic(dir, headers);
      v.nginx = await startNginx({ upstreams: [app.port], accessLog: false, cpu: 0, edit: (s) => peer(v.edit(s)) });
      await warmNginxCache(v.nginx, ACCEPT);
    }
    await run(rounds, variants, dir);
  } finally {
    for (const v of variants) await v.nginx?.stop();
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

/**
 * The servers `npm run bench` measures, started, warmed and listed as wrk targets in the order
 * they are measured: the app in its variants, the previous commit's build, the bare Node peer and
 * nginx (static, gzip, and the shipped HTTPS server with its page cache and its static peer).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AppProcess, freePort, shippedServerArgs } from '../../test/support/app-process.ts';
import { untilCached } from '../../test/support/http.ts';
import { type DeployNginx, startNginx } from '../../test/support/nginx.ts';
import { fetchBytes } from './fetch-bytes.ts';
import { type Cleanup, SERVER_CPU, startServer } from './harness.ts';
import { warmNginxCache, withTlsStatic } from './nginx-tls-static.ts';
import { buildPrevious } from './previous-build.ts';

export const CONNECTIONS = 64;
export const ACCEPT = 'gzip, br';
export const GZIP_LEVEL = 6;
/** The nginx-over-TLS targets: limit_conn in deploy/nginx.conf allows one client 32. */
const TLS_CONNECTIONS = 32;
const TLS_ACCEPT = 'gzip';

export interface Target {
  name: string;
  url: string;
  pid: number;
  /** wrk's connections and Accept-Encoding when not CONNECTIONS and ACCEPT. */
  connections?: number;
  accept?: string;
  /** The certificate to trust (nginx's self-signed one, for https://). */
  ca?: string;
}

/** Targets a site's traffic asks for besides cached pages: a file, a 404 page, robots.txt, a refused stream port. */
const OTHER_LANES = ['/sw.js', '/favicon.ico', '/no-such-page', '/robots.txt', '/api/stream?port=1'] as const;

/** Answers from the other lanes first, as a running site has given them (they shape what V8 compiles). */
async function otherLanes(server: { url: string }, times = 20): Promise<void> {
  for (let i = 0; i < times; i++)
    for (const path of OTHER_LANES) await fetch(`${server.url}${path}`).then((r) => r.arrayBuffer());
}

/** The home page in a server's page cache: asked for until the cached copy (it has an ETag) answers. */
async function untilHomeCached(server: AppProcess) {
  const cached = await untilCached(
    () => fetchBytes(`${server.url}/`, ACCEPT),
    (r) => r.etag,
  );
  if (cached.status !== 200 || !cached.etag) throw new Error(`${server.name}: home page not cached (${cached.status})`);
}

/** The home page as the app caches it, in each encoding. */
async function cachedHomePage(app: AppProcess) {
  await untilHomeCached(app);
  const html = (await fetchBytes(`${app.url}/`, 'identity')).body;
  const gzip = await fetchBytes(`${app.url}/`, 'gzip');
  const br = await fetchBytes(`${app.url}/`, 'br');
  return { html, gz: gzip.body, gzipHeaders: gzip.headers, br };
}

export type HomePage = Awaited<ReturnType<typeof cachedHomePage>>;

/** The peer: the same brotli answer and header list from a bare Node server (bare-node.ts). */
function startBareNode(cleanup: Cleanup, dir: string, br: HomePage['br']): Promise<AppProcess> {
  writeFileSync(join(dir, 'bare-body.br'), br.body);
  writeFileSync(join(dir, 'bare-headers.json'), JSON.stringify(br.headers));
  const script = ['scripts/perf/bare-node.ts', join(dir, 'bare-body.br'), join(dir, 'bare-headers.json')];
  return startServer(cleanup, dir, 'node bare', {}, [...shippedServerArgs().slice(0, -1), ...script]);
}

/** nginx gets the very same bytes: the HTML, and the app's gzip copy for gzip_static. */
async function startNginxPeers(cleanup: Cleanup, dir: string, home: HomePage, appPort: number): Promise<DeployNginx> {
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
  return cleanup.add(nginx, (n) => n.stop());
}

/** The apps: as shipped, the previous commit's build, without log, uncached, with metrics. */
async function startApps(cleanup: Cleanup, dir: string) {
  const previousBuild = cleanup.add(buildPrevious(), (b) => b.remove());
  const app = await startServer(cleanup, dir, 'app');
  const previous = await startServer(
    cleanup,
    dir,
    'app previous',
    { DIST_DIR: previousBuild.dist },
    previousBuild.args,
  );
  const quiet = await startServer(cleanup, dir, 'app no log', { LOG_LEVEL: 'silent' });
  const uncached = await startServer(cleanup, dir, 'app uncached', { PAGE_CACHE: 'off' });
  const metrics = await startServer(cleanup, dir, 'app metrics', { METRICS_PORT: String(await freePort()) });
  for (const server of [previous, quiet, metrics]) await untilHomeCached(server);
  // Each app answers what a running site's other lanes do before its cached pages are measured.
  for (const server of [app, previous, quiet, metrics]) await otherLanes(server);
  const label = `${previousBuild.commit} (${previousBuild.rev})`;
  return { app, previous, quiet, uncached, metrics, label };
}

/** Every server, started and warmed, as the targets in the order they are measured. */
export async function startTargets(cleanup: Cleanup, dir: string) {
  const { app, previous, quiet, uncached, metrics, label } = await startApps(cleanup, dir);
  const home = await cachedHomePage(app);
  const bare = await startBareNode(cleanup, dir, home.br);
  const nginx = await startNginxPeers(cleanup, dir, home, app.port);
  await warmNginxCache(nginx, TLS_ACCEPT);
  const nginxPid = nginx.child.pid!;
  const tls = { connections: TLS_CONNECTIONS, accept: TLS_ACCEPT, pid: nginxPid, ca: nginx.certificate.cert };
  const targets: Target[] = [
    { name: 'app', url: `${app.url}/`, pid: app.pid },
    { name: 'app previous', url: `${previous.url}/`, pid: previous.pid },
    { name: 'nginx static', url: `${nginx.url}/static/index.html`, pid: nginxPid },
    { name: 'node bare', url: `${bare.url}/`, pid: bare.pid },
    { name: 'app no log', url: `${quiet.url}/`, pid: quiet.pid },
    { name: 'nginx gzip', url: `${nginx.url}/dynamic/index.html`, pid: nginxPid },
    { name: 'app uncached', url: `${uncached.url}/`, pid: uncached.pid },
    { name: 'app metrics', url: `${metrics.url}/`, pid: metrics.pid },
    { name: 'nginx cache', url: `${nginx.httpsUrl}/`, ...tls },
    { name: 'nginx tls static', url: `${nginx.httpsUrl}/static/index.html`, ...tls },
  ];
  return { servers: [app, previous, quiet, uncached], home, targets, previous: label };
}

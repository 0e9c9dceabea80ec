/**
 * Real nginx (Debian package) on loopback, for the deployment tests and the benchmark. The site
 * configuration is deploy/nginx.conf itself, with only its ports swapped, wrapped in a main
 * configuration that keeps every file nginx writes (pid, logs, temp files) in a temporary folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './app-process.ts';

export const NGINX_BIN =
  ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].find((p) => existsSync(p)) ?? null;
export const DEPLOY_CONFIG = new URL('../../deploy/nginx.conf', import.meta.url).pathname;

export interface SiteOptions {
  /** Port nginx listens on (127.0.0.1 only). */
  port: number;
  /** App process ports for the upstream block. */
  upstreams: number[];
  /** Directives added at the top of the server block (the benchmark's static locations). */
  serverExtra?: string;
}

/**
 * deploy/nginx.conf with the upstream servers and the listen address replaced. Throws if the
 * file no longer has what it replaces, so the test cannot silently run some other config.
 */
export function siteConfig(source: string, options: SiteOptions): string {
  const upstream = /(upstream\s+\w+\s*\{)([\s\S]*?)(\n\})/.exec(source);
  if (!upstream) throw new Error('deploy/nginx.conf: no upstream block');
  const [block, open = '', body = '', close = ''] = upstream;
  const serverLine = /^\s*server\s+\S+(.*);\s*$/m.exec(body);
  if (!serverLine) throw new Error('deploy/nginx.conf: the upstream block has no server line');
  const params = serverLine[1] ?? '';
  const lines = body.split('\n');
  const first = lines.findIndex((l) => /^\s*server\s/.test(l));
  const kept = lines.filter((l) => !/^\s*server\s/.test(l));
  kept.splice(first, 0, ...options.upstreams.map((p) => `    server 127.0.0.1:${p}${params};`));
  let site = source.replace(block, `${open}${kept.join('\n')}${close}`);

  if (!/^\s*listen\s+80;\s*$/m.test(site)) throw new Error('deploy/nginx.conf: expected "listen 80;"');
  site = site
    .replace(/^(\s*)listen\s+80;\s*$/m, `$1listen 127.0.0.1:${options.port};`)
    .replace(/^\s*listen\s+\[::\]:80;\s*\n/m, '');
  if (options.serverExtra) {
    if (!/^server\s*\{\s*$/m.test(site)) throw new Error('deploy/nginx.conf: no server block');
    site = site.replace(/^server\s*\{\s*$/m, `server {\n${options.serverExtra}\n`);
  }
  return site;
}

/** The main configuration around the site: foreground, files in `dir`, one worker unless told. */
export function mainConfig(dir: string, site: string, workers = 1): string {
  return `daemon off;
master_process on;
worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    access_log ${dir}/access.log combined;
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
${site}
}
`;
}

export interface NginxProcess {
  url: string;
  port: number;
  /** Temporary folder with nginx.conf, logs and temp files (removed by stop()). */
  dir: string;
  child: ChildProcess;
  /** nginx's stderr. */
  output: string[];
  errorLog(): string;
  accessLog(): string;
  stop(): Promise<void>;
}

export interface StartNginxOptions {
  upstreams: number[];
  serverExtra?: string;
  workers?: number;
  /** Pin nginx to this CPU with taskset (benchmark). */
  cpu?: number;
  /** Keep the temporary folder after stop() (debugging). */
  keep?: boolean;
}

export async function startNginx(options: StartNginxOptions): Promise<NginxProcess> {
  if (!NGINX_BIN) throw new Error('nginx is not installed (Debian package "nginx")');
  const dir = mkdtempSync(join(tmpdir(), 'news-nginx-'));
  // Workers drop root for "nobody" and must reach their temp folders (and any served files).
  chmodSync(dir, 0o755);
  const port = await freePort();
  const site = siteConfig(readFileSync(DEPLOY_CONFIG, 'utf8'), {
    port,
    upstreams: options.upstreams,
    ...(options.serverExtra !== undefined && { serverExtra: options.serverExtra }),
  });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, mainConfig(dir, site, options.workers ?? 1));

  const args = ['-p', dir, '-c', conf, '-e', join(dir, 'error.log')];
  const child =
    options.cpu !== undefined && existsSync('/usr/bin/taskset')
      ? spawn('/usr/bin/taskset', ['-c', String(options.cpu), NGINX_BIN, ...args], {
          stdio: ['ignore', 'pipe', 'pipe'],
        })
      : spawn(NGINX_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const collect = (chunk: Buffer) => output.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), 'utf8') : '');

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGQUIT'); // graceful: finish open requests
      const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(force);
    }
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 10_000;
  while (!(await listening(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const why = `${output.join('\n')}\n${read('error.log')}`;
      await stop();
      throw new Error(`nginx did not start:\n${why}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dir,
    child,
    output,
    errorLog: () => read('error.log'),
    accessLog: () => read('access.log'),
    stop,
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

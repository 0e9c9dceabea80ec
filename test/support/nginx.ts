/**
 * Real nginx (Debian package) on loopback: the one starter for the deployment tests and the
 * benchmarks. `startNginx` runs deploy/nginx.conf itself, with only its ports, certificate and
 * ACME webroot swapped (a self-signed certificate is made per start); `startNginxSite` runs a
 * site of the caller's own (the stream benchmark's bare proxy_pass). Either way the site is
 * wrapped in a main configuration that keeps every file nginx writes (pid, logs, temp files) in
 * a temporary folder, and nginx is stopped by its PID.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, onCpu } from './app-process.ts';
import { findCommand, requireCommands } from './system-deps.ts';
import { sleep } from './wait.ts';

/** nginx on PATH or in an sbin folder (Debian puts it in /usr/sbin, outside a user's PATH). */
export const NGINX_BIN = findCommand('nginx');
export const DEPLOY_CONFIG = new URL('../../deploy/nginx.conf', import.meta.url).pathname;

export interface SiteOptions {
  /** Port of the plain-HTTP server (`listen 80`), 127.0.0.1 only. */
  port: number;
  /** Port of the HTTPS server (`listen 443`), 127.0.0.1 only. */
  tlsPort: number;
  /** App process ports for the upstream block. */
  upstreams: number[];
  certFile: string;
  keyFile: string;
  /** Folder for the ACME challenge location's `root`. */
  acmeRoot: string;
  /** Folder for the page cache (`proxy_cache_path`). */
  cacheDir: string;
  /** The rewind window's folder (REWIND_DIR), served from disk (the alias of `location ^~ /api/rewind/`). */
  rewindDir: string;
  /** Directives added at the top of the plain-HTTP server block (the benchmark's static locations). */
  serverExtra?: string;
  /** The UDP port nginx sends the window's access log to (the apps' REWIND_LOG_PORT). */
  rewindLogPort: number;
}

/** Replaces what `pattern` matches, and throws if it matches nothing (so no test runs some other config). */
function swap(source: string, pattern: RegExp, replacement: string, what: string, file = 'deploy/nginx.conf'): string {
  if (!pattern.test(source)) throw new Error(`${file}: expected ${what}`);
  return source.replace(pattern, replacement);
}

/**
 * deploy/nginx.conf with the upstream servers, the listen addresses, the certificate, the ACME
 * webroot and the page cache's folder replaced. Everything else is the file as shipped.
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

  site = swap(site, /^(\s*)listen\s+80;\s*$/m, `$1listen 127.0.0.1:${options.port};`, '"listen 80;"');
  site = swap(site, /^\s*listen\s+\[::\]:80;\s*\n/m, '', '"listen [::]:80;"');
  site = swap(site, /^(\s*)listen\s+443\b([^;]*);/m, `$1listen 127.0.0.1:${options.tlsPort}$2;`, '"listen 443 ..."');
  site = swap(site, /^\s*listen\s+\[::\]:443\b[^;]*;\s*\n/m, '', '"listen [::]:443 ..."');
  site = swap(site, /^(\s*)ssl_certificate\s+\S+;/m, `$1ssl_certificate ${options.certFile};`, 'ssl_certificate');
  site = swap(
    site,
    /^(\s*)ssl_certificate_key\s+\S+;/m,
    `$1ssl_certificate_key ${options.keyFile};`,
    'ssl_certificate_key',
  );
  site = swap(
    site,
    /(location \^~ \/\.well-known\/acme-challenge\/ \{[^}]*?\n\s*root )\S+;/,
    `$1${options.acmeRoot};`,
    'a root in the ACME challenge location',
  );
  site = swap(site, /^(\s*proxy_cache_path\s+)\S+/m, `$1${options.cacheDir}`, 'proxy_cache_path');
  site = swap(
    site,
    /(location \^~ \/api\/rewind\/ \{[\s\S]*?\n\s*alias )\S+;/,
    `$1${options.rewindDir.replace(/\/?$/, '/')};`,
    'an alias in the rewind location',
  );
  site = swap(
    site,
    /(access_log syslog:server=127\.0\.0\.1:)\d+/,
    `$1${options.rewindLogPort}`,
    "the rewind location's syslog access_log",
  );
  if (options.serverExtra) {
    site = swap(site, /^server\s*\{\s*$/m, `server {\n${options.serverExtra}\n`, 'a server block');
  }
  return site;
}

export interface MainOptions {
  workers?: number;
  workerConnections?: number;
  /** Write an access log (access.log in the folder); off for the stream benchmark's figures. */
  accessLog?: boolean;
}

/** The main configuration around the site: foreground, files in `dir`, one worker unless told. */
export function mainConfig(dir: string, site: string, options: MainOptions = {}): string {
  return `daemon off;
master_process on;
worker_processes ${options.workers ?? 1};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections ${options.workerConnections ?? 4096}; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    tcp_nopush on;
    access_log ${options.accessLog === false ? 'off' : `${dir}/access.log combined`};
    client_body_temp_path ${dir}/client_body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
${site}
}
`;
}

export interface SelfSigned {
  certFile: string;
  keyFile: string;
  /** The certificate (PEM): clients pass it as their `ca` to verify nginx. */
  cert: string;
}

/**
 * A self-signed ECDSA P-256 certificate for localhost, 127.0.0.1 and news.example.com, valid two
 * days, made with the openssl command line (Debian package "openssl").
 */
export function selfSignedCertificate(dir: string): SelfSigned {
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:news.example.com',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  return { certFile, keyFile, cert: readFileSync(certFile, 'utf8') };
}

export interface NginxProcess {
  /** http://127.0.0.1:port: the plain-HTTP server (deploy site), or the caller's site. */
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

export interface DeployNginx extends NginxProcess {
  /** https://127.0.0.1:tlsPort: the HTTPS server, where the site is. */
  httpsUrl: string;
  tlsPort: number;
  certificate: SelfSigned;
  /** The ACME challenge webroot: files put under .well-known/acme-challenge/ here are served on port 80. */
  acmeRoot: string;
}

export interface LaunchOptions extends MainOptions {
  /** Pin nginx to this CPU with taskset (benchmark). */
  cpu?: number;
  /** Keep the temporary folder after stop() (debugging). */
  keep?: boolean;
}

export interface StartNginxOptions extends LaunchOptions {
  upstreams: number[];
  serverExtra?: string;
  /** Edits deploy/nginx.conf before the ports are swapped (a test that breaks the config on purpose). */
  edit?: (source: string) => string;
  /** REWIND_DIR of the apps behind it (default: an empty folder in nginx's temporary one). */
  rewindDir?: string;
  /** REWIND_LOG_PORT of the apps behind it (default: a free port nobody receives on). */
  rewindLogPort?: number;
}

/** deploy/nginx.conf in front of the given app ports, on free ports, with a fresh self-signed certificate. */
export async function startNginx(options: StartNginxOptions): Promise<DeployNginx> {
  const { dir, site, ports, deploy } = await prepareDeploySite(options);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, mainConfig(dir, site, options));
  return { ...(await launch(dir, conf, ports, options)), ...deploy };
}

/** A temporary folder, free ports, a certificate and deploy/nginx.conf with them swapped in. */
async function prepareDeploySite(options: StartNginxOptions) {
  const dir = makeDir();
  const acmeRoot = join(dir, 'acme');
  mkdirSync(acmeRoot, { mode: 0o755 });
  const certificate = selfSignedCertificate(dir);
  const port = await freePort();
  let tlsPort = await freePort();
  while (tlsPort === port) tlsPort = await freePort();
  const source = readFileSync(DEPLOY_CONFIG, 'utf8');
  const site = siteConfig(options.edit ? options.edit(source) : source, {
    port,
    tlsPort,
    upstreams: options.upstreams,
    certFile: certificate.certFile,
    keyFile: certificate.keyFile,
    acmeRoot,
    cacheDir: join(dir, 'cache'),
    rewindDir: options.rewindDir ?? join(dir, 'rewind'),
    rewindLogPort: options.rewindLogPort ?? (await freePort()),
    ...(options.serverExtra !== undefined && { serverExtra: options.serverExtra }),
  });
  const deploy = { httpsUrl: `https://127.0.0.1:${tlsPort}`, tlsPort, certificate, acmeRoot };
  return { dir, site, ports: [port, tlsPort], deploy };
}

export interface StartDebianNginxOptions {
  upstreams: number[];
  /** The operator's step on the copied main configuration file (its path), before nginx starts. */
  prepare?: (mainConf: string) => void;
}

/**
 * deploy/nginx.conf installed as deploy/README.md says, in a copy of Debian's own /etc/nginx:
 * the site in sites-available/, linked from sites-enabled/ (Debian's default site left out), and
 * Debian's nginx.conf as shipped (`worker_processes auto`, `worker_connections 768`, `user
 * www-data`, `gzip on`, ...) with only its paths moved into the temporary folder: the pid, the
 * logs and the includes. The temp folders nginx writes to are set in conf.d/ (Debian compiles in
 * /var/lib/nginx/...). nginx keeps the prefix it was built with, so the module packages' includes
 * (modules-enabled/, with or without any) load as installed. The system's own nginx, and its files,
 * are never touched.
 */
export async function startDebianNginx(options: StartDebianNginxOptions): Promise<DeployNginx> {
  const { dir, site, ports, deploy } = await prepareDeploySite(options);
  const etc = join(dir, 'etc');
  cpSync(DEBIAN_ETC, etc, { recursive: true, verbatimSymlinks: true });
  rmSync(join(etc, 'sites-enabled'), { recursive: true, force: true });
  mkdirSync(join(etc, 'sites-enabled'));
  writeFileSync(join(etc, 'sites-available', 'news.conf'), site);
  symlinkSync('../sites-available/news.conf', join(etc, 'sites-enabled', 'news.conf'));
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${dir}/${t};`);
  writeFileSync(join(etc, 'conf.d', 'temp-paths.conf'), `${temp.join('\n')}\n`);

  const conf = join(etc, 'nginx.conf');
  let main = readFileSync(conf, 'utf8');
  main = swap(main, /^pid\s+\S+;/m, `pid ${dir}/nginx.pid;`, 'a pid line', DEBIAN_MAIN);
  main = swap(main, /\/etc\/nginx\//g, `${etc}/`, 'includes from /etc/nginx/', DEBIAN_MAIN);
  main = swap(main, /\/var\/log\/nginx\/error\.log/g, `${dir}/error.log`, 'an error_log', DEBIAN_MAIN);
  main = swap(main, /\/var\/log\/nginx\/access\.log/g, `${dir}/access.log`, 'an access_log', DEBIAN_MAIN);
  writeFileSync(conf, main);
  options.prepare?.(conf);
  return { ...(await launch(dir, conf, ports, { foreground: true, installedPrefix: true })), ...deploy };
}

/** Where Debian's nginx package keeps its configuration. */
export const DEBIAN_ETC = '/etc/nginx';
const DEBIAN_MAIN = `${DEBIAN_ETC}/nginx.conf`;

export interface StartNginxSiteOptions extends LaunchOptions {
  /** The http {} content: one or more server blocks; `port` is the free port to listen on (127.0.0.1). */
  site: (port: number) => string;
}

/** nginx with a site of the caller's own instead of deploy/nginx.conf. */
export async function startNginxSite(options: StartNginxSiteOptions): Promise<NginxProcess> {
  const port = await freePort();
  const dir = makeDir();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, mainConfig(dir, options.site(port), options));
  return launch(dir, conf, [port], options);
}

function makeDir(): string {
  requireCommands('the nginx tests and benchmarks', { nginx: 'nginx', openssl: 'openssl' });
  const dir = mkdtempSync(join(tmpdir(), 'news-nginx-'));
  // Workers drop root for "nobody" and must reach their temp folders (and any served files).
  chmodSync(dir, 0o755);
  return dir;
}

interface LaunchFlags {
  /** The file does not say `daemon off;` (Debian's), so the command line does. */
  foreground?: boolean;
  /**
   * Keep the prefix nginx was built with (no `-p`): Debian's modules-enabled/*.conf load their
   * modules by a path relative to it (`load_module modules/...so;`), as the installed nginx does.
   * Every file the harness has nginx write is named by an absolute path, so the prefix is only read.
   */
  installedPrefix?: boolean;
}

/** Starts nginx with the configuration file `conf` and waits until every port accepts. */
async function launch(
  dir: string,
  conf: string,
  ports: number[],
  options: LaunchOptions & LaunchFlags,
): Promise<NginxProcess> {
  const args = [
    ...(options.installedPrefix ? [] : ['-p', dir]),
    '-c',
    conf,
    '-e',
    join(dir, 'error.log'),
    ...(options.foreground ? ['-g', 'daemon off;'] : []),
  ];
  const [command, ...rest] = onCpu(options.cpu, [NGINX_BIN!, ...args]);
  const child = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
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

  // Generous: nginx starts in milliseconds; this only keeps a broken start from hanging.
  const deadline = Date.now() + 10_000;
  for (const port of ports) {
    while (!(await listening(port))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        const why = `${output.join('\n')}\n${read('error.log')}`;
        await stop();
        throw new Error(`nginx did not start:\n${why}`);
      }
      await sleep(50);
    }
  }
  const port = ports[0]!;
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

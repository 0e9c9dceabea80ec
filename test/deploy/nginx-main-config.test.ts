/**
 * nginx's main configuration as deploy/README.md has the operator leave it: the check that stops
 * an undersized nginx before it starts or reloads (deploy/nginx-size.sh --check, run by the
 * shipped systemd drop-in), and worker_shutdown_timeout, which bounds how long the old workers of
 * a reload keep radio listeners (and so live) before those players reconnect to the new ones.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { BROWSER_UA, HANG_LIMIT_MS } from '../support/http.ts';
import { DEBIAN_ETC, startDebianNginx, type DeployNginx } from '../support/nginx.ts';
import { until } from '../support/wait.ts';

const SIZE_SCRIPT = new URL('../../deploy/nginx-size.sh', import.meta.url).pathname;
const DROP_IN = new URL('../../deploy/nginx.service.d/news.conf', import.meta.url).pathname;
/** The test's own short shutdown timeout: the old workers are waited for, never timed. */
const SHUTDOWN_TIMEOUT = '2s';
const LISTENERS = 50;
/** Per client address, below nginx's limit_conn and the app's per-client cap (8). */
const PER_ADDRESS = 4;

/** worker_rlimit_nofile this machine lets nginx's workers raise to (nginx-debian.test.ts says why). */
function openFilesHere(): Record<string, string> {
  const hard = Number(execFileSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).trim());
  return Number.isFinite(hard) && hard < 65_535 ? { NGINX_WORKER_RLIMIT_NOFILE: String(hard) } : {};
}

/** The drop-in's `ExecStartPre` and `ExecReload` commands that run the size check, as argv with the file put in. */
function dropInChecks(conf: string): string[][] {
  const lines = readFileSync(DROP_IN, 'utf8')
    .split('\n')
    .filter((l) => /^Exec(StartPre|Reload)=.*nginx-size\.sh --check/.test(l));
  return lines.map((line) => {
    const argv = line.replace(/^\w+=/, '').split(/\s+/);
    return argv.map((arg) =>
      arg.endsWith('/nginx-size.sh') ? SIZE_SCRIPT : arg === '/etc/nginx/nginx.conf' ? conf : arg,
    );
  });
}

describe('deploy/nginx-size.sh --check, before nginx starts or reloads', () => {
  let dir: string;
  let conf: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'news-nginx-size-'));
    conf = join(dir, 'nginx.conf');
    copyFileSync(join(DEBIAN_ETC, 'nginx.conf'), conf);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails on Debian’s main configuration, naming what is short, and passes once the script has sized it', () => {
    const checks = dropInChecks(conf);
    // Before a start and before a reload.
    expect(checks).toHaveLength(2);
    for (const [command, ...args] of checks) {
      const stock = spawnSync(command!, args, { encoding: 'utf8' });
      console.log(`Debian's nginx.conf: exit ${stock.status}: ${stock.stderr.trim().replaceAll('\n', ' | ')}`);
      expect(stock.status).toBe(1);
      expect(stock.stderr).toMatch(/worker_connections 768, needs at least 16384/);
      expect(stock.stderr).toMatch(/no worker_shutdown_timeout/);
    }
    execFileSync('sh', [SIZE_SCRIPT, conf], { stdio: 'ignore', env: { ...process.env, ...openFilesHere() } });
    for (const [command, ...args] of checks) {
      const sized = spawnSync(command!, args, { encoding: 'utf8', env: { ...process.env, ...openFilesHere() } });
      expect(sized.stderr).toBe('');
      expect(sized.status).toBe(0);
    }
  });
});

interface Listener {
  bytes: number;
  ended: Promise<void>;
  req: ClientRequest;
}

/** A radio listener through nginx from `from`: resolves once audio arrives. */
function listen(nginx: DeployNginx, from: string): Promise<Listener> {
  return new Promise((resolve, reject) => {
    let ended!: () => void;
    const listener = { bytes: 0, ended: new Promise<void>((r) => (ended = r)) } as Listener;
    const hang = setTimeout(() => listener.req.destroy(new Error('no audio')), HANG_LIMIT_MS);
    listener.req = request(
      `${nginx.httpsUrl}/api/stream?port=8076`,
      { ca: nginx.certificate.cert, agent: false, localAddress: from, headers: { 'User-Agent': BROWSER_UA } },
      (res) => {
        if (res.statusCode !== 200) reject(new Error(`stream answered ${res.statusCode}`));
        res.on('data', (chunk: Buffer) => {
          listener.bytes += chunk.length;
          clearTimeout(hang);
          resolve(listener);
        });
        res.on('close', ended);
        res.on('error', () => {});
      },
    );
    listener.req.on('error', (error) => {
      clearTimeout(hang);
      ended();
      reject(error);
    });
    listener.req.end();
  });
}

/** nginx's worker processes under `master` (not its cache manager or loader). */
function workersOf(master: number): number[] {
  const children = readFileSync(`/proc/${master}/task/${master}/children`, 'utf8').trim().split(/\s+/).map(Number);
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('worker process');
    } catch {
      return false;
    }
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a reload of nginx sized by deploy/nginx-size.sh, with radio listeners held', () => {
  let app: AppProcess;
  let nginx: DeployNginx;
  const listeners: Listener[] = [];

  beforeAll(async () => {
    // No STREAM_UPSTREAM_HOST: the app plays its built-in demo station.
    app = await startApp({ SITE_URL: 'https://news.example.com', TRUST_PROXY: 'loopback' });
    nginx = await startDebianNginx({
      upstreams: [app.port],
      prepare: (conf) =>
        execFileSync('sh', [SIZE_SCRIPT, conf], {
          stdio: 'ignore',
          env: { ...process.env, ...openFilesHere(), NGINX_WORKER_SHUTDOWN_TIMEOUT: SHUTDOWN_TIMEOUT },
        }),
    });
  });
  afterAll(async () => {
    for (const l of listeners) l.req.destroy();
    await nginx?.stop();
    await app?.stop();
  });

  const address = (i: number) => `127.7.0.${1 + Math.floor(i / PER_ADDRESS)}`;

  it(`ends the old workers after worker_shutdown_timeout, and the ${LISTENERS} listeners play again`, async () => {
    for (let i = 0; i < LISTENERS; i++) listeners.push(await listen(nginx, address(i)));
    const old = workersOf(nginx.child.pid!);
    expect(old.length).toBeGreaterThan(0);

    nginx.child.kill('SIGHUP'); // nginx -s reload
    await until(`the old workers (${old.join(', ')}) to exit`, () => !old.some(alive));
    // Their listeners' streams ended with them: each player now reconnects, to a new worker.
    await Promise.all(listeners.map((l) => l.ended));
    const news = workersOf(nginx.child.pid!);
    expect(news.length).toBeGreaterThan(0);
    expect(news.filter((pid) => old.includes(pid))).toEqual([]);

    const again = await Promise.all(listeners.map((_, i) => listen(nginx, address(i))));
    listeners.push(...again);
    console.log(
      `reload with ${LISTENERS} listeners: old workers ${old.join(', ')} gone; ${again.filter((l) => l.bytes > 0).length} of ${LISTENERS} reconnected with audio`,
    );
    expect(again.filter((l) => l.bytes > 0)).toHaveLength(LISTENERS);
    expect(nginx.errorLog()).not.toMatch(/\[(emerg|alert|crit)\]/);
  });
});

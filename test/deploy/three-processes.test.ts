/**
 * The documented deployment: three app processes behind deploy/nginx.conf. Under a steady loop of
 * page requests, one process is stopped (SIGTERM) and another killed (SIGKILL): no page request
 * fails. Pages say s-maxage=0 here, so nginx caches none and every request reaches an app.
 */
import { Agent, request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/shared/pages.ts';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { BROWSER_UA } from '../support/http.ts';
import { startNginx, type DeployNginx } from '../support/nginx.ts';

const pagePaths = pages.filter((p) => p.id !== 'notFound').map((p) => p.path);
const env = {
  SITE_URL: 'https://news.example.com',
  TRUST_PROXY: 'loopback',
  PAGE_S_MAXAGE: '0',
  PAGE_STALE_WHILE_REVALIDATE: '0',
};

describe('three app processes behind deploy/nginx.conf', () => {
  let apps: AppProcess[] = [];
  let nginx: DeployNginx;

  beforeAll(async () => {
    for (const name of ['app-3000', 'app-3001', 'app-3002']) apps.push(await startApp(env, { name }));
    nginx = await startNginx({ upstreams: apps.map((a) => a.port) });
  });
  afterAll(async () => {
    await nginx?.stop();
    await Promise.all(apps.map((a) => a.stop('SIGKILL')));
    apps = [];
  });

  it('loses no page request while one process is stopped (SIGTERM) and one killed (SIGKILL)', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8, ca: nginx.certificate.cert });
    const get = (path: string) =>
      new Promise<{ status: number; bytes: number }>((resolve) => {
        const req = request(
          `${nginx.httpsUrl}${path}`,
          { agent, headers: { 'User-Agent': BROWSER_UA, 'Accept-Encoding': 'gzip, br' }, timeout: 60_000 },
          (res) => {
            let bytes = 0;
            res.on('data', (c: Buffer) => {
              bytes += c.length;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
            res.on('error', () => resolve({ status: 0, bytes }));
          },
        );
        req.on('timeout', () => req.destroy(new Error('hung')));
        req.on('error', () => resolve({ status: 0, bytes: 0 }));
        req.end();
      });
    const served = (app: AppProcess) => app.logLines().filter((l) => l.msg === 'request completed').length;

    type Phase = 'all three' | 'one stopped' | 'one killed too';
    let phase: Phase = 'all three';
    const results: Array<{ phase: Phase; status: number; bytes: number }> = [];
    const inPhase = (p: Phase) => results.filter((r) => r.phase === p).length;
    let finished = false;
    const loop = async (worker: number) => {
      for (let i = 0; !finished && i < 20_000; i++) {
        const at = phase;
        results.push({ phase: at, ...(await get(pagePaths[(worker + i) % pagePaths.length]!)) });
      }
    };
    const [stopped, killed, staying] = apps as [AppProcess, AppProcess, AppProcess];
    const conductor = (async () => {
      try {
        await expect.poll(() => inPhase('all three')).toBeGreaterThanOrEqual(150);
        phase = 'one stopped';
        const stopCode = stopped.stop('SIGTERM');
        await expect.poll(() => inPhase('one stopped')).toBeGreaterThanOrEqual(150);
        phase = 'one killed too';
        killed.child.kill('SIGKILL');
        await expect.poll(() => inPhase('one killed too')).toBeGreaterThanOrEqual(150);
        expect(await stopCode).toBe(0);
      } finally {
        finished = true;
      }
    })();
    await Promise.all([...Array.from({ length: 8 }, (_, w) => loop(w)), conductor]);
    agent.destroy();

    const failures = results.filter((r) => r.status !== 200 || r.bytes === 0);
    console.log(
      `${results.length} page requests: ${inPhase('all three')} with three processes, ${inPhase('one stopped')} after SIGTERM, ${inPhase('one killed too')} after SIGKILL; served ${served(stopped)} / ${served(killed)} / ${served(staying)}`,
    );
    expect(failures, JSON.stringify(failures.slice(0, 5))).toEqual([]);
    expect(killed.alive()).toBe(false);
    // Each process took its share while it ran.
    for (const app of apps) expect(served(app), app.name).toBeGreaterThan(0);
    expect(nginx.errorLog()).not.toMatch(/\[(emerg|alert|crit)\]/);
  }, 180_000);
});

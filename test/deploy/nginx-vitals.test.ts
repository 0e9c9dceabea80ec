/**
 * The Web Vitals beacon through deploy/nginx.conf: nginx passes each POST to the app (nothing
 * stored: two identical beacons are both recorded, no X-Cache-Status), refuses a body over 1 KiB
 * itself, and the app's refusals come through.
 */
import { Agent, request } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startApp, type AppProcess } from '../support/app-process.ts';
import { startNginx, type DeployNginx } from '../support/nginx.ts';

let app: AppProcess;
let nginx: DeployNginx;
let agent: Agent;
let metricsUrl: string;

beforeAll(async () => {
  const metricsPort = await freePort();
  app = await startApp({ METRICS_PORT: String(metricsPort), TRUST_PROXY: 'loopback' });
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  nginx = await startNginx({ upstreams: [app.port] });
  agent = new Agent({ keepAlive: true, ca: nginx.certificate.cert });
});
afterAll(async () => {
  agent?.destroy();
  await nginx?.stop();
  await app?.stop();
});

function post(body: string, method = 'POST') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = request(
      `${nginx.httpsUrl}/api/vitals`,
      {
        agent,
        method,
        headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const recorded = async () => {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith('web_vitals_lcp_seconds_count{route="radio"}'));
  return Number(line?.split(' ').at(-1));
};

describe('POST /api/vitals through nginx', () => {
  it('reaches the app every time and is never stored', async () => {
    const body = JSON.stringify({ route: 'radio', navigation: 'navigate', metrics: { LCP: 900 } });
    const before = await recorded();
    for (let i = 0; i < 2; i++) {
      const res = await post(body);
      expect(res.status).toBe(204);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-cache-status']).toBeUndefined();
    }
    expect((await recorded()) - before).toBe(2);
  });

  it('refuses a body over 1 KiB at nginx with 400, and passes the app’s refusals on', async () => {
    const before = await recorded();
    const large = await post('x'.repeat(2048));
    // Refused by nginx (the app never sees it) with the app's kind of answer: 400, plain text.
    expect(large.status).toBe(400);
    expect(large.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(large.headers['cache-control']).toBe('no-store');
    expect((await post('{')).status).toBe(400);
    expect((await post('', 'GET')).status).toBe(400);
    expect(await recorded()).toBe(before);
  });
});

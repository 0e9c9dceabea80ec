import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { use } from 'react';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/server/app.ts';
import { startServer } from '../src/server/lifecycle.ts';
import { startApp } from './support/app-process.ts';
import { captureLogger, testConfig } from './support/test-app.ts';

function fetchStatus(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: { 'User-Agent': 'Googlebot/2.1' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    }).on('error', reject);
  });
}

describe('graceful shutdown', () => {
  it('lets an in-flight page finish, refuses new connections, then stops', async () => {
    // A page whose render takes 800 ms keeps a request in flight while we stop.
    const slow = new Promise<string>((resolve) => setTimeout(() => resolve('slow page done'), 800));
    function SlowPage() {
      return <p>{use(slow)}</p>;
    }
    const config = { ...testConfig(), port: 0 };
    const { logger } = captureLogger();
    const app = createApp(config, { logger, appTree: () => <SlowPage /> });
    const { server, stop } = await startServer(app, config, logger);
    const { port } = server.address() as AddressInfo;

    const inFlight = fetchStatus(port, '/');
    await new Promise((r) => setTimeout(r, 150));
    const stopped = stop('test');
    await new Promise((r) => setTimeout(r, 50));
    await expect(fetchStatus(port, '/about')).rejects.toThrow(/ECONNREFUSED/);

    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body).toContain('slow page done');
    // The client's keep-alive connection is closed with its last response, not left to time out.
    const answered = Date.now();
    await stopped;
    expect(Date.now() - answered).toBeLessThan(1_000);
    expect(server.listening).toBe(false);
  });

  it('the process exits cleanly within 10 s of SIGTERM', async () => {
    const app = await startApp();
    const started = Date.now();
    const code = await app.stop('SIGTERM');
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(app.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
  });

  it('writes the buffered log at exit: the last requests before SIGTERM and the final line are all there', async () => {
    const app = await startApp();
    const marks = Array.from({ length: 5 }, (_, i) => `last-${i}`);
    for (const mark of marks) expect((await fetch(`${app.url}/about?${mark}`)).status).toBe(200);
    expect(await app.stop('SIGTERM')).toBe(0);
    const lines = app.logs.map((l) => JSON.parse(l) as { msg?: string; req?: { url?: string } });
    for (const mark of marks)
      expect(
        lines.some((l) => l.req?.url === `/about?${mark}`),
        mark,
      ).toBe(true);
    expect(lines.at(-1)?.msg).toBe('stopped');
  });
});

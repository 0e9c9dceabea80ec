import { get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { use } from 'react';
import { describe, expect, it } from 'vitest';
import { startRuntime } from '../src/server/runtime.ts';
import { startApp } from './support/app-process.ts';
import { captureLogger, testConfig } from './support/test-app.ts';

function fetchStatus(port: number, path: string): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers: { 'User-Agent': 'Googlebot/2.1' } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
    }).on('error', reject);
  });
}

describe('graceful shutdown', () => {
  it('lets an in-flight page finish, refuses new connections, then stops', async () => {
    // A page whose render waits until the test lets it finish keeps a request in flight while we stop.
    let rendering!: () => void;
    const renderStarted = new Promise<void>((resolve) => (rendering = resolve));
    let finish!: (text: string) => void;
    const slow = new Promise<string>((resolve) => (finish = resolve));
    function SlowPage() {
      rendering();
      return <p>{use(slow)}</p>;
    }
    const config = { ...testConfig(), port: 0 };
    const { logger, lines } = captureLogger();
    const { server, stop } = await startRuntime(config, { logger, appTree: () => <SlowPage /> });
    const { port } = server.address() as AddressInfo;

    const inFlight = fetchStatus(port, '/');
    await renderStarted;
    const stopped = stop('test');
    // stop() closes the listening socket at once.
    expect(server.listening).toBe(false);
    await expect(fetchStatus(port, '/about')).rejects.toThrow(/ECONNREFUSED/);

    finish('slow page done');
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.body).toContain('slow page done');
    // The client's keep-alive connection is closed with its last response, not left for the
    // shutdown timeout to force: stop() resolves without the timeout's warning.
    expect(res.connection).toBe('close');
    await stopped;
    expect(lines().filter((l) => String(l.msg).startsWith('shutdown timeout'))).toEqual([]);
  });

  it('the process exits cleanly on SIGTERM', async () => {
    const app = await startApp();
    const started = Date.now();
    // Exit code 0: the server stopped by itself; it exits 1 when its shutdown timeout (under 10 s) forces it.
    const code = await app.stop('SIGTERM');
    console.log(`exited ${code} ${Date.now() - started} ms after SIGTERM`);
    expect(code).toBe(0);
    expect(app.logs.some((l) => l.includes('"msg":"stopped"'))).toBe(true);
    expect(app.logs.filter((l) => l.includes('shutdown timeout'))).toEqual([]);
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

/**
 * The built server (dist/server/main.js, with `npm start`'s flags) checks its configuration before
 * it listens, and a part that cannot start is told in one line: `cannot start <step>: <reason>` on
 * stderr, exit code 1, and whatever had started is stopped (the process ends by itself, nothing
 * left listening).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, requireBuild, shippedServerArgs } from './support/app-process.ts';
import { HANG_LIMIT_MS } from './support/http.ts';

interface Run {
  code: number | null;
  stdout: string[];
  stderr: string[];
}

/** The built server with exactly `env` (and PATH), until it exits by itself. */
function run(env: Record<string, string>): Promise<Run> {
  requireBuild();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, shippedServerArgs(), {
      env: { PATH: process.env.PATH, NODE_ENV: 'production', HOST: '127.0.0.1', REWIND_DIR: rewind, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const hang = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server did not exit:\n${stdout}${stderr}`));
    }, HANG_LIMIT_MS);
    child.once('close', (code) => {
      clearTimeout(hang);
      const lines = (text: string) => text.split('\n').filter(Boolean);
      resolve({ code, stdout: lines(stdout), stderr: lines(stderr) });
    });
  });
}

/** Whether a listener can take the port on 127.0.0.1 now (nothing else listens there). */
function free(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** A port held by a listener of the test's own. */
async function held(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, server };
}

/** The demo station's port, from its "on the air" log line. */
function demoStationPort(stdout: string[]): number {
  const line = stdout
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg?: string; url?: string })
    .find((l) => l.msg === 'demo station on the air');
  expect(line?.url).toBeDefined();
  return Number(new URL(line!.url!).port);
}

const holders: Server[] = [];
const empty = mkdtempSync(join(tmpdir(), 'news-no-build-'));
/** The rewind window's folder (rewind is on, as shipped), not the working folder. */
const rewind = mkdtempSync(join(tmpdir(), 'news-start-rewind-'));
afterAll(() => {
  for (const server of holders) server.close();
  rmSync(empty, { recursive: true, force: true });
  rmSync(rewind, { recursive: true, force: true });
});

describe('the server process', () => {
  it('refuses to start with a bad variable and says which and why', async () => {
    const { code, stderr } = await run({ PORT: 'eighty' });
    expect(code).toBe(1);
    expect(stderr.join('\n')).toContain('PORT');
    expect(stderr.join('\n')).toContain('must be a whole number');
  });

  it('without a build: one line says to run the build, exit 1, nothing listening', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const { code, stderr } = await run({ PORT: String(port), METRICS_PORT: String(metricsPort), DIST_DIR: empty });
    expect(stderr).toEqual([
      `cannot start build output: ${join(empty, 'manifest.json')} is missing: run "npm run build"`,
    ]);
    expect(code).toBe(1);
    expect(await free(port)).toBe(true);
    expect(await free(metricsPort)).toBe(true);
  });

  it('with a REWIND_DIR it cannot write: one line names it, exit 1, the demo station stopped', async () => {
    const port = await freePort();
    // Under a file: no folder can be made there (ENOTDIR), whoever runs the test (root included).
    const file = join(rewind, 'a-file');
    writeFileSync(file, '');
    const dir = join(file, 'rewind');
    const { code, stdout, stderr } = await run({ PORT: String(port), REWIND_DIR: dir });
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toContain(
      `cannot start rewind recorder: REWIND_DIR ${dir} is not a folder this process can write (`,
    );
    expect(code).toBe(1);
    expect(await free(port)).toBe(true);
    expect(await free(demoStationPort(stdout))).toBe(true);
  });

  it('with its port in use: one line names PORT, exit 1, the demo station stopped', async () => {
    const taken = await held();
    holders.push(taken.server);
    const metricsPort = await freePort();
    const { code, stdout, stderr } = await run({ PORT: String(taken.port), METRICS_PORT: String(metricsPort) });
    expect(stderr).toEqual([`cannot start server: 127.0.0.1:${taken.port} is already in use (PORT)`]);
    expect(code).toBe(1);
    expect(await free(demoStationPort(stdout))).toBe(true);
    expect(await free(metricsPort)).toBe(true);
  });

  it('with its metrics port in use: one line names METRICS_PORT, exit 1, the server and demo station stopped', async () => {
    const taken = await held();
    holders.push(taken.server);
    const port = await freePort();
    const { code, stdout, stderr } = await run({ PORT: String(port), METRICS_PORT: String(taken.port) });
    expect(stderr).toEqual([`cannot start metrics listener: 127.0.0.1:${taken.port} is already in use (METRICS_PORT)`]);
    expect(code).toBe(1);
    // The server had started: it was stopped, not left behind.
    expect(stdout.some((l) => l.includes('"reason":"cannot start metrics listener"'))).toBe(true);
    expect(await free(port)).toBe(true);
    expect(await free(demoStationPort(stdout))).toBe(true);
  });
});

/**
 * Clients and log readers that stop reading do not stop the site. A real server process writes its
 * log into a pipe read by `cat`, which the test stops with SIGSTOP (a stuck log shipper): pages
 * and /healthz keep answering, the dropped lines are counted and reported once the reader resumes,
 * and SIGTERM ends the process within SHUTDOWN_TIMEOUT_MS while the reader is still stopped. And a
 * client that pipelines page requests without reading is cut after SEND_TIMEOUT_MS.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, requireBuild, shippedServerArgs } from './support/app-process.ts';
import { BROWSER_UA } from './support/http.ts';

const SHUTDOWN_TIMEOUT_MS = 2_000;
const dir = mkdtempSync(join(tmpdir(), 'news-stalls-'));
const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The built server with its stdout going into a pipe that `cat` appends to a file, its stderr into
 * a file of its own. A named pipe opened here, so the server inherits a blocking file descriptor as
 * from a shell or a service manager (a pipe made by Node's spawn is non-blocking, which would hide
 * the problem).
 */
async function serverWithLogReader(env: Record<string, string>) {
  requireBuild();
  const logFile = join(dir, `log-${started.length}.txt`);
  const stderrFile = join(dir, `stderr-${started.length}.txt`);
  const fifo = join(dir, `pipe-${started.length}`);
  execFileSync('mkfifo', [fifo]);
  const fd = openSync(logFile, 'a');
  const reader = spawn('cat', [fifo], { stdio: ['ignore', fd, fd] });
  const pipe = openSync(fifo, 'w');
  const errorFd = openSync(stderrFile, 'a');
  const port = await freePort();
  const server = spawn(process.execPath, shippedServerArgs(), {
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'info', PORT: String(port), ...env },
    stdio: ['ignore', pipe, errorFd],
  });
  closeSync(pipe);
  closeSync(fd);
  closeSync(errorFd);
  started.push(reader, server);
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  const lines = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .slice(0, -1) // whole lines only: a process that exits with its pipe full leaves one cut short
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const stderr = () => readFileSync(stderrFile, 'utf8');
  const url = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => {
      if (server.exitCode !== null) throw new Error(`server exited: ${readFileSync(logFile, 'utf8')}${stderr()}`);
      return lines().some((l) => l.msg === 'listening') && (await fetch(`${url}/healthz`).catch(() => null))?.ok;
    })
    .toBe(true);
  const readerDone = new Promise<void>((resolve) => reader.once('exit', () => resolve()));
  return { url, port, server, reader, readerDone, exited, lines, stderr };
}

describe('a log reader that stops reading', () => {
  it('does not stop pages, /healthz or SIGTERM, and the dropped lines are counted', async () => {
    const app = await serverWithLogReader({ SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
    const get = async (path: string) => (await fetch(app.url + path, { headers: { 'User-Agent': BROWSER_UA } })).status;
    // Warm the page cache, then stop the reader: the socket and the log's backlog fill up.
    expect(await get('/')).toBe(200);
    app.reader.kill('SIGSTOP');
    const pages = 2_000;
    const statuses = new Map<number, number>();
    for (let i = 0; i < pages; i += 10) {
      const batch = await Promise.all(['/', '/about', '/radio', '/', '/books', '/', '/', '/', '/about', '/'].map(get));
      for (const s of batch) statuses.set(s, (statuses.get(s) ?? 0) + 1);
      if (i % 500 === 0) expect(await get('/healthz')).toBe(200);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: pages });

    // The reader resumes: what waited arrives, then one warning with the count of lines lost.
    app.reader.kill('SIGCONT');
    await expect.poll(() => app.lines().filter((l) => l.dropped !== undefined).length).toBe(1);
    const lines = app.lines();
    const warning = lines.find((l) => l.dropped !== undefined)!;
    expect(warning).toMatchObject({ level: 40, msg: 'log lines dropped: stdout was not being read' });
    expect(warning.dropped).toBeGreaterThan(0);
    // The lines still in the buffer follow the warning in the same flush: they come, if not yet read.
    const requestLines = () => app.lines().filter((l) => l.msg === 'request completed').length;
    await expect.poll(() => requestLines() + Number(warning.dropped)).toBe(pages + 1);
    const logged = requestLines();
    const beforeStop = app.lines().length;
    console.log(`log reader stopped: ${logged} request lines arrived, ${String(warning.dropped)} dropped`);

    // Stopped again, and full again: SIGTERM still ends the process, gracefully and in time.
    app.reader.kill('SIGSTOP');
    for (let i = 0; i < pages; i += 10) await Promise.all(Array.from({ length: 10 }, () => get('/')));
    expect(await get('/healthz')).toBe(200);
    const termAt = Date.now();
    app.server.kill('SIGTERM');
    const code = await Promise.race([
      app.exited,
      new Promise<string>((r) => setTimeout(() => r('still running'), SHUTDOWN_TIMEOUT_MS + 5_000)),
    ]);
    console.log(`SIGTERM with the log reader stopped: exited (${code}) after ${Date.now() - termAt} ms`);
    expect(code).toBe(0);

    // The reader never resumed before the exit: the count of the lines it will never get is said
    // on stderr, once. What the pipe held still arrives; with the lost lines, every request is told.
    const atExit = app.stderr().split('\n').filter(Boolean);
    app.reader.kill('SIGCONT');
    await app.readerDone;
    expect(atExit).toHaveLength(1);
    const lost = JSON.parse(atExit[0]!) as Record<string, unknown>;
    expect(lost).toMatchObject({ level: 40, msg: 'log lines lost at exit: stdout was not being read' });
    const arrived = app.lines().slice(beforeStop);
    const told = arrived.filter((l) => l.msg === 'request completed').length;
    const others = arrived.length - told;
    console.log(
      `exit with the log reader stopped: ${told} request lines arrived, ${String(lost.dropped)} lost (${others} other lines arrived)`,
    );
    expect(Number(lost.dropped)).toBeGreaterThan(0);
    expect(told + Number(lost.dropped)).toBeGreaterThanOrEqual(pages);
  });
});

/** Of these client ports, those still connected to `port` (the server's side, from /proc/net/tcp). */
function stillConnected(port: number, clientPorts: number[]): number {
  const hex = (p: number) => `:${p.toString(16).toUpperCase().padStart(4, '0')}`;
  const clients = new Set(clientPorts.map(hex));
  return readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => {
      const [, local = '', remote = '', state] = line.trim().split(/\s+/);
      return local.endsWith(hex(port)) && clients.has(remote.slice(remote.lastIndexOf(':'))) && state === '01';
    }).length;
}

describe('a client that stops reading pages', () => {
  it('is cut after SEND_TIMEOUT_MS without progress', async () => {
    const app = await serverWithLogReader({ SEND_TIMEOUT_MS: '1000' });
    expect((await fetch(`${app.url}/`)).status).toBe(200);
    // Each client asks for 200 identity pages (about 15 MB, far more than loopback's buffers) and
    // reads nothing: the server's writes stop making progress.
    const request = 'GET / HTTP/1.1\r\nHost: x\r\nAccept-Encoding: identity\r\n\r\n'.repeat(200);
    const clients: Socket[] = [];
    for (let i = 0; i < 10; i++) {
      const socket = connect(app.port, '127.0.0.1');
      socket.on('error', () => {});
      socket.pause();
      socket.write(request);
      clients.push(socket);
    }
    await expect.poll(() => clients.every((socket) => socket.localPort !== undefined)).toBe(true);
    const ports = clients.map((socket) => socket.localPort!);
    expect(stillConnected(app.port, ports)).toBe(10);
    await expect.poll(() => stillConnected(app.port, ports)).toBe(0);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    for (const socket of clients) socket.destroy();
    app.server.kill('SIGTERM');
    expect(await app.exited).toBe(0);
  });
});

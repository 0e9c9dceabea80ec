/**
 * The now-playing push under `npm run bench:stream`: N Server-Sent Events clients (default 10,000)
 * on one app process (as shipped, pinned to CPU 0), following a real Icecast. Printed: RSS growth
 * per client (RSS with every client connected and given its first event, minus the idle
 * server's, over N), and for one title change (Icecast's admin metadata update):
 * - when the server learnt of it and began writing (its debug line 'now-playing change pushed');
 * - the server's write loop: from its first write() to its last returning, wall clock and CPU;
 * - delivery: when the first and the last client read the title, from the first write.
 * Clients are a child process pinned to CPU 1, on raw sockets doing as little as they can, so its
 * work stays out of the server's figures; its CPU time from the first to the last arrival is
 * printed too, since on this 2-core machine it bounds how soon the last client can read.
 * Goals (issue 20): at most 16 KiB per client, fan-out at most 100 ms.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type Socket } from 'node:net';
import { type AppProcess, onCpu, startApp } from '../test/support/app-process.ts';
import type { FanOut } from '../src/server/stream/now-playing-events.ts';
import type { Icecast } from '../test/support/icecast.ts';
import { sleep } from '../test/support/wait.ts';

const EVENTS = '/api/now-playing/events?port=8076';
const now = () => performance.timeOrigin + performance.now();

const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

interface ClientSpec {
  port: number;
  count: number;
  title: string;
}

/** One push client: resolves its socket once the first event came; records when `marker` arrived. */
function follow(port: number, marker: Buffer, arrivals: Arrivals): Promise<Socket> {
  return new Promise((resolve, reject) => {
    let ready = false;
    let done = false;
    let tail: Buffer = Buffer.alloc(0);
    const socket = connect({ host: '127.0.0.1', port }, () =>
      socket.write(`GET ${EVENTS} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      if (done) return;
      if (!ready && chunk.includes('data: ')) {
        ready = true;
        resolve(socket);
      }
      // The marker may straddle two reads: look at the end of the last one too.
      const seen = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
      if (seen.includes(marker)) {
        done = true;
        arrivals.arrived();
      } else tail = seen.subarray(Math.max(0, seen.length - marker.length));
    });
    socket.on('error', reject);
  });
}

/** When the title reached each client, and the process's CPU time from the first arrival to the last. */
class Arrivals {
  readonly times: number[] = [];
  readCpuMs = 0;
  private cpuAtFirst: NodeJS.CpuUsage | undefined;
  private readonly expected: number;
  constructor(expected: number) {
    this.expected = expected;
  }

  arrived(): void {
    this.times.push(now());
    if (this.times.length === 1) this.cpuAtFirst = process.cpuUsage();
    if (this.times.length !== this.expected) return;
    const used = process.cpuUsage(this.cpuAtFirst);
    this.readCpuMs = (used.user + used.system) / 1000;
  }
}

/** The client process: connects `count` clients, says "ready", then reports when the title reached each. */
async function runClient(spec: ClientSpec): Promise<void> {
  const arrivals = new Arrivals(spec.count);
  const sockets: Socket[] = [];
  const marker = Buffer.from(spec.title);
  for (let i = 0; i < spec.count; i += 500) {
    const batch = Array.from({ length: Math.min(500, spec.count - i) }, () => follow(spec.port, marker, arrivals));
    sockets.push(...(await Promise.all(batch)));
  }
  process.stdout.write('ready\n');
  const deadline = now() + 30_000;
  while (arrivals.times.length < spec.count && now() < deadline) await sleep(20);
  const { times, readCpuMs } = arrivals;
  const report = { first: Math.min(...times), last: Math.max(...times), got: times.length, readCpuMs };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  for (const socket of sockets) socket.destroy();
}

export interface PushResult {
  clients: number;
  /** Clients the server wrote the change to. */
  written: number;
  got: number;
  rssPerClientKiB: number;
  /** From Icecast's admin update to the server's first write of the change (its status poll and Icecast's lag). */
  learntMs: number;
  /** The server's write loop over every client: wall clock, and CPU. */
  writeMs: number;
  writeCpuMs: number;
  /** From the server's first write to the first and the last client reading the title. */
  firstMs: number;
  lastMs: number;
  /** The client process's CPU time from the first arrival to the last. */
  clientReadCpuMs: number;
}

/** The server's debug line for the first change it wrote after `after` (now-playing-events.ts). */
function fanOutLine(app: AppProcess, after: number): FanOut {
  const line = app.logLines().find((l) => l.msg === 'now-playing change pushed' && Number(l.startedAt) > after);
  if (!line) throw new Error(`the server logged no 'now-playing change pushed' after the title change`);
  return line as unknown as FanOut;
}

export async function benchPush(ice: Icecast, count: number): Promise<PushResult> {
  const app = await startApp(
    {
      LOG_LEVEL: 'debug',
      STREAM_UPSTREAM_HOST: '127.0.0.1',
      STREAM_PORT_MAP: `8076:${ice.port}`,
      STREAM_MAX_EVENT_CLIENTS: String(count + 100),
      STREAM_MAX_LISTENERS_PER_CLIENT: String(count + 100),
    },
    // Its log in a file: the debug line is read back whole (a pipe's chunks can split a line).
    { cpu: 0, logFile: join(mkdtempSync(join(tmpdir(), 'bench-push-')), 'app.log') },
  );
  try {
    const pid = app.child.pid!;
    await sleep(1_000);
    const idle = rssKiB(pid);
    const title = `Bench title ${Date.now()}`;
    const spec: ClientSpec = { port: app.port, count, title };
    const [command, ...args] = onCpu(1, [
      process.execPath,
      new URL(import.meta.url).pathname,
      '--client',
      JSON.stringify(spec),
    ]);
    const client = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: string[] = [];
    let buffered = '';
    client.stdout.setEncoding('utf8');
    client.stdout.on('data', (c: string) => {
      buffered += c;
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      lines.push(...parts);
    });
    const exited = new Promise<void>((r) => client.once('exit', () => r()));
    while (!lines.includes('ready')) await sleep(50);
    await sleep(2_000); // let the server settle (a collection or two) before reading its RSS
    const rssPerClientKiB = (rssKiB(pid) - idle) / count;
    const changedAt = now();
    await ice.setTitle(title);
    await exited;
    const report = JSON.parse(lines.at(-1)!) as { first: number; last: number; got: number; readCpuMs: number };
    const fanOut = fanOutLine(app, changedAt);
    return {
      clients: count,
      written: fanOut.clients,
      got: report.got,
      rssPerClientKiB,
      learntMs: fanOut.startedAt - changedAt,
      writeMs: fanOut.writeMs,
      writeCpuMs: fanOut.writeCpuMs,
      firstMs: report.first - fanOut.startedAt,
      lastMs: report.last - fanOut.startedAt,
      clientReadCpuMs: report.readCpuMs,
    };
  } finally {
    await app.stop();
  }
}

if (import.meta.main && process.argv[2] === '--client') await runClient(JSON.parse(process.argv[3]!) as ClientSpec);

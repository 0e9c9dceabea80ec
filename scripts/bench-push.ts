/**
 * The now-playing push under `npm run bench:stream`: N Server-Sent Events clients (default 10,000)
 * on one app process (as shipped, pinned to CPU 0), following a real Icecast. Printed: RSS growth
 * per client (RSS with every client connected and given its first event, minus the idle
 * server's, over N), and for each of a few title changes (Icecast's admin metadata update; the
 * next once every client read the last):
 * - when the server learnt of it and began writing (its debug line 'now-playing change pushed');
 * - the server's fan-out (fan-out.ts): from its first write to the end of its last turn, wall
 *   clock, and the CPU of its own turns, user and system (the kernel's send);
 * - delivery: when the first and the last client read the title, from the first write.
 * The floor peer, measured in the same run with the same client process: a minimal Node server
 * (plain net sockets, no HTTP, no timers) pinned to CPU 0, holding N connections and writing an
 * event of the same size to each in one loop. Ours ÷ floor is the figure that survives a shared
 * machine; the floor is what any Node process pays on this kernel (on loopback the sender's
 * write also runs the receiver's TCP, decision 022).
 * Clients are a child process pinned to CPU 1, on raw sockets doing as little as they can, so its
 * work stays out of the server's figures; its CPU time from the first to the last arrival is
 * printed too, since on this 2-core machine it bounds how soon the last client can read.
 * Goals (issue 20): at most 16 KiB per client, fan-out at most 100 ms.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { connect, createServer, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { type AppProcess, onCpu, startApp } from '../test/support/app-process.ts';
import type { FanOutTiming } from '../src/server/stream/fan-out.ts';
import { eventOf, type FanOut } from '../src/server/stream/now-playing-events.ts';
import type { Icecast } from '../test/support/icecast.ts';
import { sleep } from '../test/support/wait.ts';
import { CLIENT_CPU, type Cleanup, rssKb, SERVER_CPU, tempDir, withCleanup } from './perf/harness.ts';

const EVENTS = '/api/now-playing/events?port=8076';
const SELF = new URL(import.meta.url).pathname;
const now = () => performance.timeOrigin + performance.now();

interface ClientSpec {
  port: number;
  count: number;
  /** The titles to be changed to, in order: one is changed only once every client read the one before. */
  titles: string[];
}

/** When a title reached each client, and the client process's CPU time from the first arrival to the last. */
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

/** One push client: resolves its socket once the first event came; records when each title arrived. */
function follow(port: number, markers: Buffer[], arrivals: Arrivals[]): Promise<Socket> {
  return new Promise((resolve, reject) => {
    let ready = false;
    let next = 0;
    let tail: Buffer = Buffer.alloc(0);
    const socket = connect({ host: '127.0.0.1', port }, () =>
      socket.write(`GET ${EVENTS} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n`),
    );
    socket.on('data', (chunk: Buffer) => {
      if (!ready && chunk.includes('data: ')) {
        ready = true;
        resolve(socket);
      }
      if (next === markers.length) return;
      // A marker may straddle two reads: look at the end of the last one too.
      const seen = tail.length > 0 ? Buffer.concat([tail, chunk]) : chunk;
      while (next < markers.length && seen.includes(markers[next]!)) arrivals[next++]!.arrived();
      tail = seen.subarray(Math.max(0, seen.length - 64));
    });
    socket.on('error', reject);
  });
}

/** The client process: connects `count` clients, says "ready", then reports each title once every client read it. */
async function runClient(spec: ClientSpec): Promise<void> {
  const arrivals = spec.titles.map(() => new Arrivals(spec.count));
  const markers = spec.titles.map((title) => Buffer.from(title));
  const sockets: Socket[] = [];
  for (let i = 0; i < spec.count; i += 500) {
    const batch = Array.from({ length: Math.min(500, spec.count - i) }, () => follow(spec.port, markers, arrivals));
    sockets.push(...(await Promise.all(batch)));
  }
  process.stdout.write('ready\n');
  for (const [k, arrival] of arrivals.entries()) {
    const deadline = now() + 30_000;
    while (arrival.times.length < spec.count && now() < deadline) await sleep(20);
    const { times, readCpuMs } = arrival;
    const report: ClientReport = {
      k,
      first: Math.min(...times),
      last: Math.max(...times),
      got: times.length,
      readCpuMs,
    };
    process.stdout.write(`${JSON.stringify(report)}\n`);
  }
  for (const socket of sockets) socket.destroy();
}

/** What the client process reports per title: when the first and the last client read it, and its CPU between. */
interface ClientReport {
  k: number;
  first: number;
  last: number;
  got: number;
  readCpuMs: number;
}

/** A child process's stdout as lines, and a wait for one. */
function linesOf(child: ChildProcess): {
  lines: string[];
  next: (match: (line: string) => boolean) => Promise<string>;
} {
  const lines: string[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => lines.push(line));
  const next = async (match: (line: string) => boolean) => {
    const deadline = now() + 120_000;
    for (let seen = lines.length; now() < deadline; await sleep(50)) {
      const found = lines.slice(seen).find(match);
      if (found !== undefined) return found;
    }
    throw new Error(`bench-push: no line from process ${child.pid} in 120 s (${lines.at(-1) ?? 'nothing'})`);
  };
  return { lines, next };
}

/** The client process on CPU 1: resolves once every client has its first event. */
async function startClients(spec: ClientSpec): Promise<{ nextReport: () => Promise<ClientReport> }> {
  const [command, ...args] = onCpu(CLIENT_CPU, [process.execPath, SELF, '--client', JSON.stringify(spec)]);
  const client = spawn(command!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const { next } = linesOf(client);
  await next((line) => line === 'ready');
  // Asked for before the change it reports on: only lines from then on count.
  const nextReport = () => next((line) => line.startsWith('{')).then((line) => JSON.parse(line) as ClientReport);
  return { nextReport };
}

/** Distinct titles, none a part of another (a client looks for each in its bytes). */
const titlesFor = (changes: number) => {
  const base = `Bench title ${Date.now()}`;
  return Array.from({ length: changes }, (_, k) => `${base} change ${k + 1}.`);
};

export interface Delivery {
  /** The server's writes: wall clock from the first to the end of the last, CPU (user, system). */
  timing: FanOutTiming;
  /** From the server's first write to the first and the last client reading the title. */
  firstMs: number;
  lastMs: number;
  got: number;
  /** The client process's CPU time from the first arrival to the last. */
  clientReadCpuMs: number;
}

const deliveryOf = (timing: FanOutTiming, report: ClientReport): Delivery => ({
  timing,
  firstMs: report.first - timing.startedAt,
  lastMs: report.last - timing.startedAt,
  got: report.got,
  clientReadCpuMs: report.readCpuMs,
});

export interface PushResult {
  clients: number;
  rssPerClientKiB: number;
  /** Per change: from Icecast's admin update to the server's first write (its status poll and Icecast's lag). */
  learntMs: number[];
  /** Per change, ours and the floor peer's. */
  ours: Delivery[];
  floor: Delivery[];
}

/** The server's debug line for the first change it wrote after `after` (now-playing-events.ts). */
function fanOutLine(app: AppProcess, after: number): FanOut {
  const line = app.logLines().find((l) => l.msg === 'now-playing change pushed' && Number(l.startedAt) > after);
  if (!line) throw new Error(`the server logged no 'now-playing change pushed' after the title change`);
  return line as unknown as FanOut;
}

async function untilFanOut(app: AppProcess, after: number): Promise<FanOut> {
  for (const deadline = now() + 60_000; now() < deadline; await sleep(50)) {
    try {
      return fanOutLine(app, after);
    } catch {}
  }
  return fanOutLine(app, after);
}

/** Ours: the app as shipped on CPU 0, its RSS per client, and title changes through Icecast. */
async function benchApp(
  cleanup: Cleanup,
  ice: Icecast,
  count: number,
  changes: number,
): Promise<Omit<PushResult, 'floor'>> {
  const dir = tempDir(cleanup, 'bench-push-');
  const app = await startApp(
    {
      LOG_LEVEL: 'debug',
      STREAM_UPSTREAM_HOST: '127.0.0.1',
      STREAM_PORT_MAP: `8076:${ice.port}`,
      STREAM_MAX_EVENT_CLIENTS: String(count + 100),
      STREAM_MAX_LISTENERS_PER_CLIENT: String(count + 100),
    },
    // Its log in a file: the debug line is read back whole (a pipe's chunks can split a line).
    { ...(SERVER_CPU !== undefined && { cpu: SERVER_CPU }), logFile: join(dir, 'app.log') },
  );
  cleanup.add(app, (a) => a.stop());
  const pid = app.child.pid!;
  await sleep(1_000);
  const idle = rssKb(pid);
  const titles = titlesFor(changes);
  const { nextReport } = await startClients({ port: app.port, count, titles });
  await sleep(2_000); // let the server settle (a collection or two) before reading its RSS
  const rssPerClientKiB = (rssKb(pid) - idle) / count;
  const result: Omit<PushResult, 'floor'> = { clients: count, rssPerClientKiB, learntMs: [], ours: [] };
  for (const title of titles) {
    const changedAt = now();
    const reported = nextReport();
    await ice.setTitle(title);
    const got = await reported;
    const fanOut = await untilFanOut(app, changedAt);
    result.learntMs.push(fanOut.startedAt - changedAt);
    result.ours.push(deliveryOf(fanOut, got));
  }
  return result;
}

/** The floor peer: a minimal server (--floor) on CPU 0 and the same client process. */
async function benchFloor(count: number, changes: number): Promise<Delivery[]> {
  const [command, ...args] = onCpu(SERVER_CPU, [process.execPath, SELF, '--floor']);
  const floor = spawn(command!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const { next } = linesOf(floor);
    const port = Number((await next((line) => line.startsWith('port '))).slice(5));
    const titles = titlesFor(changes);
    const { nextReport } = await startClients({ port, count, titles });
    await sleep(2_000); // as for ours
    const deliveries: Delivery[] = [];
    for (const title of titles) {
      const [reported, timed] = [nextReport(), next((line) => line.startsWith('{'))];
      floor.stdin!.write(`${title}\n`);
      const timing = JSON.parse(await timed) as FanOutTiming;
      deliveries.push(deliveryOf(timing, await reported));
      await sleep(500); // as the app's status poll spaces ours
    }
    return deliveries;
  } finally {
    floor.kill();
  }
}

/** `changes` title changes to `count` clients: the floor peer's, then ours (each process fresh). */
export async function benchPush(ice: Icecast, count: number, changes: number): Promise<PushResult> {
  const floor = await benchFloor(count, changes);
  return { ...(await withCleanup((cleanup) => benchApp(cleanup, ice, count, changes))), floor };
}

/**
 * The floor server: answers each request with a head and a first event, then, for each title
 * read on stdin, writes one event of our size to every socket in one loop and prints the timing.
 */
function runFloor(): void {
  const sockets: Socket[] = [];
  const head = 'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\nretry: 3000\n\n';
  const server = createServer({ noDelay: true }, (socket) => {
    socket.on('error', () => {});
    socket.once('data', () => {
      socket.write(`${head}data: {}\n\n`);
      sockets.push(socket);
    });
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`port ${typeof address === 'object' && address ? address.port : 0}\n`);
  });
  createInterface({ input: process.stdin }).on('line', (title) => {
    const bytes = eventOf({ live: true, title, listeners: 0 });
    const startedAt = now();
    const [thread, all] = [process.threadCpuUsage(), process.cpuUsage()];
    for (const socket of sockets) socket.write(bytes);
    // As fan-out.ts counts it: the writes' callbacks on the next tick included.
    process.nextTick(() => {
      const used = process.threadCpuUsage(thread);
      const { user, system } = process.cpuUsage(all);
      const [userMs, systemMs] = [used.user / 1000, used.system / 1000];
      const writeMs = now() - startedAt;
      const timing: FanOutTiming = {
        clients: sockets.length,
        startedAt,
        writeMs,
        userMs,
        systemMs,
        writeCpuMs: userMs + systemMs,
        processCpuMs: (user + system) / 1000,
        turns: 1,
      };
      process.stdout.write(`${JSON.stringify(timing)}\n`);
    });
  });
  process.stdin.on('end', () => process.exit(0));
}

if (import.meta.main && process.argv[2] === '--client') await runClient(JSON.parse(process.argv[3]!) as ClientSpec);
if (import.meta.main && process.argv[2] === '--floor') runFloor();

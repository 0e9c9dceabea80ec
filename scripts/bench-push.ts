/**
 * The now-playing push under `npm run bench:stream`: N Server-Sent Events clients (default 10,000)
 * on one app process (as shipped), following a real Icecast. Printed: RSS growth per client (RSS
 * with every client connected and given its first event, minus the idle server's, over N) and how
 * long one title change (Icecast's admin metadata update) takes to reach them: from the update to
 * the first and the last client, and the spread between them (the fan-out). Clients are a child
 * process (its own work stays out of the server's figures) on raw sockets.
 * Goals (issue 20): at most 16 KiB per client, fan-out at most 100 ms.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { startApp } from '../test/support/app-process.ts';
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

/** One push client: resolves its socket once the first event came; `arrived` is when `title` did. */
function follow(port: number, title: string, arrivals: number[]): Promise<Socket> {
  return new Promise((resolve, reject) => {
    let text = '';
    let ready = false;
    let done = false;
    const socket = connect({ host: '127.0.0.1', port }, () =>
      socket.write(`GET ${EVENTS} HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n`),
    );
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (done) return;
      text += chunk;
      if (!ready && text.includes('data: ')) {
        ready = true;
        resolve(socket);
      }
      if (text.includes(title)) {
        done = true;
        arrivals.push(now());
        text = '';
      } else if (text.length > 4096) text = text.slice(-1024);
    });
    socket.on('error', reject);
  });
}

/** The client process: connects `count` clients, says "ready", then reports when the title reached each. */
async function runClient(spec: ClientSpec): Promise<void> {
  const arrivals: number[] = [];
  const sockets: Socket[] = [];
  for (let i = 0; i < spec.count; i += 500) {
    const batch = Array.from({ length: Math.min(500, spec.count - i) }, () => follow(spec.port, spec.title, arrivals));
    sockets.push(...(await Promise.all(batch)));
  }
  process.stdout.write('ready\n');
  const deadline = now() + 30_000;
  while (arrivals.length < spec.count && now() < deadline) await sleep(20);
  process.stdout.write(
    `${JSON.stringify({ first: Math.min(...arrivals), last: Math.max(...arrivals), got: arrivals.length })}\n`,
  );
  for (const socket of sockets) socket.destroy();
}

export interface PushResult {
  clients: number;
  got: number;
  rssPerClientKiB: number;
  firstMs: number;
  lastMs: number;
  fanOutMs: number;
}

export async function benchPush(ice: Icecast, count: number): Promise<PushResult> {
  const app = await startApp({
    LOG_LEVEL: 'warn',
    STREAM_UPSTREAM_HOST: '127.0.0.1',
    STREAM_PORT_MAP: `8076:${ice.port}`,
    STREAM_MAX_EVENT_CLIENTS: String(count + 100),
    STREAM_MAX_LISTENERS_PER_CLIENT: String(count + 100),
  });
  try {
    const pid = app.child.pid!;
    await sleep(1_000);
    const idle = rssKiB(pid);
    const title = `Bench title ${Date.now()}`;
    const spec: ClientSpec = { port: app.port, count, title };
    const client = spawn(process.execPath, [new URL(import.meta.url).pathname, '--client', JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
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
    const { first, last, got } = JSON.parse(lines.at(-1)!) as { first: number; last: number; got: number };
    return {
      clients: count,
      got,
      rssPerClientKiB,
      firstMs: first - changedAt,
      lastMs: last - changedAt,
      fanOutMs: last - first,
    };
  } finally {
    await app.stop();
  }
}

if (import.meta.main && process.argv[2] === '--client') await runClient(JSON.parse(process.argv[3]!) as ClientSpec);

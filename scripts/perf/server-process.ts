/**
 * The built server (dist/server/main.js) as a child process for benchmarks and the load suite:
 * optionally pinned to one CPU, its JSON log written to a file (a pipe read into memory would
 * grow with every request under load).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { freePort, shippedServerArgs } from '../../test/support/app-process.ts';

export const SERVER_ENTRY = 'dist/server/main.js';
export const TASKSET = existsSync('/usr/bin/taskset') ? '/usr/bin/taskset' : null;

export interface ServerProcess {
  name: string;
  pid: number;
  port: number;
  url: string;
  logFile: string;
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  alive(): boolean;
  /** Resident memory now, in KB (from /proc). */
  rssKb(): number;
  logLines(): Array<Record<string, unknown>>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServerOptions {
  name: string;
  logFile: string;
  env?: Record<string, string>;
  cpu?: number;
}

export function requireBuild(): void {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run "npm run build" first`);
}

export async function startServerProcess(options: ServerOptions): Promise<ServerProcess> {
  requireBuild();
  const port = await freePort();
  const fd = openSync(options.logFile, 'a');
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...options.env,
    PORT: String(port),
  };
  // As shipped: `npm start`'s node flags too.
  const node = [process.execPath, ...shippedServerArgs()];
  const [command, ...args] =
    options.cpu !== undefined && TASKSET ? [TASKSET, '-c', String(options.cpu), ...node] : node;
  // taskset execs node: the child's pid is the server's.
  const child = spawn(command!, args, { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const alive = () => child.exitCode === null && child.signalCode === null;

  const deadline = Date.now() + 15_000;
  for (;;) {
    if (!alive())
      throw new Error(`${options.name} exited early:\n${readFileSync(options.logFile, 'utf8').slice(-2_000)}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not become healthy`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }

  return {
    name: options.name,
    pid: child.pid!,
    port,
    url,
    logFile: options.logFile,
    child,
    exited,
    alive,
    rssKb: () => rssKb(child.pid!),
    logLines: () =>
      readFileSync(options.logFile, 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (!alive()) return child.exitCode;
      child.kill(signal);
      const force = setTimeout(() => child.kill('SIGKILL'), 12_000);
      const code = await exited;
      clearTimeout(force);
      return code;
    },
  };
}

/** VmRSS of a process in KB (0 once it is gone). */
export function rssKb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

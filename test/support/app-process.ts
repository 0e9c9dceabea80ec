/**
 * The built server (dist/server/main.js) as its own process on 127.0.0.1, exactly as `npm start`
 * runs it: for the integration tests, the load suite and the benchmarks. Optionally pinned to one
 * CPU (benchmarks), its JSON log kept in memory (tests) or written to a file (under load a pipe read
 * into memory would grow with every request), straight or through a socket as in production.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { findCommand, requireCommand } from './system-deps.ts';
import { sleep } from './wait.ts';

export const SERVER_ENTRY = 'dist/server/main.js';
export const TASKSET = findCommand('taskset');

/**
 * `argv` run on one CPU through taskset (which execs it: the pid is the program's), or as is when no
 * CPU is asked for. A CPU asked for without taskset is an error, not a run that is silently unpinned.
 */
export function onCpu(cpu: number | undefined, argv: string[]): string[] {
  if (cpu === undefined) return argv;
  return [requireCommand('pinning to a CPU', 'taskset', 'util-linux'), '-c', String(cpu), ...argv];
}
/** Only stops a hung start: the server is healthy in well under a second on an idle machine. */
const HEALTHY_WITHIN_MS = 60_000;
/** After SIGTERM the server exits by itself within its shutdown timeout (8 s) plus 1 s; then SIGKILL. */
const KILL_AFTER_MS = 15_000;

/**
 * Calls `each` for every complete line of a log the server may be writing (a last line without its
 * newline is not complete yet). Read in chunks: a load run's request log outgrows V8's longest string.
 */
export function forEachCompleteLine(file: string, each: (line: string) => void): void {
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(1 << 20);
  let partial = Buffer.alloc(0);
  try {
    for (let n = readSync(fd, chunk); n > 0; n = readSync(fd, chunk)) {
      const bytes = Buffer.concat([partial, chunk.subarray(0, n)]);
      const end = bytes.lastIndexOf(0x0a) + 1;
      for (const line of bytes.toString('utf8', 0, end).split('\n')) if (line) each(line);
      partial = Buffer.from(bytes.subarray(end));
    }
  } finally {
    closeSync(fd);
  }
}

export interface AppProcess {
  name: string;
  pid: number;
  url: string;
  port: number;
  child: ChildProcess;
  /** Log lines so far (read from the log file when there is one). */
  readonly logs: string[];
  /** The JSON log lines, parsed; with `keep`, only those it keeps (a long log is never held whole). */
  logLines(keep?: (entry: Record<string, unknown>) => boolean): Array<Record<string, unknown>>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  alive(): boolean;
  /** Resident memory now, in KB (from /proc). */
  rssKb(): number;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface AppProcessOptions {
  /** Names the process in messages (default "app"). */
  name?: string;
  /** Append the server's stdout and stderr to this file instead of keeping them in memory. */
  logFile?: string;
  /**
   * With logFile: the server writes to a socket pair, as under systemd (journald) or Docker, and a
   * `cat` pinned to this CPU appends it to the file. Straight to a file, every 16 KiB of log is an
   * ext4 append on the server's own CPU, which no deployment of ours has (benchmarks).
   */
  logReaderCpu?: number;
  /** Pin the server to this CPU with taskset (benchmarks). */
  cpu?: number;
  /** Node's arguments (flags and the entry); default: as `npm start` runs it. */
  args?: string[];
}

/** A free TCP port on 127.0.0.1 (the OS picks it; we release it and hand it on). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The server's arguments exactly as shipped: `npm start` ("node <flags> dist/server/main.js" in
 * package.json; the Dockerfile's CMD is the same, test/start-command.test.ts checks), so tests and
 * benchmarks run the server with the flags production has.
 */
export function shippedServerArgs(): string[] {
  const { scripts } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [node, ...args] = (scripts.start ?? '').split(/\s+/);
  if (node !== 'node' || args.at(-1) !== SERVER_ENTRY)
    throw new Error(`package.json "start" is not "node [flags] ${SERVER_ENTRY}": ${scripts.start}`);
  return args;
}

export function requireBuild(): void {
  if (!existsSync(SERVER_ENTRY)) throw new Error(`${SERVER_ENTRY} is missing: run "npm run build" first`);
}

/**
 * Starts the built server with `env` on top of this process's environment and waits for /healthz.
 * Rewind is off unless `env` turns it on (REWIND=on and a REWIND_DIR of the test's own): a recorder
 * is one more listener at the station, which the stream tests count.
 */
export async function startApp(env: Record<string, string> = {}, options: AppProcessOptions = {}): Promise<AppProcess> {
  requireBuild();
  const name = options.name ?? 'app';
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const fullEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    REWIND: 'off',
    ...env,
    PORT: String(port),
  };
  const node = [process.execPath, ...(options.args ?? shippedServerArgs())];
  const [command, ...args] = onCpu(options.cpu, node);

  const memory: string[] = [];
  let child: ChildProcess;
  let reader: ChildProcess | undefined;
  if (options.logFile) {
    const fd = openSync(options.logFile, 'a');
    if (options.logReaderCpu !== undefined) {
      const [cat, ...catArgs] = onCpu(options.logReaderCpu, ['cat']);
      reader = spawn(cat!, catArgs, { stdio: ['pipe', fd, fd] });
      child = spawn(command!, args, { env: fullEnv, stdio: ['ignore', reader.stdin!, reader.stdin!] });
      // The server now holds the only write end: cat sees the end of its input when the server exits.
      reader.stdin!.destroy();
    } else {
      child = spawn(command!, args, { env: fullEnv, stdio: ['ignore', fd, fd] });
    }
    closeSync(fd);
  } else {
    child = spawn(command!, args, { env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    // Whole lines only: a pipe's chunk can end in the middle of one.
    for (const output of [child.stdout, child.stderr])
      if (output) createInterface({ input: output }).on('line', (line) => line && memory.push(line));
  }
  const logFile = options.logFile;
  const eachLine = (each: (line: string) => void) => {
    if (logFile) forEachCompleteLine(logFile, each);
    else for (const line of memory) each(line);
  };
  const lines = (): string[] => {
    const all: string[] = [];
    eachLine((line) => all.push(line));
    return all;
  };
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const readerDone = new Promise<void>((resolve) =>
    !reader || reader.exitCode !== null ? resolve() : reader.once('exit', () => resolve()),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const url = `http://127.0.0.1:${port}`;

  const deadline = Date.now() + HEALTHY_WITHIN_MS;
  for (;;) {
    if (!alive()) throw new Error(`${name} exited early (${child.exitCode}):\n${lines().slice(-40).join('\n')}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} did not become healthy:\n${lines().slice(-40).join('\n')}`);
    }
    await sleep(50);
  }

  return {
    name,
    pid: child.pid!,
    url,
    port,
    child,
    get logs() {
      return lines();
    },
    logLines(keep = () => true) {
      const kept: Array<Record<string, unknown>> = [];
      eachLine((line) => {
        if (!line.startsWith('{')) return;
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (keep(entry)) kept.push(entry);
      });
      return kept;
    },
    exited,
    alive,
    rssKb: () => rssKb(child.pid!),
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (!alive()) return child.exitCode;
      child.kill(signal);
      const force = setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS);
      const code = await exited;
      clearTimeout(force);
      await readerDone;
      return code;
    },
  };
}

const CLOCK_TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** CPU time (user + system) a process and its children (nginx's workers) have used, in ms. */
export function cpuMs(pid: number): number {
  try {
    // Fields after the parenthesised name: state is 3rd; utime and stime are the 14th and 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return own + children.reduce((sum, child) => sum + cpuMs(Number(child)), 0);
  } catch {
    return 0;
  }
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

/**
 * wrk (Debian package) as a measuring tool: runs it, optionally pinned to one CPU, and reads
 * its report. A Lua script may print one `WRK_JSON {...}` line of its own figures.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { onCpu } from '../../test/support/app-process.ts';

export const WRK_BIN = ['/usr/bin/wrk', '/usr/local/bin/wrk'].find((p) => existsSync(p)) ?? null;

export interface WrkOptions {
  url: string;
  connections: number;
  durationS: number;
  threads?: number;
  headers?: Record<string, string>;
  /** Path of a Lua script. */
  script?: string;
  cpu?: number;
  /** Per-request timeout; wrk counts a slower answer as a timeout error. */
  timeoutS?: number;
}

export interface WrkResult {
  requests: number;
  rps: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
  errors: { connect: number; read: number; write: number; timeout: number };
  /** Responses that were not 2xx or 3xx. */
  non2xx3xx: number;
  custom: Record<string, number> | null;
  raw: string;
}

export function requireWrk(): string {
  if (!WRK_BIN) throw new Error('wrk is not installed (Debian package "wrk"; see scripts/install-system-deps.sh)');
  return WRK_BIN;
}

export function runWrk(options: WrkOptions): Promise<WrkResult> {
  const wrk = requireWrk();
  const args = [
    `-t${options.threads ?? 1}`,
    `-c${options.connections}`,
    `-d${options.durationS}s`,
    `--timeout`,
    `${options.timeoutS ?? 5}s`,
    '--latency',
    ...Object.entries(options.headers ?? {}).flatMap(([k, v]) => ['-H', `${k}: ${v}`]),
    ...(options.script ? ['-s', options.script] : []),
    options.url,
  ];
  const [command, ...rest] = onCpu(options.cpu, [wrk, ...args]);
  return new Promise((resolve, reject) => {
    const child = spawn(command!, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`wrk exited with ${code}:\n${out}`));
      else resolve(parseWrk(out));
    });
  });
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

function ms(text: string | undefined): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text ?? '');
  return m ? Number(m[1]) * UNIT_MS[m[2]!]! : Number.NaN;
}

export function parseWrk(raw: string): WrkResult {
  const percentile = (p: number) => ms(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(raw)?.[1]);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(raw);
  const json = /^WRK_JSON (\{.*\})$/m.exec(raw)?.[1];
  return {
    requests: Number(/(\d+) requests in/.exec(raw)?.[1] ?? Number.NaN),
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(raw)?.[1] ?? Number.NaN),
    p50Ms: percentile(50),
    p90Ms: percentile(90),
    p99Ms: percentile(99),
    maxMs: ms(/^\s+Latency\s+\S+\s+\S+\s+(\S+)/m.exec(raw)?.[1]),
    errors: {
      connect: Number(errors?.[1] ?? 0),
      read: Number(errors?.[2] ?? 0),
      write: Number(errors?.[3] ?? 0),
      timeout: Number(errors?.[4] ?? 0),
    },
    non2xx3xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(raw)?.[1] ?? 0),
    custom: json ? (JSON.parse(json) as Record<string, number>) : null,
    raw,
  };
}

export const errorCount = (r: WrkResult) => r.errors.connect + r.errors.read + r.errors.write + r.errors.timeout;

/**
 * Where each server's CPU goes per request, by sampling: the variants (scripts/perf/variants.ts)
 * serve the cached home page in turn, in short wrk rounds, and `perf record` samples the server's
 * CPU (4,000 samples a second of CPU time) through each round. Printed: CPU per request by
 * samples, then the functions (JavaScript by name, with --perf-basic-prof; Node, V8 and the
 * kernel) whose time per request differs most between the first two variants. Samples count only
 * CPU the server got, so a busy machine inflates every figure but shifts them far less than
 * req/s or wall time do: what it finds is where to look, and `npm run bench` on a quiet machine
 * says what a change was worth. Needs `perf` (Debian package linux-perf) and taskset.
 *
 *   node scripts/perf/samples.ts ROUNDS A B [C...]
 *   e.g. node scripts/perf/samples.ts 6 app=--max-semi-space-size=1 bare=bare
 *        node scripts/perf/samples.ts 6 app=--max-semi-space-size=1 nolog=--max-semi-space-size=1%LOG_LEVEL=silent
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppProcess, requireBuild, TASKSET } from '../../test/support/app-process.ts';
import { homeWrk, loadAverage, parseVariant, startVariants, type Variant } from './variants.ts';

const SECONDS = 3;
const HZ = 4_000;
const SHOWN = 30;

const PERF = ['/usr/bin/perf', '/usr/local/bin/perf'].find((path) => {
  try {
    execFileSync(path, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

/** Samples per function in one recording. */
function samplesBySymbol(file: string): Map<string, number> {
  const report = execFileSync(
    PERF!,
    ['report', '-i', file, '--stdio', '--no-children', '-g', 'none', '--sort', 'sym', '-n', '-q'],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  const counts = new Map<string, number>();
  for (const line of report.split('\n')) {
    const match = /^\s*[\d.]+%\s+(\d+)\s+(.+?)\s*$/.exec(line);
    if (match) counts.set(match[2]!, (counts.get(match[2]!) ?? 0) + Number(match[1]));
  }
  return counts;
}

/** One round of one server: wrk for SECONDS while perf samples the server. */
async function sampledRound(pid: number, run: () => Promise<{ requests: number }>, file: string) {
  const perf = spawn(PERF!, ['record', '-e', 'cpu-clock', '-F', String(HZ), '-p', String(pid), '-o', file], {
    stdio: 'ignore',
  });
  const stopped = new Promise((resolve) => perf.once('exit', resolve));
  const { requests } = await run();
  perf.kill('SIGINT');
  await stopped;
  return { requests, symbols: samplesBySymbol(file) };
}

interface Tally {
  requests: number;
  symbols: Map<string, number>;
}

const usPerRequest = (samples: number, requests: number) => (samples * 1e6) / HZ / requests;

function report(names: string[], tallies: Map<string, Tally>): void {
  for (const name of names) {
    const { requests, symbols } = tallies.get(name)!;
    const total = [...symbols.values()].reduce((a, b) => a + b, 0);
    console.log(`${name}: ${requests} requests, ${usPerRequest(total, requests).toFixed(2)} µs of CPU per request`);
  }
  const [a, b] = names.map((name) => tallies.get(name)!) as [Tally, Tally];
  const rows = [...new Set([...a.symbols.keys(), ...b.symbols.keys()])].map((symbol) => {
    const x = usPerRequest(a.symbols.get(symbol) ?? 0, a.requests);
    const y = usPerRequest(b.symbols.get(symbol) ?? 0, b.requests);
    return { symbol, x, y, diff: x - y };
  });
  rows.sort((p, q) => Math.abs(q.diff) - Math.abs(p.diff));
  console.log(`\nµs per request, ${names[0]} against ${names[1]} (largest differences first):`);
  for (const row of rows.slice(0, SHOWN))
    console.log(
      `${row.diff >= 0 ? '+' : ''}${row.diff.toFixed(3)}  ${row.x.toFixed(3)} ${row.y.toFixed(3)}  ${row.symbol}`,
    );
}

/** One round: each variant in turn (the order reversed every other round), its samples added to its tally. */
async function sampleRound(
  round: number,
  variants: Variant[],
  servers: Map<Variant, AppProcess>,
  tallies: Map<string, Tally>,
  dir: string,
): Promise<void> {
  for (const variant of round % 2 ? variants : [...variants].reverse()) {
    const server = servers.get(variant)!;
    const run = await sampledRound(
      server.pid,
      () => homeWrk(server, SECONDS),
      join(dir, `${variant.name}-${round}.data`),
    );
    const tally = tallies.get(variant.name)!;
    tally.requests += run.requests;
    for (const [symbol, n] of run.symbols) tally.symbols.set(symbol, (tally.symbols.get(symbol) ?? 0) + n);
  }
  console.log(`round ${round} done`);
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2]);
  const variants = process.argv.slice(3).map(parseVariant);
  if (!(rounds > 0) || variants.length < 2) throw new Error('usage: samples.ts ROUNDS A B [C...]');
  if (!PERF) throw new Error('perf is not installed (Debian package linux-perf)');
  if (!TASKSET || availableParallelism() < 2) throw new Error('samples.ts needs taskset (util-linux) and two CPUs');
  requireBuild();
  // JavaScript functions by name in perf's report.
  for (const variant of variants) variant.flags.push('--perf-basic-prof');
  const servers = await startVariants(variants, SECONDS);
  const dir = mkdtempSync(join(tmpdir(), 'samples-'));
  const tallies = new Map<string, Tally>(variants.map((v) => [v.name, { requests: 0, symbols: new Map() }]));
  try {
    console.log(`load average before: ${loadAverage()}`);
    for (let round = 1; round <= rounds; round++) await sampleRound(round, variants, servers, tallies, dir);
    report(
      variants.map((v) => v.name),
      tallies,
    );
    console.log(`load average after: ${loadAverage()}`);
  } finally {
    await Promise.all([...servers.values()].map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);

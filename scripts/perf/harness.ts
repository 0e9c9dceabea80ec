/**
 * What every bench (and the load suite) shares: where servers and clients run (pinned to one CPU
 * each when the machine has two and taskset), starting a server as deployed, waiting for it to go
 * idle, interleaved rounds with same-round ratios, what a process has used (/proc), the load
 * average, tables, and stopping everything started, in reverse order, whatever happens.
 * On a shared machine two figures compare only when taken seconds apart (decision 016).
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppProcess, cpuMs, rssKb, startApp, TASKSET } from '../../test/support/app-process.ts';
import { median } from '../../test/support/stats.ts';
import { sleep } from '../../test/support/wait.ts';
import { table } from '../text-table.ts';

export { cpuMs, median, rssKb, table };

/** Servers on CPU 0, clients (wrk, load processes, log readers) on CPU 1; both undefined when not pinned. */
export const pinned = TASKSET !== null && availableParallelism() >= 2;
export const SERVER_CPU = pinned ? 0 : undefined;
export const CLIENT_CPU = pinned ? 1 : undefined;

/** Why the run is not pinned, said before anything is measured (unpinned figures swing more). */
export function warnIfUnpinned(): void {
  if (pinned) return;
  const why =
    TASKSET === null ? 'taskset is not installed (Debian package "util-linux")' : `${availableParallelism()} CPU only`;
  console.warn(`warning: ${why}: servers and clients run unpinned, sharing CPUs; the ratios are less comparable`);
}

/** Where servers and clients run, in a line. */
export const placement = () =>
  pinned
    ? `servers on CPU ${SERVER_CPU}, clients on CPU ${CLIENT_CPU}`
    : 'NOT PINNED (taskset or a second CPU missing)';

/** The load average, 1/5/15 min, with the CPU count: other work on the machine skews every figure. */
export const loadAverage = () =>
  `${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${availableParallelism()} CPUs`;

/** A figure with `digits` decimals, or n/a. */
export const fixed = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const mb = (kbytes: number) => `${(kbytes / 1024).toFixed(1)} MB`;

/** The value below which `p` per cent of `xs` fall (NaN for none). */
export function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : Number.NaN;
}

/** A process's child PIDs (nginx's workers). */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Everything a run starts, stopped in reverse order at the end, even when the run fails. */
export class Cleanup {
  private readonly stops: Array<() => unknown> = [];

  /** `thing`, with what stops it; returned for chaining. */
  add<T>(thing: T, stop: (thing: T) => unknown): T {
    this.stops.push(() => stop(thing));
    return thing;
  }

  async run(): Promise<void> {
    for (const stop of this.stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        console.error(`cleanup: ${error instanceof Error ? error.message : error}`);
      }
    }
  }
}

/** A new folder in the system's temporary one, removed with everything in it by `cleanup`. */
export function tempDir(cleanup: Cleanup, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755); // nginx's workers read the benches' files in it
  return cleanup.add(dir, (d) => rmSync(d, { recursive: true, force: true }));
}

/** `body` with a Cleanup that is run when it ends, however it ends. */
export async function withCleanup<T>(body: (cleanup: Cleanup) => Promise<T>): Promise<T> {
  const cleanup = new Cleanup();
  try {
    return await body(cleanup);
  } finally {
    await cleanup.run();
  }
}

/**
 * A built server as deployed, pinned where the servers run: its log goes to a socket whose reader
 * (a `cat` on the clients' CPU, standing in for journald or Docker) appends it to a file in `dir`.
 * `args` replace `npm start`'s (another build, the bare peer); stopped by `cleanup`.
 */
export function startServer(
  cleanup: Cleanup,
  dir: string,
  name: string,
  env: Record<string, string> = {},
  args?: string[],
): Promise<AppProcess> {
  return startApp(env, {
    name,
    logFile: join(dir, `${name.replaceAll(' ', '-')}.log`),
    ...(args && { args }),
    ...(SERVER_CPU !== undefined && { cpu: SERVER_CPU }),
    ...(CLIENT_CPU !== undefined && { logReaderCpu: CLIENT_CPU }),
  }).then((server) => cleanup.add(server, (s) => s.stop()));
}

/**
 * Waits until a server has done what the last load left it (the uncached app finishes ~200 ms of
 * renders after wrk stops): at most one clock tick of CPU in 200 ms, or 3 s. Without it, that work
 * shares the CPU with the first moments of the next target's round.
 */
export async function settle(pid: number): Promise<void> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const before = cpuMs(pid);
    await sleep(200);
    if (cpuMs(pid) - before <= 10 || Date.now() > deadline) return;
  }
}

/** Each item's results, one per round, by name. */
export type Rounds<R> = Map<string, R[]>;

/**
 * `rounds` rounds over every item in turn, so that items compared are measured seconds apart and
 * the machine's slow phases fall on all of them alike; `afterRound` sees the results so far.
 */
export async function interleave<T extends { name: string }, R>(
  rounds: number,
  items: readonly T[],
  measure: (item: T, round: number) => Promise<R>,
  afterRound?: (round: number, results: Rounds<R>) => void,
): Promise<Rounds<R>> {
  const results: Rounds<R> = new Map(items.map((item) => [item.name, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const item of items) results.get(item.name)!.push(await measure(item, round));
    afterRound?.(round, results);
  }
  return results;
}

/** Each round's `of` ÷ `to` of a figure, in round order. */
export const sameRound = <R>(results: Rounds<R>, of: string, to: string, figure: (r: R) => number) =>
  results.get(of)!.map((r, i) => figure(r) / figure(results.get(to)![i]!));

/** Per-round ratios as their median and every round's value, in a few words. */
export const perRound = (each: number[], digits = 3) =>
  `same-round median ${fixed(median(each), digits)} (${each.map((r) => fixed(r, 2)).join(', ')})`;

/** Checks as a table of target, measured and PASS/FAIL; true when all pass. */
export function checkTable(checks: Array<[string, string, boolean]>): { text: string; ok: boolean } {
  return {
    text: table(
      ['target', 'measured', 'result'],
      checks.map(([name, value, ok]) => [name, value, ok ? 'PASS' : 'FAIL']),
    ),
    ok: checks.every(([, , ok]) => ok),
  };
}

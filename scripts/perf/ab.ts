/**
 * A paired A/B of the app under different Node flags (or builds): every variant serves the cached
 * home page, the variants take turns in short wrk rounds (order reversed every round), servers on
 * CPU 0, wrk on CPU 1, each log to a socket as `npm run bench` does. Printed: each round, then per
 * variant the median req/s, CPU per request and RSS, and against the first variant the median of
 * the per-round ratios and in how many rounds it was ahead. Run an A/A (the same variant twice)
 * beside it to see what the machine's noise alone gives.
 *
 *   node scripts/perf/ab.ts ROUNDS NAME=FLAGS[@DIST_DIR][%VAR=VALUE,...] ...
 *     or NAME=bare[:FLAGS], the bare Node peer (scripts/perf/variants.ts says what each part means)
 *   e.g. node scripts/perf/ab.ts 12 semi1=--max-semi-space-size=1 none=none
 *        node scripts/perf/ab.ts 12 off=--max-semi-space-size=1 on=--max-semi-space-size=1%METRICS_PORT=free
 *        node scripts/perf/ab.ts 12 app=--max-semi-space-size=1 bare=bare
 *
 * AB_SECONDS (default 2) sets a round's length per variant.
 */
import { availableParallelism } from 'node:os';
import { type AppProcess, cpuMs, requireBuild, TASKSET } from '../../test/support/app-process.ts';
import { median } from '../../test/support/stats.ts';
import { homeWrk, loadAverage, parseVariant, startVariants, type Variant } from './variants.ts';

const SECONDS = Number(process.env.AB_SECONDS ?? 2);

interface Round {
  rps: number;
  cpuUs: number;
  rssKb: number;
}

async function measure(app: AppProcess): Promise<Round> {
  const before = cpuMs(app.pid);
  const result = await homeWrk(app, SECONDS);
  if (result.non2xx3xx > 0) throw new Error(`${app.name}: ${result.non2xx3xx} answers not 2xx/3xx`);
  return { rps: result.rps, cpuUs: ((cpuMs(app.pid) - before) * 1000) / result.requests, rssKb: app.rssKb() };
}

function report(variants: Variant[], rounds: Map<string, Round[]>): void {
  const base = rounds.get(variants[0]!.name)!;
  for (const { name } of variants) {
    const own = rounds.get(name)!;
    const ratios = own.map((r, i) => r.rps / base[i]!.rps);
    const cpuRatios = own.map((r, i) => r.cpuUs / base[i]!.cpuUs);
    console.log(
      `${name}: median ${median(own.map((r) => r.rps)).toFixed(0)} req/s, CPU ${median(own.map((r) => r.cpuUs)).toFixed(1)} µs/req, ` +
        `RSS ${(median(own.map((r) => r.rssKb)) / 1024).toFixed(1)} MB; against ${variants[0]!.name}: req/s ratio median ` +
        `${median(ratios).toFixed(3)} (ahead in ${ratios.filter((r) => r > 1).length} of ${own.length}), CPU ratio median ${median(cpuRatios).toFixed(3)}`,
    );
  }
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2]);
  const variants = process.argv.slice(3).map(parseVariant);
  if (!(rounds > 0) || variants.length < 2)
    throw new Error('usage: ab.ts ROUNDS NAME=FLAGS[@DIST_DIR] NAME=... (or NAME=bare)');
  if (!TASKSET || availableParallelism() < 2) throw new Error('the A/B needs taskset (util-linux) and two CPUs');
  requireBuild();
  const apps: Array<[Variant, AppProcess]> = [...(await startVariants(variants, SECONDS))];
  try {
    console.log(`load average before: ${loadAverage()}`);
    const results = new Map<string, Round[]>(variants.map((v) => [v.name, []]));
    for (let round = 1; round <= rounds; round++) {
      const line: string[] = [];
      for (const [variant, app] of round % 2 ? apps : [...apps].reverse()) {
        const r = await measure(app);
        results.get(variant.name)!.push(r);
        line.push(`${variant.name} ${r.rps.toFixed(0)} req/s ${r.cpuUs.toFixed(1)} µs`);
      }
      console.log(`round ${round}: ${line.join(', ')}`);
    }
    report(variants, results);
    console.log(`load average after: ${loadAverage()}`);
  } finally {
    await Promise.all(apps.map(([, app]) => app.stop()));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(2);
  },
);

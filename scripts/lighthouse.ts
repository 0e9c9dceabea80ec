/**
 * By hand, after `npm run build`: `node scripts/lighthouse.ts [runs]` starts the built app, audits
 * the pages with Lighthouse (test/support/lighthouse.ts), prints the median figures and the audits
 * that lost points, and exits non-zero when a page misses a target. Timings vary with the machine:
 * this is a benchmark, not a test; the load average is printed beside the figures.
 *
 * Two kinds of A/B, the same routes audited in interleaved runs (A B, B A, ...), a table each and
 * the TBT medians side by side:
 * - `node scripts/lighthouse.ts [runs] --ab=<chromium flag>`: one launcher flag; two Chromiums,
 *   without (A) and with (B) it, on the same app;
 * - `node scripts/lighthouse.ts [runs] --ab-dist=<dir>`: two builds; A is the app built into <dir>
 *   (a copy of an earlier `dist`, kept inside the repository so that it finds node_modules), B the
 *   one in `dist`, audited by the same Chromium.
 * `--paths=/,/about` audits those routes only (default: every route).
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type AppProcess, freePort, shippedServerArgs, startApp } from '../test/support/app-process.ts';
import {
  AUDITED_PATHS,
  auditPage,
  type Chromium,
  formatFailures,
  formatTable,
  type Lhr,
  launchChromium,
  missedTargets,
  type PageResult,
  runOnce,
  summarisePage,
  warmPageCache,
  warmUpChromium,
} from '../test/support/lighthouse.ts';

// The harness moved to test/support; scripts that imported it from here keep working.
export * from '../test/support/lighthouse.ts';

const load = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`;

/** One side of an A/B: an app and the Chromium that audits it. */
interface Side {
  label: string;
  baseUrl: string;
  port: number;
}

async function startBuiltApp(distDir?: string): Promise<AppProcess> {
  const port = await freePort();
  const env = { PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' };
  if (!distDir) return startApp(env);
  const args = shippedServerArgs();
  return startApp({ ...env, DIST_DIR: distDir }, { args: [...args.slice(0, -1), join(distDir, 'server/main.js')] });
}

async function startChromium(baseUrl: string, flags: string[] = []): Promise<Chromium> {
  const chromium = await launchChromium(flags);
  await warmUpChromium(baseUrl, chromium.port);
  return chromium;
}

/** Both sides audit each route `runs` times, taking turns to go first. */
async function auditAB(
  sides: [Side, Side],
  paths: readonly string[],
  runs: number,
): Promise<[PageResult[], PageResult[]]> {
  const results: [PageResult[], PageResult[]] = [[], []];
  for (const path of paths) {
    const reports: [Lhr[], Lhr[]] = [[], []];
    const retries = [new Set<string>(), new Set<string>()] as const;
    for (let i = 0; i < runs; i++) {
      for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const { baseUrl, port } = sides[side]!;
        reports[side]!.push(await runOnce(baseUrl + path, port, retries[side]));
      }
    }
    results[0].push(summarisePage(path, reports[0], retries[0]));
    results[1].push(summarisePage(path, reports[1], retries[1]));
  }
  return results;
}

function report(results: PageResult[]): void {
  console.log(formatTable(results));
  const failures = formatFailures(results);
  if (failures) console.log(`\naudits that lost points:\n${failures}`);
  const missed = results.flatMap((r) => missedTargets(r.median).map((m) => `${r.path}: ${m}`));
  if (missed.length) {
    console.log(`\nmissed targets:\n${missed.join('\n')}`);
    process.exitCode = 1;
  }
}

function reportAB(sides: [Side, Side], [a, b]: [PageResult[], PageResult[]]): void {
  console.log(`A: ${sides[0].label}`);
  report(a);
  console.log(`\nB: ${sides[1].label}`);
  report(b);
  console.log(`\nTBT median, A (${sides[0].label}) / B (${sides[1].label}), ms:`);
  a.forEach((r, i) => {
    console.log(`${r.path.padEnd(9)} ${Math.round(r.median.tbtMs)} / ${Math.round(b[i]!.median.tbtMs)}`);
  });
}

/** The apps, the Chromiums and the two sides an A/B compares (one side without an A/B). */
async function setUp(abFlag: string | undefined, abDist: string | undefined, stack: { stop(): Promise<unknown> }[]) {
  const apps = [await startBuiltApp(abDist)];
  if (abDist) apps.push(await startBuiltApp());
  stack.push(...apps);
  for (const app of apps) await warmPageCache(app.url);
  const chromiums = [await startChromium(apps[0]!.url)];
  stack.push({ stop: () => chromiums[0]!.close() });
  if (abFlag) {
    chromiums.push(await startChromium(apps[0]!.url, [abFlag]));
    stack.push({ stop: () => chromiums[1]!.close() });
  }
  if (abDist) await warmUpChromium(apps[1]!.url, chromiums[0]!.port);
  const side = (label: string, app: AppProcess, chromium: Chromium): Side => ({
    label,
    baseUrl: app.url,
    port: chromium.port,
  });
  if (abFlag)
    return [side('without the flag', apps[0]!, chromiums[0]!), side(`with ${abFlag}`, apps[0]!, chromiums[1]!)];
  if (abDist) return [side(`the build in ${abDist}`, apps[0]!, chromiums[0]!), side('dist', apps[1]!, chromiums[0]!)];
  return [side('dist', apps[0]!, chromiums[0]!)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const runs = Number(args.find((x) => /^\d+$/.test(x)) ?? 3);
  const option = (name: string) => args.find((x) => x.startsWith(`--${name}=`))?.slice(name.length + 3);
  const stack: { stop(): Promise<unknown> }[] = [];
  console.log(`start: ${load()}`);
  try {
    const sides = await setUp(option('ab'), option('ab-dist'), stack);
    console.log('(one warm-up audit of / per Chromium and app after the start, not counted)');
    const paths = option('paths')?.split(',') ?? AUDITED_PATHS;
    if (sides.length === 2) reportAB(sides as [Side, Side], await auditAB(sides as [Side, Side], paths, runs));
    else {
      const results: PageResult[] = [];
      for (const path of paths) results.push(await auditPage(sides[0]!.baseUrl, path, sides[0]!.port, runs));
      report(results);
    }
  } finally {
    for (const item of stack.reverse()) await item.stop();
  }
  console.log(`end: ${load()}`);
}

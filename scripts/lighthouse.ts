/**
 * By hand, after `npm run build`: `node scripts/lighthouse.ts [runs]` starts the built app, audits
 * the pages with Lighthouse (test/support/lighthouse.ts), prints the median figures and the audits
 * that lost points, and exits non-zero when a page misses a target. Timings vary with the machine:
 * this is a benchmark, not a test; the load average is printed beside the figures.
 *
 * `node scripts/lighthouse.ts [runs] --ab=<chromium flag>`: an A/B of one launcher flag, two
 * Chromiums (without and with it) auditing the same routes in interleaved runs (A B, B A, ...),
 * a table each and the TBT medians side by side.
 */
import { loadavg } from 'node:os';
import { freePort, startApp } from '../test/support/app-process.ts';
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

async function startChromium(baseUrl: string, flags: string[] = []): Promise<Chromium> {
  const chromium = await launchChromium(flags);
  await warmUpChromium(baseUrl, chromium.port);
  return chromium;
}

/** Both Chromiums audit each route `runs` times, taking turns to go first. */
async function auditAB(baseUrl: string, a: Chromium, b: Chromium, runs: number): Promise<[PageResult[], PageResult[]]> {
  const results: [PageResult[], PageResult[]] = [[], []];
  for (const path of AUDITED_PATHS) {
    const reports: [Lhr[], Lhr[]] = [[], []];
    const retries = [new Set<string>(), new Set<string>()] as const;
    for (let i = 0; i < runs; i++) {
      for (const side of i % 2 === 0 ? [0, 1] : [1, 0]) {
        const port = (side === 0 ? a : b).port;
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

function reportAB(flag: string, [a, b]: [PageResult[], PageResult[]]): void {
  console.log('A: without the flag');
  report(a);
  console.log(`\nB: with ${flag}`);
  report(b);
  console.log(`\nTBT median, A (without) / B (with ${flag}), ms:`);
  a.forEach((r, i) => {
    console.log(`${r.path.padEnd(9)} ${Math.round(r.median.tbtMs)} / ${Math.round(b[i]!.median.tbtMs)}`);
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const runs = Number(args.find((x) => /^\d+$/.test(x)) ?? 3);
  const abFlag = args.find((x) => x.startsWith('--ab='))?.slice('--ab='.length);
  const port = await freePort();
  const app = await startApp({ PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' });
  const chromiums: Chromium[] = [];
  console.log(`start: ${load()}`);
  try {
    await warmPageCache(app.url);
    chromiums.push(await startChromium(app.url));
    if (abFlag) chromiums.push(await startChromium(app.url, [abFlag]));
    console.log('(one warm-up audit of / per Chromium after its start, not counted)');
    if (abFlag) reportAB(abFlag, await auditAB(app.url, chromiums[0]!, chromiums[1]!, runs));
    else {
      const results: PageResult[] = [];
      for (const path of AUDITED_PATHS) results.push(await auditPage(app.url, path, chromiums[0]!.port, runs));
      report(results);
    }
  } finally {
    for (const chromium of chromiums) await chromium.close();
    await app.stop();
  }
  console.log(`end: ${load()}`);
}

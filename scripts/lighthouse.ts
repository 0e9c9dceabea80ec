/**
 * By hand, after `npm run build`: `node scripts/lighthouse.ts [runs]` starts the built app, audits
 * the pages with Lighthouse (test/support/lighthouse.ts), prints the median figures and the audits
 * that lost points, and exits non-zero when a page misses a target. Timings vary with the machine:
 * this is a benchmark, not a test.
 */
import { freePort, startApp } from '../test/support/app-process.ts';
import {
  AUDITED_PATHS,
  auditPage,
  formatFailures,
  formatTable,
  launchChromium,
  missedTargets,
  type PageResult,
} from '../test/support/lighthouse.ts';

// The harness moved to test/support; scripts that imported it from here keep working.
export * from '../test/support/lighthouse.ts';

if (import.meta.url === `file://${process.argv[1]}`) {
  const runs = Number(process.argv[2] ?? 3);
  const port = await freePort();
  const app = await startApp({ PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' });
  const chromium = await launchChromium();
  const results: PageResult[] = [];
  try {
    for (const path of AUDITED_PATHS) results.push(await auditPage(app.url, path, chromium.port, runs));
  } finally {
    await chromium.close();
    await app.stop();
  }
  console.log(formatTable(results));
  const failures = formatFailures(results);
  if (failures) console.log(`\naudits that lost points:\n${failures}`);
  const missed = results.flatMap((r) => missedTargets(r.median).map((m) => `${r.path}: ${m}`));
  if (missed.length) {
    console.log(`\nmissed targets:\n${missed.join('\n')}`);
    process.exitCode = 1;
  }
}

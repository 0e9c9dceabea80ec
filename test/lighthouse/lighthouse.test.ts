/**
 * Lighthouse budgets (issue 5) on the built app: home, radio and books, mobile
 * settings (Lighthouse's defaults: mobile form factor, simulated throttling),
 * the median of 3 runs each. Targets: performance ≥ 95, accessibility 100,
 * SEO 100, CLS 0, TBT < 100 ms. The app runs with SITE_URL equal to its real
 * address, as in production: canonical URLs and robots.txt must match the
 * origin Lighthouse audits. LIGHTHOUSE_RUNS overrides the run count by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDITED_PATHS,
  auditPage,
  formatFailures,
  formatTable,
  launchChromium,
  missedTargets,
  type Chromium,
  type PageResult,
} from '../../scripts/lighthouse.ts';
import { freePort, startApp, type AppProcess } from '../support/app-process.ts';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);

let app: AppProcess;
let chromium: Chromium;
const results: PageResult[] = [];

beforeAll(async () => {
  const port = await freePort();
  [app, chromium] = await Promise.all([
    startApp({ PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' }),
    launchChromium(),
  ]);
  // Warm the page cache as production traffic would; Lighthouse measures the steady state.
  for (const path of AUDITED_PATHS) await (await fetch(app.url + path)).text();
});

afterAll(async () => {
  if (results.length > 0) {
    console.log(formatTable(results));
    const failures = formatFailures(results);
    if (failures) console.log(`audits that lost points:\n${failures}`);
  }
  await chromium?.close();
  await app?.stop();
});

describe(`Lighthouse, mobile, median of ${RUNS} runs`, () => {
  it.each(AUDITED_PATHS)(
    '%s: performance ≥ 95, accessibility 100, SEO 100, CLS 0, TBT < 100 ms',
    async (path) => {
      const result = await auditPage(app.url, path, chromium.port, RUNS);
      results.push(result);
      expect(result.runs).toHaveLength(RUNS);
      // The message names every audit that lost points and the elements it flags.
      expect(missedTargets(result.median), `${formatTable([result])}\n${formatFailures([result])}`).toEqual([]);
    },
    // About 8 s a run here; generous for a loaded CI machine.
    RUNS * 40_000,
  );
});

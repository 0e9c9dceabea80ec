/**
 * Lighthouse on the built app: home, radio and books, mobile settings (Lighthouse's defaults:
 * mobile form factor, simulated throttling). The gate asserts only what does not depend on how
 * busy the machine is, in every run: accessibility 100, SEO 100, every best-practices audit
 * (but the console errors of third-party loads, which fail on this closed network), and no
 * layout shift (CLS 0). The timing figures (performance score, TBT, LCP) are printed, and
 * measured properly by the client benchmark. The app runs with SITE_URL equal to its real
 * address, as in production: canonical URLs and robots.txt must match the origin Lighthouse
 * audits. LIGHTHOUSE_RUNS sets the runs per page (default 1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, freePort, startApp } from '../support/app-process.ts';
import {
  AUDITED_PATHS,
  auditPage,
  type Chromium,
  type FailingAudit,
  formatFailures,
  formatTable,
  launchChromium,
  type PageResult,
  warmPageCache,
} from '../support/lighthouse.ts';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);

let app: AppProcess;
let chromium: Chromium;
const results: PageResult[] = [];

beforeAll(async () => {
  const port = await freePort();
  [app, chromium] = await Promise.all([
    startApp({ PORT: String(port), SITE_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' }),
    launchChromium(),
  ]);
  await warmPageCache(app.url);
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

/** Every host but loopback resolves nowhere in the audit's Chromium: third-party loads fail by design. */
const blockedThirdParty = (item: string) =>
  !item.startsWith(app.url) && /^https?:\/\//.test(item) && item.includes('net::ERR_NAME_NOT_RESOLVED');

const ownBestPracticeFailures = (failing: FailingAudit[]) =>
  failing.filter(
    (f) => f.category === 'best-practices' && !(f.id === 'errors-in-console' && f.items.every(blockedThirdParty)),
  );

describe(`Lighthouse, mobile, ${RUNS} run(s) per page`, () => {
  it.each(AUDITED_PATHS)(
    '%s: accessibility 100, SEO 100, best practices, CLS 0',
    async (path) => {
      const result = await auditPage(app.url, path, chromium.port, RUNS);
      results.push(result);
      // The message names every audit that lost points and the elements it flags.
      const details = `${formatTable([result])}\n${formatFailures([result])}`;
      expect(result.runs).toHaveLength(RUNS);
      for (const run of result.runs) {
        expect({ accessibility: run.accessibility, seo: run.seo, cls: run.cls }, details).toEqual({
          accessibility: 100,
          seo: 100,
          cls: 0,
        });
      }
      expect(ownBestPracticeFailures(result.failing), details).toEqual([]);
    },
    // About 10 s a run here; the limit only stops a hung Chromium.
    RUNS * 120_000,
  );
});

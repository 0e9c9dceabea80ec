/**
 * After a deploy, a tab opened on the previous build keeps working (issue 21, decision 046): the
 * test copies the project, serves the current build from the copy's dist/, opens a tab, rebuilds
 * the copy with changed code into the same folder (`--out`, as `npm run build` does: the previous
 * build's retired files are kept), restarts the server on the same port as a deploy would, and
 * then follows a link to every route in the old tab. Each shows its heading in the same document
 * (no full page load, which would hide a missing chunk), no load fails and nothing throws.
 */
import { basename } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pages } from '../../src/shared/pages.ts';
import { DONATION_DISMISSED_KEY } from '../../src/shared/ui/components/donation-popup-logic.ts';
import type { AppProcess } from '../support/app-process.ts';
import {
  blockThirdParties,
  collectConsoleProblems,
  launchBrowser,
  ownProblems,
  untilHydrated,
} from '../support/browser.ts';
import { copyProject, type ProjectCopy, REBUILD_TEST_TIMEOUT_MS } from '../support/project-copy.ts';

/** The links the old tab follows, in order: the footer's pages and legal links, then the masthead home. */
const ROUTES = [
  ...pages
    .filter((p) => p.id !== 'notFound' && p.id !== 'home')
    .map((p) => ({ path: p.path, link: `footer a[href="${p.path}"]` })),
  { path: '/', link: 'header a.masthead' },
];

const started = {} as { app?: AppProcess; browser?: Browser; project?: ProjectCopy };

beforeAll(async () => {
  started.project = copyProject('deploy-under-open-tab-');
  [started.app, started.browser] = await Promise.all([started.project.serve(), launchBrowser()]);
});
afterAll(async () => {
  await started.browser?.close();
  await started.app?.stop();
  started.project?.remove();
});

/** Each route's main heading, as the server renders it. */
async function headings(url: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const { path } of ROUTES) {
    const html = await (await fetch(url + path)).text();
    const h1 = /<main[\s\S]*?<h1[^>]*>([^<]+)<\/h1>/.exec(html)?.[1];
    if (!h1) throw new Error(`no <h1> in ${path}`);
    found.set(path, h1.replace('&#x27;', "'").replace('&amp;', '&'));
  }
  return found;
}

describe('a tab opened before a deploy', () => {
  it(
    'navigates to every route of the new deploy without a blank page',
    async () => {
      const app = started.app!;
      const expected = await headings(app.url);
      const context = await started.browser!.newContext({ viewport: { width: 1280, height: 900 } });
      // The front page's donation appeal, due 30 s after it loads, would cover the links on a busy machine.
      await context.addInitScript(
        ([key, origin]) => location.origin === origin && sessionStorage.setItem(key, 'true'),
        [DONATION_DISMISSED_KEY, app.url] as const,
      );
      const page = await context.newPage();
      await blockThirdParties(page, app.url);
      const problems = collectConsoleProblems(page);
      await page.goto(`${app.url}/`, { waitUntil: 'load' });
      await untilHydrated(page, 'footer a[href="/terms"]');
      // The router's chunk and whatever the visible links prefetch, on the old build.
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => {
        (window as unknown as { __oldTab: boolean }).__oldTab = true;
      });

      const project = started.project!;
      await project.rebuildWithChangedCode();
      const retired = project.retired();
      // While the server restarts, the tab's requests wait (as nginx retries them on the next process).
      let restarted!: () => void;
      const up = new Promise<void>((resolve) => {
        restarted = resolve;
      });
      const own = (url: URL) => url.origin === app.url;
      await page.route(own, async (route) => {
        await up;
        await route.fallback();
      });
      await app.stop();
      started.app = await project.serve({}, app.port);
      restarted();
      await page.unroute(own);
      const fetchedRetired: string[] = [];
      page.on('response', (response) => {
        const name = basename(new URL(response.url()).pathname);
        if (retired.has(name)) fetchedRetired.push(`${response.status()} ${name}`);
      });

      for (const { path, link } of ROUTES) {
        await page.locator(link).click();
        await expect.poll(() => new URL(page.url()).pathname).toBe(path);
        await expect.poll(() => page.locator('main h1').textContent(), { message: path }).toBe(expected.get(path));
        expect(await page.evaluate(() => (window as unknown as { __oldTab?: boolean }).__oldTab), path).toBe(true);
      }
      // The old tab did load the previous build's files, and each was there.
      expect(fetchedRetired.length).toBeGreaterThan(0);
      expect(fetchedRetired.filter((r) => !r.startsWith('200 '))).toEqual([]);
      // The contact form's frame, blocked here, answers the embed's postMessage from an error page.
      expect(ownProblems(problems, "Failed to execute 'postMessage'")).toEqual([]);
      await context.close();
    },
    REBUILD_TEST_TIMEOUT_MS,
  );
});

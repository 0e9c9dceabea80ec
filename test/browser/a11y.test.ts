/**
 * axe-core on every page of the site, in the light and the dark theme, at a
 * phone and a desktop width: no serious or critical violation.
 */
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { blockThirdParties, launchBrowser } from '../support/browser.ts';

const AXE_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

let app: AppProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp({ LOG_LEVEL: 'warn' }), launchBrowser()]);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await app?.stop();
});

type Theme = 'light' | 'dark';

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/** Switches the theme the way a visitor does: the header toggle (the not-found page has no header, so its root class). */
async function setTheme(page: Page, theme: Theme): Promise<void> {
  const html = page.locator('html');
  const toggle = page.getByTestId('theme-toggle');
  if ((await toggle.count()) === 0) {
    if (theme === 'dark') await page.evaluate(() => document.documentElement.classList.add('dark'));
    return;
  }
  // Clicking only works once React has hydrated; retry until the class follows.
  await expect
    .poll(async () => {
      if ((await html.getAttribute('class')) !== 'dark') await toggle.click();
      return html.getAttribute('class');
    })
    .toBe('dark');
  if (theme === 'light') {
    await toggle.click();
    await expect.poll(() => html.getAttribute('class')).toBeNull();
  }
}

async function audit(path: string, theme: Theme, width: number): Promise<AxeViolation[]> {
  // bypassCSP: our CSP (rightly) refuses the injected axe script; CSP itself is tested elsewhere.
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    reducedMotion: 'reduce',
    bypassCSP: true,
  });
  contexts.push(context);
  const page = await context.newPage();
  await blockThirdParties(page, app.url);
  await page.goto(`${app.url}${path}`, { waitUntil: 'load' });
  await setTheme(page, theme);
  await page.addScriptTag({ path: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations;
  });
  await context.close();
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

const describeViolations = (violations: AxeViolation[]) =>
  violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} — ${v.nodes
        .slice(0, 3)
        .map((n) => n.target.join(' '))
        .join(', ')}`,
  );

const paths = ['/', '/about', '/contact', '/careers', '/privacy', '/terms', '/radio', '/books', '/no-such-page'];
const cases = paths.flatMap((path) => (['light', 'dark'] as const).map((theme) => [path, theme] as const));

describe('axe-core: no serious or critical violations', () => {
  it.each(cases)('%s in the %s theme, at 375 and 1280 px', async (path, theme) => {
    for (const width of [375, 1280]) {
      const serious = await audit(path, theme, width);
      expect(describeViolations(serious), `${path} ${theme} @${width}`).toEqual([]);
    }
  });

  it('would catch a violation (the audit is live)', async () => {
    const context = await browser.newContext({ bypassCSP: true });
    contexts.push(context);
    const page = await context.newPage();
    await blockThirdParties(page, app.url);
    await page.goto(`${app.url}/about`, { waitUntil: 'load' });
    // After hydration, or React would remove the foreign node while hydrating.
    await setTheme(page, 'light');
    // An unlabelled image link: axe rates "link-name" serious.
    await page.evaluate(() => {
      const a = document.createElement('a');
      a.href = '/x';
      a.append(document.createElement('img'));
      document.querySelector('main')!.append(a);
    });
    await page.addScriptTag({ path: AXE_PATH });
    const ids = await page.evaluate(async () => {
      const axe = (
        window as unknown as { axe: { run(ctx: Document, opts: object): Promise<{ violations: AxeViolation[] }> } }
      ).axe;
      return (await axe.run(document, { resultTypes: ['violations'] })).violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id);
    });
    expect(ids).toContain('link-name');
  });
});

/**
 * axe-core on every page of the site, in the light and the dark theme, at a
 * phone and a desktop width: no serious or critical violation.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { type AxeFinding, axeFindings, describeFindings, seriousOrCritical } from '../support/axe.ts';
import { blockThirdParties, launchBrowser } from '../support/browser.ts';

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

async function audit(path: string, theme: Theme, width: number): Promise<AxeFinding[]> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, reducedMotion: 'reduce' });
  contexts.push(context);
  const page = await context.newPage();
  await blockThirdParties(page, app.url);
  await page.goto(`${app.url}${path}`, { waitUntil: 'load' });
  await setTheme(page, theme);
  const serious = await axeFindings(page, { keep: seriousOrCritical });
  await context.close();
  return serious;
}

const paths = ['/', '/about', '/contact', '/careers', '/privacy', '/terms', '/radio', '/books', '/no-such-page'];
const cases = paths.flatMap((path) => (['light', 'dark'] as const).map((theme) => [path, theme] as const));

describe('axe-core: no serious or critical violations', () => {
  it.each(cases)('%s in the %s theme, at 375 and 1280 px', async (path, theme) => {
    for (const width of [375, 1280]) {
      const serious = await audit(path, theme, width);
      expect(describeFindings(serious), `${path} ${theme} @${width}`).toEqual([]);
    }
  });

  it('would catch a violation (the audit is live)', async () => {
    const context = await browser.newContext();
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
    const serious = await axeFindings(page, { keep: seriousOrCritical });
    expect(serious.map((f) => f.id)).toContain('link-name');
  });
});

import { describe, expect, it } from 'vitest';
import { pages } from '../../src/shared/pages.ts';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import {
  blockThirdParties,
  collectConsoleProblems,
  notFoundPageProblems,
  ownProblems,
  untilHydrated,
} from '../support/browser.ts';

const site = useAppAndBrowser();

async function openPage(path: string, width = 1280) {
  const context = await site.browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  await blockThirdParties(page, site.app.url);
  const problems = collectConsoleProblems(page);
  const infos: string[] = [];
  page.on('console', (m) => infos.push(m.text()));
  await page.goto(`${site.app.url}${path}`, { waitUntil: 'load' });
  return { page, problems, infos, context };
}

describe('every route hydrates without errors', () => {
  const withChrome = pages.filter((p) => p.chrome);

  it.each(withChrome.map((p) => p.path))(
    '%s hydrates: the theme toggle works and the console is clean',
    async (path) => {
      const { page, problems, context } = await openPage(path);
      const html = page.locator('html');
      await expect.poll(async () => html.getAttribute('class')).toBeNull();
      // The toggle only works once React has hydrated the header.
      const toggle = page.getByTestId('theme-toggle');
      await expect
        .poll(async () => {
          await toggle.click();
          return html.getAttribute('class');
        })
        .toBe('dark');
      await expect.poll(() => toggle.getAttribute('aria-pressed')).toBe('true');
      await toggle.click();
      expect(await html.getAttribute('class')).toBeNull();
      expect(ownProblems(problems)).toEqual([]);
      await context.close();
    },
  );

  it('the not-found page hydrates and logs the missing path', async () => {
    const { page, problems, infos, context } = await openPage('/no/such/page');
    await expect.poll(() => infos.some((m) => m.includes('/no/such/page'))).toBe(true);
    expect(await page.locator('header.site-header').count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Oops! Page not found' }).isVisible()).toBe(true);
    // Chromium reports the document's own 404 status; anything else is a real problem.
    expect(notFoundPageProblems(problems, '/no/such/page')).toEqual([]);
    await context.close();
  });
});

describe('styles', () => {
  it('the HTML alone styles the page: no stylesheet request, and the CSS applies with scripts off', async () => {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false });
    const page = await context.newPage();
    await blockThirdParties(page, site.app.url);
    const types: string[] = [];
    page.on('request', (r) => types.push(r.resourceType()));
    await page.goto(`${site.app.url}/about`, { waitUntil: 'load' });
    expect(types).toContain('document');
    expect(types).not.toContain('stylesheet');
    // The site's CSS hides the menu button on desktop; without it the button would show.
    const menuButton = page.locator('.site-nav__menu-button');
    expect(await menuButton.count()).toBe(1);
    expect(await menuButton.evaluate((el) => getComputedStyle(el).display)).toBe('none');
    await context.close();
  });
});

describe('header behaviour', () => {
  it('shows the menu button under 768 px; it opens the nine links and a choice closes it', async () => {
    const { page, problems, context } = await openPage('/about', 375);
    const button = page.getByRole('button', { name: 'Menu' });
    expect(await button.isVisible()).toBe(true);
    expect(await page.locator('.site-nav__list--desktop').isVisible()).toBe(false);
    await expect
      .poll(async () => {
        if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
        return button.getAttribute('aria-expanded');
      })
      .toBe('true');
    const links = page.locator('#mobile-nav a');
    expect(await links.count()).toBe(9);
    expect(await links.first().isVisible()).toBe(true);
    await links.nth(2).click();
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#mobile-nav').isVisible()).toBe(false);
    expect(ownProblems(problems)).toEqual([]);
    await context.close();
  });

  it('shows the nine links and no menu button on desktop', async () => {
    const { page, context } = await openPage('/about', 1280);
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await page.locator('.site-nav__list--desktop a').count()).toBe(9);
    expect(await page.locator('.site-nav__list--desktop').isVisible()).toBe(true);
    await context.close();
  });

  it('navigates client-side between pages and updates the title', async () => {
    const { page, problems, context } = await openPage('/about');
    await untilHydrated(page, 'a[href="/privacy"]');
    await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
    await expect
      .poll(async () => {
        await page.getByRole('link', { name: 'Privacy Policy' }).click();
        return new URL(page.url()).pathname;
      })
      .toBe('/privacy');
    await expect.poll(() => page.title()).toContain('Privacy Policy');
    // Same document: no full reload happened.
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
    expect(ownProblems(problems)).toEqual([]);
    await context.close();
  });
});

/**
 * The header's nine section anchors from inner pages, in Chromium: on a 375 px phone through the
 * menu, and on a desktop through the bar. Each tap is a client-side navigation to the front page
 * that lands with the section at the top of the viewport and focused (keyboard and screen-reader
 * users continue from there), the menu closed.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { navSections } from '../../src/shared/sections-nav.ts';
import { useAppAndBrowser } from '../support/app-and-browser.ts';
import { blockThirdParties, collectConsoleProblems, ownProblems, untilHydrated } from '../support/browser.ts';

const env = useAppAndBrowser({ LOG_LEVEL: 'warn' });
const innerPages = ['/radio', '/books', '/about', '/contact', '/careers', '/privacy', '/terms'];

interface Landing {
  url: string;
  focused: string | undefined;
  top: number;
  sameDocument: boolean;
}

async function landing(page: Page, anchor: string): Promise<Landing> {
  return page.evaluate(
    (id) => ({
      url: location.pathname + location.hash,
      focused: document.activeElement?.id,
      top: document.getElementById(id)?.getBoundingClientRect().top ?? Number.NaN,
      sameDocument: (window as unknown as { __before?: boolean }).__before === true,
    }),
    anchor,
  );
}

describe.each([
  { name: '375 px phone, through the menu', width: 375, mobile: true },
  { name: 'desktop, through the bar', width: 1280, mobile: false },
])('header section anchors on a $name', ({ width, mobile }) => {
  it.each(navSections.map((s, i) => [s.label, s.anchor, innerPages[i % innerPages.length]!] as const))(
    '%s from an inner page lands on /#%s, scrolled there and focused',
    async (label, anchor, from) => {
      const context = await env.browser.newContext({
        viewport: { width, height: 740 },
        isMobile: mobile,
        hasTouch: mobile,
      });
      try {
        const page = await context.newPage();
        await blockThirdParties(page, env.app.url);
        const problems = collectConsoleProblems(page);
        await page.goto(env.app.url + from);
        await untilHydrated(page, '.site-nav a[href^="/#"]');
        // A full page load would drop this: it shows the router handled the tap.
        await page.evaluate(() => ((window as unknown as { __before: boolean }).__before = true));

        if (mobile) {
          await page.getByRole('button', { name: 'Menu' }).tap();
          await page.locator('#mobile-nav').getByRole('link', { name: label, exact: true }).tap();
        } else {
          await page.locator('.site-nav__list--desktop').getByRole('link', { name: label, exact: true }).click();
        }

        await expect.poll(() => landing(page, anchor).then((l) => l.focused)).toBe(anchor);
        const landed = await landing(page, anchor);
        expect(landed.url).toBe(`/#${anchor}`);
        expect(landed.sameDocument).toBe(true);
        // scrollIntoView puts the section's top edge at the top of the viewport.
        expect(Math.abs(landed.top)).toBeLessThan(2);
        if (mobile) expect(await page.locator('#mobile-nav').isHidden()).toBe(true);
        expect(ownProblems(problems)).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});

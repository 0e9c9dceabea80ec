/**
 * The content pages in a real browser (Debian's Chromium): content present,
 * no sideways scroll on a phone, the home grid's columns, the ad layouts by
 * viewport (compared with the rule in ad-layout.ts), ad and form scripts
 * added and removed by effects, and nothing shifting while third parties fail.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notFoundAds } from '../../src/shared/content/ads.ts';
import { homeBottomAds, homeSections, homeTopAds } from '../../src/shared/content/home.ts';
import { termsAdBreaks } from '../../src/shared/content/terms.ts';
import type { AdRowSpec } from '../../src/shared/content/types.ts';
import { LAY_OUT_ALL_CLASS } from '../../src/shared/ui/chrome/use-scroll-on-navigation.ts';
import { viewportAt, visibleItems } from '../../src/shared/ui/components/ad-layout.ts';
import { startApp, type AppProcess } from '../support/app-process.ts';
import {
  blockThirdParties,
  collectConsoleProblems,
  launchBrowser,
  layoutShiftSoFar,
  notFoundPageProblems,
  recordLayoutShifts,
  untilPageSettled,
} from '../support/browser.ts';

const AD_SCRIPT_URL = 'https://adnet.pages-test.example/tag.js';
const FORM_SCRIPT_URL = 'https://forms.pages-test.example/embed.js';

let app: AppProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [app, browser] = await Promise.all([
    startApp({ AD_SCRIPT_URL, CONTACT_FORM_SCRIPT_URL: FORM_SCRIPT_URL, LOG_LEVEL: 'warn' }),
    launchBrowser(),
  ]);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await app?.stop();
});

interface Opened {
  page: Page;
  problems: string[];
}

/** Opens a page with third parties failing, and records layout shifts from the first paint on. */
async function open(path: string, width: number): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  await blockThirdParties(page, app.url);
  const problems = collectConsoleProblems(page);
  await recordLayoutShifts(page);
  await page.goto(`${app.url}${path}`, { waitUntil: 'load' });
  await hydrated(page);
  return { page, problems };
}

/** Effects have run once the header's theme toggle answers (the not-found page has none: its ads answer instead). */
async function hydrated(page: Page): Promise<void> {
  const toggle = page.getByTestId('theme-toggle');
  if ((await toggle.count()) === 0) {
    await expect.poll(() => page.locator('.ad-script script').count()).toBeGreaterThan(0);
    return;
  }
  await expect
    .poll(async () => {
      await toggle.click();
      return page.locator('html').getAttribute('class');
    })
    .toBe('dark');
  await toggle.click();
}

/**
 * The front page's lower blocks are laid out only as they near the screen (`content-visibility: auto`,
 * decision 048): until then their content has no boxes. Geometry is measured with every block laid
 * out, as the app itself does for back, forward and section anchors.
 */
const layOutAll = (page: Page) =>
  page.evaluate((name) => document.documentElement.classList.add(name), LAY_OUT_ALL_CLASS);

// The not-found page's own 404 (the document at /no-such-page) is reported too; it is expected.
const pageProblems = (problems: string[]) => notFoundPageProblems(problems, '/no-such-page');

const columns = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').filter(Boolean).length);

/** For each .ad-row on the page: the kinds of boxes actually displayed. */
const displayedRows = (page: Page) =>
  page
    .locator('.ad-row')
    .evaluateAll((rows) =>
      rows.map((row) =>
        [...row.children]
          .filter((child) => child.getClientRects().length > 0)
          .map((child) => (child.classList.contains('ad-row__widget') ? 'widget' : 'ad')),
      ),
    );

const expectedRows = (rows: AdRowSpec[], width: number) =>
  rows.map((row) => visibleItems(row, viewportAt(width)).map((item) => item.kind));

const paths = ['/', '/about', '/contact', '/careers', '/privacy', '/terms', '/radio', '/books', '/no-such-page'];

describe('every page on a 375 px phone', () => {
  it.each(paths)('%s has no horizontal scroll and a clean console', async (path) => {
    const { page, problems } = await open(path, 375);
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
    expect(pageProblems(problems)).toEqual([]);
  });
});

describe('content is present', () => {
  const cases: Array<[string, string[]]> = [
    [
      '/',
      [
        'News Imageboard',
        'Support Independent Journalism',
        'Subscribe for $1/week',
        'Make a Donation',
        ...homeSections.map((s) => s.title),
      ],
    ],
    [
      '/about',
      [
        'About Us',
        'founded in 2025',
        'Our Mission',
        'Our Values',
        'Integrity',
        'Impact',
        'Our Team',
        'Subscribe Today',
      ],
    ],
    [
      '/contact',
      [
        'Contact Us',
        'General Inquiries',
        'Editorial Department',
        'News Tips',
        'Corrections',
        'Advertising',
        'Subscriptions',
      ],
    ],
    [
      '/careers',
      [
        'Careers',
        'City Beat Reporter',
        'Social Media Editor',
        'Remote (Midwest)',
        'Parental leave',
        'General Application',
      ],
    ],
    ['/privacy', ['Privacy Policy', 'Last updated: April 17, 2025', '1. Information We Collect', '10. Contact Us']],
    [
      '/terms',
      [
        'Terms of Service',
        'Last updated: April 17, 2025',
        '5. User Conduct',
        '9. Governing Law',
        '11. Contact Information',
      ],
    ],
    ['/no-such-page', ['404', 'Oops! Page not found', 'Return to Home', 'Advertisement']],
  ];
  it.each(cases)('%s shows its words at 375 and 1280 px', async (path, words) => {
    for (const width of [375, 1280]) {
      const { page, problems } = await open(path, width);
      // innerText: only what is displayed (CSS may upper-case labels, so compare case-insensitively).
      // Blocks laid out only near the screen (`content-visibility: auto`) leave it until seen.
      await layOutAll(page);
      const text = (await page.locator('body').innerText()).toLowerCase();
      for (const word of words) expect(text, `${path} @${width}: ${word}`).toContain(word.toLowerCase());
      expect(pageProblems(problems)).toEqual([]);
    }
  });
});

describe('home layout', () => {
  it('the section grid has 4 columns at 1280 px and 1 at 375 px', async () => {
    expect(await columns((await open('/', 1280)).page, '.section-grid')).toBe(4);
    expect(await columns((await open('/', 375)).page, '.section-grid')).toBe(1);
  });

  it('the featured card puts its 16:9 image right of the text on desktop, above it on a phone', async () => {
    for (const width of [1280, 375]) {
      const { page } = await open('/', width);
      const box = await page.locator('.card--featured').evaluate((card) => {
        const body = card.querySelector('.card__body')!.getBoundingClientRect();
        const img = card.querySelector('img')!.getBoundingClientRect();
        return { body, img: { left: img.left, top: img.top, ratio: img.width / img.height } };
      });
      expect(box.img.ratio).toBeCloseTo(16 / 9, 1);
      if (width === 1280) expect(box.img.left).toBeGreaterThanOrEqual(box.body.right);
      else expect(box.img.top).toBeLessThan(box.body.top);
    }
  });

  it('section cards show images at 4:3, and cards without an image still have their text', async () => {
    const { page } = await open('/', 1280);
    const ratios = await page
      .locator('.home-section .card img')
      .evaluateAll((imgs) => imgs.map((img) => img.getBoundingClientRect().width / img.getBoundingClientRect().height));
    expect(ratios.length).toBeGreaterThan(0);
    for (const r of ratios) expect(r).toBeCloseTo(4 / 3, 1);
    const textOnly = page.locator('.home-section .card:not(:has(img))').first();
    expect(await textOnly.locator('.card__title').isVisible()).toBe(true);
    expect(await textOnly.locator('.card__excerpt').isVisible()).toBe(true);
  });

  it('the header anchors scroll to their sections', async () => {
    const { page } = await open('/', 1280);
    await page.locator('.site-nav__list--desktop a[href="#sports"]').click();
    await expect
      .poll(() => page.locator('#sports').evaluate((el) => Math.round(el.getBoundingClientRect().top)))
      .toBeLessThan(5);
  });

  it('the imageboard frame is 1600 px high, and comes as it nears the screen into its reserved box', async () => {
    const { page } = await open('/', 375);
    const frame = page.locator('iframe.imageboard__frame');
    // Far below the fold: the parser creates no frame (decision 048).
    await untilPageSettled(page);
    expect(await frame.count()).toBe(0);
    const box = page.locator('.imageboard__frame');
    // From the block's own top: the blocks above it are laid out only as they near the screen, so
    // its place in the document changes when they are (decision 048), not the frame's in it.
    const topInBlock = (el: Element) =>
      el.getBoundingClientRect().top - el.closest('.imageboard')!.getBoundingClientRect().top;
    const top = await box.evaluate(topInBlock);
    expect(await box.evaluate((b) => b.getBoundingClientRect().height)).toBe(1600);

    await page.locator('.imageboard h2').scrollIntoViewIfNeeded();
    await expect.poll(() => frame.count()).toBe(1);
    expect(await frame.getAttribute('src')).toBe(await page.locator('.imageboard .embed-note a').getAttribute('href'));
    expect(await frame.evaluate((f) => f.getBoundingClientRect().height)).toBeGreaterThanOrEqual(1600);
    // The frame took the reserved box: nothing moved.
    expect(await frame.evaluate(topInBlock)).toBe(top);
    expect(await layoutShiftSoFar(page)).toBe(0);
  });

  it.each([375, 1280])('ad rows follow the layout rule at %i px', async (width) => {
    const { page } = await open('/', width);
    await layOutAll(page);
    expect(await displayedRows(page)).toEqual(expectedRows([homeTopAds, homeBottomAds], width));
    // Three side by side per line on desktop; one per line on a phone.
    const lines = await page
      .locator('.ad-row')
      .first()
      .evaluate((row) => {
        const shown = [...row.children].filter((c) => c.getClientRects().length > 0);
        return new Set(shown.map((c) => Math.round(c.getBoundingClientRect().top))).size;
      });
    const shown = visibleItems(homeTopAds, viewportAt(width)).length;
    expect(lines).toBe(width === 1280 ? shown / 3 : shown);
  });
});

describe('ad boxes', () => {
  it.each([375, 1280])(
    'terms: one banner on a phone; banner, house widget, banner on desktop (%i px)',
    async (width) => {
      const { page } = await open('/terms', width);
      const rows = await displayedRows(page);
      expect(rows).toEqual(expectedRows([...termsAdBreaks.values()], width));
      expect(rows[0]).toEqual(width === 375 ? ['ad'] : ['ad', 'widget', 'ad']);
      if (width === 1280) {
        // Side by side, in one row.
        const tops = await page
          .locator('.ad-row')
          .first()
          .evaluate((row) => [...row.children].map((c) => c.getBoundingClientRect().top));
        expect(new Set(tops).size).toBe(1);
      }
    },
  );

  it.each([375, 1280])('not-found ads follow the layout rule at %i px', async (width) => {
    const { page } = await open('/no-such-page', width);
    expect(await displayedRows(page)).toEqual(expectedRows([notFoundAds], width));
  });

  it('reserve 250 or 600 px, and the script containers 250 px, before anything loads', async () => {
    const { page } = await open('/', 1280);
    await layOutAll(page);
    const heights = await page
      .locator('.ad-slot')
      .evaluateAll((slots) =>
        slots.map((s) => ({ tall: s.classList.contains('ad-slot--h600'), h: s.getBoundingClientRect().height })),
      );
    expect(heights.length).toBeGreaterThan(5);
    for (const { tall, h } of heights) expect(h).toBeGreaterThanOrEqual(tall ? 600 : 250);
    const scripts = await page
      .locator('.ad-script')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    for (const h of scripts) expect(h).toBeGreaterThanOrEqual(250);
  });

  it('insert the ad script into displayed banner slots only, and clear it when the page goes', async () => {
    for (const width of [375, 1280]) {
      const { page } = await open('/terms', width);
      const shown = await page
        .locator('.ad-script')
        .evaluateAll((els) => els.filter((e) => e.getClientRects().length > 0).length);
      expect(shown).toBe(width === 375 ? termsAdBreaks.size : termsAdBreaks.size * 2);
      await expect.poll(() => page.locator(`.ad-script script[src="${AD_SCRIPT_URL}"]`).count()).toBe(shown);
      // Every banner id goes with its script.
      const ids = await page
        .locator('.ad-script script')
        .evaluateAll((s) => s.map((e) => (e as HTMLElement).dataset.bannerId));
      for (const id of ids) expect(Number(id)).toBeGreaterThan(0);
      // Client-side navigation unmounts the slots: no ad script is left behind.
      await page.locator('footer a[href="/privacy"]').click();
      await expect.poll(() => page.locator('h1').innerText()).toBe('Privacy Policy');
      expect(await page.locator(`script[src="${AD_SCRIPT_URL}"]`).count()).toBe(0);
    }
  });

  it('insert the ad script after the new page is shown, not in the task of the tap that shows it', async () => {
    const { page } = await open('/', 375);
    // When the frame that first paints /terms begins, its slots hold no script yet: the scripts
    // come after that frame.
    await page.evaluate(() => {
      const w = window as unknown as { __scriptsWhenShown: number | null };
      w.__scriptsWhenShown = null;
      const observer = new MutationObserver(() => {
        if (document.querySelector('main h1')?.textContent !== 'Terms of Service') return;
        observer.disconnect();
        // Just before the frame that paints it.
        requestAnimationFrame(() => {
          w.__scriptsWhenShown = document.querySelectorAll('.ad-script script').length;
        });
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    // The page's chunk is fetched before the tap (the link seen), so the new page renders in the tap's task.
    const link = page.locator('footer a[href="/terms"]');
    await link.scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/assets/Terms-'))),
      )
      .toBe(true);
    await link.click();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __scriptsWhenShown: number | null }).__scriptsWhenShown))
      .toBe(0);
    await expect.poll(() => page.locator(`.ad-script script[src="${AD_SCRIPT_URL}"]`).count()).toBe(termsAdBreaks.size);
  });

  it.each(['/', '/terms', '/no-such-page'])('nothing shifts on %s while ads and frames fail to load', async (path) => {
    for (const width of [375, 1280]) {
      const { page } = await open(path, width);
      // After the loads the page started have failed and their boxes have been laid out.
      await untilPageSettled(page);
      expect(await layoutShiftSoFar(page), `${path} @${width}`).toBe(0);
    }
  });
});

describe('contact page', () => {
  it('loads the form frame and its script as the form nears the screen, and removes the script on leaving', async () => {
    const { page, problems } = await open('/contact', 375);
    const frame = page.locator('iframe.contact-form__frame');
    // Far below the fold on a phone: nothing of the third party loads with the page (looked at once the
    // page's first observer callbacks and requests would have shown).
    await untilPageSettled(page);
    expect(await frame.count()).toBe(0);
    expect(await page.locator(`script[src="${FORM_SCRIPT_URL}"]`).count()).toBe(0);
    const boxTop = await page.locator('.contact-form__box').evaluate((b) => b.getBoundingClientRect().top);

    await page.locator('.contact-form__box').scrollIntoViewIfNeeded();
    await expect.poll(() => frame.count()).toBe(1);
    await expect.poll(() => page.locator(`script[src="${FORM_SCRIPT_URL}"]`).count()).toBe(1);
    expect(new URL((await frame.getAttribute('src'))!).searchParams.get('category')).toBe('local-news-community');
    expect(await frame.evaluate((f) => f.getBoundingClientRect().height)).toBeGreaterThanOrEqual(789);
    // The frame took the reserved box: nothing moved.
    const scrolled = await page.evaluate(() => scrollY);
    expect(await page.locator('.contact-form__box').evaluate((b) => b.getBoundingClientRect().top)).toBe(
      boxTop - scrolled,
    );
    expect(await layoutShiftSoFar(page)).toBe(0);

    await page.locator('footer a[href="/terms"]').click();
    await expect.poll(() => page.locator('h1').innerText()).toBe('Terms of Service');
    expect(await page.locator(`script[src="${FORM_SCRIPT_URL}"]`).count()).toBe(0);
    expect(pageProblems(problems)).toEqual([]);
  });

  it('no other page loads the form-embed script', async () => {
    for (const path of ['/', '/about', '/terms']) {
      const { page } = await open(path, 1280);
      expect(await page.locator(`script[src="${FORM_SCRIPT_URL}"]`).count()).toBe(0);
    }
  });
});

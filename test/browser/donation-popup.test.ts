import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DONATION_DISMISSED_KEY,
  DONATION_POPUP_DELAY_MS,
} from '../../src/shared/ui/components/donation-popup-logic.ts';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { axeFindings, describeFindings, seriousOrCritical } from '../support/axe.ts';
import {
  blockThirdParties,
  collectConsoleProblems,
  launchBrowser,
  ownProblems,
  untilHydrated,
  untilPageSettled,
} from '../support/browser.ts';

const DONATION_URL = 'https://donate.popup-test.example/give';
const POPUP_NAME = 'Keep Chicago’s news independent';
/** The page's fake clock starts here and stands still unless the test moves it. */
const T0 = Date.UTC(2025, 3, 17, 15, 0, 0);

let app: AppProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [app, browser] = await Promise.all([startApp({ DONATION_URL }), launchBrowser()]);
});

afterAll(async () => {
  for (const context of contexts) await context.close().catch(() => {});
  await browser?.close();
  await app?.stop();
});

/** A fresh browser session on the home page (or `path`), its clock installed before load and paused. */
async function openHome(path = '/'): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  contexts.push(context);
  const page = await context.newPage();
  const problems = collectConsoleProblems(page);
  await blockThirdParties(page, app.url);
  await page.clock.install({ time: T0 });
  // The installed clock runs until paused: on a busy machine more than a second can pass between
  // the two calls, and pausing in the past fails. A minute ahead is never in the past.
  await page.clock.pauseAt(T0 + 60_000);
  // Notes when the popup's mount effect has read the session flag; it arms its timer right after.
  await page.addInitScript((key) => {
    const getItem = Storage.prototype.getItem;
    Storage.prototype.getItem = function (this: Storage, k: string) {
      if (k === key) (window as unknown as { __popupChecked: boolean }).__popupChecked = true;
      return getItem.call(this, k);
    };
  }, DONATION_DISMISSED_KEY);
  await page.goto(`${app.url}${path}`, { waitUntil: 'load' });
  if (path === '/') await waitForPopupArmed(page);
  return { page, problems };
}

/** Hydrated and the popup's mount effect has run, so the fake clock can be moved with a known start. */
async function waitForPopupArmed(page: Page): Promise<void> {
  await page.waitForFunction(
    () => (window as unknown as { __popupChecked?: boolean }).__popupChecked === true,
    undefined,
    { polling: 50 },
  );
}

/**
 * Moves the fake clock by `ms` and says whether the popup's code was asked for meanwhile: it loads
 * when the popup is due, so a popup on its way shows as this request, looked at once the page has settled.
 */
async function popupCodeAskedWhileRunning(page: Page, ms: number): Promise<boolean> {
  let asked = false;
  const record = (req: { url(): string }) => {
    if (/\/assets\/DonationDialog-[^/]+\.js$/.test(req.url())) asked = true;
  };
  page.on('request', record);
  await page.clock.runFor(ms);
  // Frames stand still under the paused clock: tasks only.
  await untilPageSettled(page, { frames: false });
  page.off('request', record);
  return asked;
}

const popup = (page: Page): Locator => page.getByRole('dialog', { name: POPUP_NAME });
const dialogCount = (page: Page) => page.locator('dialog').count();
const flag = (page: Page) => page.evaluate((key) => sessionStorage.getItem(key), DONATION_DISMISSED_KEY);

/** Moves the fake clock to 30 s after load and waits for the popup (its code loads when due). */
async function showPopup(page: Page): Promise<Locator> {
  await page.clock.runFor(DONATION_POPUP_DELAY_MS);
  const dialog = popup(page);
  await dialog.waitFor({ state: 'visible' });
  return dialog;
}

/** axe-core's serious and critical findings inside the open dialog. */
const seriousA11yViolations = async (page: Page): Promise<string[]> =>
  describeFindings(await axeFindings(page, { within: 'dialog', keep: seriousOrCritical }));

describe('donation popup', () => {
  it('appears 30 s after the home page loads, not before, as a labelled modal dialog with focus inside', async () => {
    const { page, problems } = await openHome();
    expect(await dialogCount(page)).toBe(0);
    // Where focus is when the popup opens; it must come back here when it closes.
    const toggle = page.getByTestId('theme-toggle');
    await toggle.focus();

    expect(await popupCodeAskedWhileRunning(page, DONATION_POPUP_DELAY_MS - 1)).toBe(false);
    expect(await dialogCount(page)).toBe(0);

    // The signal above is live: the last millisecond asks for the popup's code.
    expect(await popupCodeAskedWhileRunning(page, 1)).toBe(true);
    const dialog = popup(page);
    await dialog.waitFor({ state: 'visible' });

    const state = await dialog.evaluate((el) => ({
      modal: el.matches(':modal'),
      focusInside: el.contains(document.activeElement),
    }));
    expect(state).toEqual({ modal: true, focusInside: true });
    expect(await dialog.getByRole('button', { name: 'Maybe later' }).isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Close' }).isVisible()).toBe(true);
    const donate = dialog.getByRole('link', { name: 'Donate (opens in a new tab)' });
    expect(await donate.getAttribute('href')).toBe(DONATION_URL);
    expect(await donate.getAttribute('target')).toBe('_blank');
    expect(await donate.getAttribute('rel')).toBe('noopener noreferrer');
    expect((await dialog.textContent()) ?? '').toMatch(/independent journalism/i);
    // The page behind is inert: a click on the theme toggle does not reach it.
    const box = (await toggle.boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    expect(await page.evaluate(() => document.documentElement.className)).toBe('');
    expect(await flag(page)).toBeNull();

    await dialog.getByRole('button', { name: 'Maybe later' }).click();
    await page.waitForFunction(() => document.querySelector('dialog') === null);
    expect(await flag(page)).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('theme-toggle');
    expect(ownProblems(problems)).toEqual([]);
  });

  it('stays away for the rest of the session once dismissed, even after a reload', async () => {
    const { page, problems } = await openHome();
    const dialog = await showPopup(page);
    await dialog.getByRole('button', { name: 'Maybe later' }).click();
    await page.waitForFunction(() => document.querySelector('dialog') === null);

    await page.reload({ waitUntil: 'load' });
    await waitForPopupArmed(page);
    const before = await page.evaluate(() => Date.now());
    expect(await popupCodeAskedWhileRunning(page, DONATION_POPUP_DELAY_MS + 5_000)).toBe(false);
    // The fake clock really moved in the reloaded page, so the 30 s did pass there.
    expect(await page.evaluate(() => Date.now())).toBeGreaterThanOrEqual(before + DONATION_POPUP_DELAY_MS + 5_000);
    expect(await dialogCount(page)).toBe(0);
    expect(await flag(page)).toBe('true');
    expect(ownProblems(problems)).toEqual([]);
  });

  it('Escape closes it and sets the flag', async () => {
    const { page, problems } = await openHome();
    await showPopup(page);
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('dialog') === null);
    expect(await flag(page)).toBe('true');
    expect(ownProblems(problems)).toEqual([]);
  });

  it('the close icon closes it and sets the flag', async () => {
    const { page, problems } = await openHome();
    const dialog = await showPopup(page);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.waitForFunction(() => document.querySelector('dialog') === null);
    expect(await flag(page)).toBe('true');
    expect(ownProblems(problems)).toEqual([]);
  });

  it.each([false, true])(
    'axe finds no serious or critical violation in the open popup (dark theme: %s)',
    async (dark) => {
      const { page, problems } = await openHome();
      if (dark) {
        await page.getByTestId('theme-toggle').click();
        await page.waitForFunction(() => document.documentElement.classList.contains('dark'));
      }
      await showPopup(page);
      // axe schedules its own work with timers: let the page's clock run again.
      await page.clock.resume();
      expect(await seriousA11yViolations(page)).toEqual([]);
      expect(ownProblems(problems)).toEqual([]);
    },
  );

  it('never covers the player bar while the radio plays: it waits for the radio to stop', async () => {
    const { page, problems } = await openHome('/radio');
    await untilHydrated(page, 'header a[href="/"]');
    await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('audio')?.paused === false);
    // To the front page in place (the radio plays on): its popup is due 30 s later.
    await page.locator('header a[href="/"]').first().click();
    await waitForPopupArmed(page);
    expect(await popupCodeAskedWhileRunning(page, DONATION_POPUP_DELAY_MS)).toBe(true);
    const bar = page.getByRole('region', { name: 'Radio player' });
    // The reader stops the radio. The page's clock just ran 30 s ahead: had the audio waited for data
    // meanwhile (a busy machine), the stall timer has fired and the bar offers "Stop reconnecting".
    const pause = bar
      .getByRole('button', { name: 'Pause', exact: true })
      .or(bar.getByRole('button', { name: 'Stop reconnecting', exact: true }));
    // The bar is there and answers: nothing modal covers it.
    expect(await page.evaluate(() => document.querySelector('dialog:modal'))).toBeNull();
    expect(await popup(page).isVisible()).toBe(false);
    await pause.click();
    await page.waitForFunction(() => document.querySelector('audio')?.paused === true);
    await popup(page).waitFor({ state: 'visible' });
    expect(await flag(page)).toBeNull();
    expect(ownProblems(problems)).toEqual([]);
  });

  it('a new session shows it again', async () => {
    // Dismissal is per session: another context is another session.
    const first = await openHome();
    await (await showPopup(first.page)).getByRole('button', { name: 'Maybe later' }).click();
    const second = await openHome();
    expect(await flag(second.page)).toBeNull();
    await showPopup(second.page);
    expect(ownProblems(second.problems)).toEqual([]);
  });
});

/**
 * The title of what is heard (issue 29 item 4, docs/decisions/057), in Debian's Chromium against a
 * real Icecast fed by ezstream with songs that differ audibly (a 440 Hz tone, then 880 Hz, each
 * with its own title): the pushed title comes seconds before its song reaches the listener (the
 * relay's burst, the player's buffer); the card, the bar and the lock screen keep the title of
 * what is heard until the song's tone is heard. How close is bench:stream's figure, not a test's.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { useStationAppAndBrowser } from '../support/app-and-browser.ts';
import { blockThirdParties } from '../support/browser.ts';
import { earLog, songChanges, startEar, TONE_SONGS } from '../support/heard-audio.ts';
import { makeToneSongs } from '../support/icecast.ts';
import { until } from '../support/wait.ts';

const env = useStationAppAndBrowser(
  (icePort) => ({ LOG_LEVEL: 'warn', STREAM_UPSTREAM_HOST: '127.0.0.1', STREAM_PORT_MAP: `8076:${icePort}` }),
  () => ({ files: makeToneSongs(TONE_SONGS, 8) }),
);

const lockScreenTitle = (page: Page) => page.evaluate(() => navigator.mediaSession.metadata?.title ?? '');

it('keeps the title of what is heard: a pushed title shows only once its song is heard, on the card, the bar and the lock screen', async () => {
  const page = await env.browser.newPage();
  await blockThirdParties(page, env.app.url);
  const pushOpen = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/now-playing/events');
  await page.goto(`${env.app.url}/radio`, { waitUntil: 'load' });
  await pushOpen; // the card's effect ran: the page has hydrated
  await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
  await startEar(page);

  // The first audible change says where playing began (the heard title's chunk may come after the
  // relay's first push); the next three are judged, with the song after them heard too.
  await until('five audible song changes', async () => (await earLog(page)).tones.length >= 6, 100_000);
  const log = await earLog(page);
  const judged = songChanges(log).slice(1, 4);
  expect(judged).toHaveLength(3);
  for (const change of judged) {
    const title = TONE_SONGS[change.song]!.title;
    const previous = 1 - change.song;
    // The push came while the previous song was still heard: the listener is behind the station.
    expect(change.pushedAt).toBeLessThan(change.heardAt);
    // From the push until the song is heard, the card never shows its title over the previous song.
    const early = log.samples.filter(
      (s) => s.t >= change.pushedAt && s.t <= change.heardAt && s.song === previous && s.title === title,
    );
    expect(early, `"${title}" shown while the previous song was heard`).toEqual([]);
    // And it does show it once the song is heard, before the next one.
    expect(log.samples.some((s) => s.t > change.heardAt && s.song === change.song && s.title === title)).toBe(true);
  }
  // The bar and the lock screen show what the card shows (one store of what is heard).
  const card = page.locator('.now-playing__title');
  const bar = page.getByRole('region', { name: 'Radio player' }).locator('.player-bar__title');
  await expect
    .poll(async () => {
      const [a, b, c] = [await card.innerText(), await bar.innerText(), await lockScreenTitle(page)];
      return a === b && b === c && TONE_SONGS.some((s) => s.title === a);
    })
    .toBe(true);
  await page.close();
}, 150_000);

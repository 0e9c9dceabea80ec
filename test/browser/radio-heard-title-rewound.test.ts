/**
 * The title while rewound (issue 29 item 4, docs/decisions/057), in Debian's Chromium against a
 * real Icecast fed by ezstream with songs that change every 8 s (each with its own title), recorded
 * by the app into its rewind window: back 30 s, the card, the bar and the lock screen show the
 * title the window says was on air at the position heard (`titleAt(window, heardAt)`), not the
 * live one.
 */
import { expect, it } from 'vitest';
import { type RewindWindow, titleAt } from '../../src/shared/rewind.ts';
import { useStationAppAndBrowser } from '../support/app-and-browser.ts';
import { blockThirdParties } from '../support/browser.ts';
import { TONE_SONGS } from '../support/heard-audio.ts';
import { makeToneSongs } from '../support/icecast.ts';
import { sleep, until } from '../support/wait.ts';
import { rewindDir } from '../rewind/helpers.ts';

const PORT = 8076;
const WINDOW = `/api/rewind/${PORT}/window.json`;

const env = useStationAppAndBrowser(
  (icePort) => ({
    LOG_LEVEL: 'warn',
    STREAM_UPSTREAM_HOST: '127.0.0.1',
    STREAM_PORT_MAP: `${PORT}:${icePort}`,
    REWIND: 'on',
    REWIND_DIR: rewindDir(),
    REWIND_MIN_FREE_BYTES: '0',
  }),
  () => ({ files: makeToneSongs(TONE_SONGS, 8) }),
);

const rewindWindow = async () => (await (await fetch(`${env.app.url}${WINDOW}`)).json()) as RewindWindow;

it('back 30 s: the card, the bar and the lock screen show the title on air at the position heard', async () => {
  await until(
    'a rewind window of 45 s',
    async () => {
      const { start, end } = await rewindWindow();
      return start !== null && end !== null && Date.parse(end) - Date.parse(start) >= 45_000;
    },
    180_000,
  );
  const page = await env.browser.newPage();
  await blockThirdParties(page, env.app.url);
  const pushOpen = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/now-playing/events');
  await page.goto(`${env.app.url}/radio`, { waitUntil: 'load' });
  await pushOpen;
  await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
  const bar = page.getByRole('region', { name: 'Radio player' });
  await expect.poll(() => bar.getByRole('button', { name: 'Back 30 seconds', exact: true }).isEnabled()).toBe(true);
  await bar.getByRole('button', { name: 'Back 30 seconds', exact: true }).click();
  await expect.poll(() => bar.getAttribute('data-mode')).toBe('rewound');

  // For two songs' time: each sample's position heard (the bar's), and the three titles shown.
  const samples: Array<{ heard: number; card: string; bar: string; lock: string }> = [];
  for (let i = 0; i < 80; i++) {
    const sample = await page.evaluate(() => {
      const heard = document.querySelector('[data-heard]')?.getAttribute('data-heard');
      return {
        heard: heard ? Number(heard) : Number.NaN,
        card: document.querySelector('.now-playing__title')?.textContent ?? '',
        bar: document.querySelector('.player-bar__title')?.textContent ?? '',
        lock: navigator.mediaSession.metadata?.title ?? '',
      };
    });
    if (Number.isFinite(sample.heard)) samples.push(sample);
    await sleep(200);
  }
  const window = await rewindWindow();
  const starts = window.titles.map((t) => Date.parse(t.at));
  // Judged away from a title's start (the bar's heard time is redrawn a few times a second).
  const judged = samples.filter((s) => starts.every((at) => Math.abs(s.heard - at) > 1_000));
  const titlesHeard = new Set(judged.map((s) => titleAt(window, new Date(s.heard))));
  expect(titlesHeard.size, 'both songs heard while rewound').toBe(2);
  for (const s of judged) {
    const expected = titleAt(window, new Date(s.heard));
    expect({ card: s.card, bar: s.bar, lock: s.lock }).toEqual({ card: expected, bar: expected, lock: expected });
  }
  await page.close();
}, 300_000);

/**
 * The title's offset from the audible change (issue 29 item 4, docs/decisions/057), under
 * `npm run bench:stream` (--heard-changes 8, 0 skips). A tone track of two songs that differ
 * audibly (440 Hz, then 880 Hz, each with its own ID3 title, which ezstream sends to Icecast as it
 * starts the file, as a playout system does) goes through a real Icecast and the app to Debian's
 * Chromium playing /radio, where an ear (test/support/heard-audio.ts: an AnalyserNode on the audio
 * element) tells which tone is heard. Per audible change: the card's title change minus the tone's
 * (positive: the title late), and the same for the title as pushed (what the card showed before
 * the heard title).
 */
import { launchBrowser } from '../test/support/browser.ts';
import { earLog, songChanges, startEar, TONE_SONGS } from '../test/support/heard-audio.ts';
import { makeToneSongs, startEzstream, startIcecast } from '../test/support/icecast.ts';
import { sleep } from '../test/support/wait.ts';
import { type Cleanup, median, startServer, tempDir } from './perf/harness.ts';

/** Each song's length: the listener's delay (burst and buffer, ~4–6 s) fits inside. */
const SONG_S = 8;

export interface HeardTitleResult {
  /** Per audible change: ms from the tone's change to the shown (heard) title's, and to the pushed title's. */
  shownMs: number[];
  pushedMs: number[];
  /** Changes heard but not matched with a title change near them. */
  unmatched: number;
}

/** Plays /radio in Chromium through the app for `changes` song changes and times each. */
export async function benchHeardTitle(cleanup: Cleanup, changes: number): Promise<HeardTitleResult> {
  const ice = cleanup.add(await startIcecast(), (i) => i.stop());
  cleanup.add(await startEzstream(ice, { files: makeToneSongs(TONE_SONGS, SONG_S) }), (s) => s.stop());
  const app = await startServer(cleanup, tempDir(cleanup, 'bench-heard-title-'), 'app', {
    LOG_LEVEL: 'warn',
    STREAM_UPSTREAM_HOST: '127.0.0.1',
    STREAM_PORT_MAP: `8076:${ice.port}`,
  });
  const browser = cleanup.add(await launchBrowser(), (b) => b.close());
  const page = await browser.newPage();
  const pushOpen = page.waitForRequest((req) => new URL(req.url()).pathname === '/api/now-playing/events');
  await page.goto(`${app.url}/radio`, { waitUntil: 'load' });
  await pushOpen; // the card's effect ran: the page has hydrated
  await page.getByRole('region', { name: 'Live Radio' }).getByRole('button', { name: 'Play', exact: true }).click();
  await startEar(page);
  // The first change says where playing began; then `changes` more, and the listener's delay.
  await sleep((changes + 1.75) * SONG_S * 1000);
  const seen = songChanges(await earLog(page));
  const matched = seen.filter((c) => Number.isFinite(c.shownAt) && Number.isFinite(c.pushedAt));
  await page.close();
  return {
    shownMs: matched.map((c) => c.shownAt - c.heardAt),
    pushedMs: matched.map((c) => c.pushedAt - c.heardAt),
    unmatched: seen.length - matched.length,
  };
}

/** The figures in a few lines: the shown title's offset beside the pushed one's. */
export function describeHeardTitle(r: HeardTitleResult): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
  const summary = (xs: number[]) =>
    xs.length === 0
      ? 'no change seen'
      : `median ${s(median(xs))}, range ${s(Math.min(...xs))} to ${s(Math.max(...xs))}`;
  const within = r.shownMs.filter((ms) => Math.abs(ms) <= 1_000).length;
  return (
    `  heard title: ${r.shownMs.length} audible song changes (440/880 Hz tone track, Chromium on /radio through the app; ` +
    `offset = title change − tone change, positive: the title after the sound; goal ±1 s)${r.unmatched ? `, ${r.unmatched} not matched` : ''}\n` +
    `    shown (heard) title: ${summary(r.shownMs)}; ${within}/${r.shownMs.length} within ±1 s\n` +
    `    pushed title (shown before decision 057): ${summary(r.pushedMs)}\n` +
    `    each change, shown / pushed ms: ${r.shownMs.map((ms, i) => `${ms.toFixed(0)} / ${r.pushedMs[i]!.toFixed(0)}`).join(', ')}`
  );
}

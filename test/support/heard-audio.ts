/**
 * An ear in the page, for the heard-title test and bench:stream (docs/decisions/057): on a page
 * playing the tone track (icecast.ts `makeToneSongs`), an AnalyserNode on the site's audio element
 * (same origin, crossOrigin set) tells which song's tone is heard, every 5 ms, beside the title the
 * /radio card shows and the title as pushed (an EventSource of its own on the same push).
 */
import type { Page } from 'playwright-core';
import type { ToneSong } from './icecast.ts';

/** Two songs that differ audibly, each with its own title. */
export const TONE_SONGS: ToneSong[] = [
  { title: 'Tone A 440 Hz', hz: 440 },
  { title: 'Tone B 880 Hz', hz: 880 },
];

/** What the page records, by its performance.now(). */
export interface EarLog {
  /** Each change of the song heard (index in the songs). */
  tones: Array<{ t: number; song: number }>;
  /** Each change of the card's title. */
  shown: Array<{ t: number; title: string }>;
  /** Each change of the title pushed. */
  pushed: Array<{ t: number; title: string }>;
  /** Every 5 ms: the song heard (-1: none clearly) and the card's title. */
  samples: Array<{ t: number; song: number; title: string }>;
}

/** Runs in the page (serialised by Playwright: self-contained). */
function listen({ songs, eventsUrl }: { songs: ToneSong[]; eventsUrl: string }): void {
  const log: EarLog = { tones: [], shown: [], pushed: [], samples: [] };
  (window as unknown as { earLog: EarLog }).earLog = log;
  const audio = document.querySelector('audio')!;
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  analyser.smoothingTimeConstant = 0;
  context.createMediaElementSource(audio).connect(analyser);
  analyser.connect(context.destination);
  void context.resume();
  const bins = new Float32Array(analyser.frequencyBinCount);
  const binOf = (hz: number) => Math.round(hz / (context.sampleRate / analyser.fftSize));
  const card = () => document.querySelector('.now-playing__title')?.textContent ?? '';
  let tone = -1;
  let shown = '';
  setInterval(() => {
    const t = performance.now();
    analyser.getFloatFrequencyData(bins);
    const levels = songs.map(({ hz }) => bins[binOf(hz)]!);
    const loudest = levels.indexOf(Math.max(...levels));
    // A clear winner (20 dB over the other tones): silence and the change's own frame decide nothing.
    const clear = levels.every((l, i) => i === loudest || levels[loudest]! - l > 20);
    if (clear && loudest !== tone) {
      tone = loudest;
      log.tones.push({ t, song: loudest });
    }
    const title = card();
    if (title !== shown) {
      shown = title;
      log.shown.push({ t, title });
    }
    log.samples.push({ t, song: clear ? loudest : -1, title });
  }, 5);
  const source = new EventSource(eventsUrl);
  source.addEventListener('message', (event: MessageEvent<string>) => {
    const { title = '' } = JSON.parse(event.data) as { title?: string };
    if (log.pushed.at(-1)?.title !== title) log.pushed.push({ t: performance.now(), title });
  });
}

/** Starts listening on a page whose radio plays (after Play: the audio element has its source). */
export async function startEar(page: Page, port = 8076, songs = TONE_SONGS): Promise<void> {
  await page.evaluate(listen, { songs, eventsUrl: `/api/now-playing/events?port=${port}` });
}

export const earLog = (page: Page): Promise<EarLog> =>
  page.evaluate(() => (window as unknown as { earLog: EarLog }).earLog);

/** One audible song change: when its tone was first heard, and when its title was pushed and shown (NaN: not seen near it). */
export interface SongChange {
  song: number;
  heardAt: number;
  pushedAt: number;
  shownAt: number;
}

/** Each audible change after the first (which only says where playing began), with its title's push and show. */
export function songChanges(log: EarLog, songs = TONE_SONGS, nearMs = 7_000): SongChange[] {
  const near = (list: Array<{ t: number; title: string }>, title: string, t: number) =>
    list.find((e) => e.title === title && Math.abs(e.t - t) < nearMs)?.t ?? Number.NaN;
  return log.tones.slice(1).map(({ t, song }) => ({
    song,
    heardAt: t,
    pushedAt: near(log.pushed, songs[song]!.title, t),
    shownAt: near(log.shown, songs[song]!.title, t),
  }));
}

/** What the rewind tests read: a window's playlist (through HTTP), the metrics, the app's env for recording. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePlaylist } from '../../src/server/rewind/window.ts';
import { freePort } from '../support/app-process.ts';
import { requireCommand } from '../support/system-deps.ts';

export const PORT = 8076;

/** A folder of the test's own for REWIND_DIR. */
export const rewindDir = (): string => mkdtempSync(join(tmpdir(), 'rewind-test-'));

/** An app that records: 1 s segments, a minute's window, its own folder and metrics port. */
export async function recordingEnv(dir: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return {
    REWIND: 'on',
    REWIND_DIR: dir,
    REWIND_SEGMENT_S: '1',
    REWIND_WINDOW_S: '60',
    METRICS_PORT: String(await freePort()),
    ...extra,
  };
}

/** The playlist as served at `origin` (null while there is none), parsed, with its text. */
export async function playlistAt(origin: string) {
  const res = await fetch(`${origin}/api/rewind/${PORT}/playlist.m3u8`);
  if (res.status !== 200) return null;
  const text = await res.text();
  return { text, ...parsePlaylist(text) };
}

/** One series' value from the app's /metrics (its METRICS_PORT), or NaN when absent. */
export async function metric(env: Record<string, string>, series: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${env.METRICS_PORT}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : Number.NaN;
}

/** Seconds of audio mpg123 decodes from MP3 bytes, and what it said on stderr or by its exit code (nothing: no error). */
export function decodedSeconds(mp3: Buffer): { seconds: number; complaints: string } {
  const mpg123 = requireCommand('the rewind decoder test', 'mpg123', 'mpg123');
  // 16-bit stereo at 44.1 kHz, as the test track is; no gapless trimming, no info frame read: every frame decoded.
  const run = spawnSync(
    mpg123,
    ['-q', '--no-gapless', '--no-infoframe', '-r', '44100', '--stereo', '-e', 's16', '-s', '-'],
    { input: mp3, maxBuffer: 64 * 1024 * 1024 },
  );
  const complaints = `${run.status === 0 ? '' : `exit ${run.status} `}${run.stderr.toString().trim()}`;
  return { seconds: run.stdout.length / 4 / 44_100, complaints };
}

/** What a player needs of HTTP: a GET of a path with headers, its status and body. */
export type Get = (path: string, headers: Record<string, string>) => Promise<{ status: number; body: Buffer }>;

export interface Played {
  /** Segments fetched and answered 200. */
  segments: number;
  /** performance.now() around the first and the last segment's fetch: when each was sent and answered. */
  firstSent: number;
  firstAnswered: number;
  lastSent: number;
  lastAnswered: number;
}

/**
 * Plays the window as an HLS player does, for `rounds` rounds a segment's duration (`segmentS`) apart:
 * reads the playlist, fetches each segment it has not fetched yet (the first round: the last three),
 * with one user agent throughout.
 */
export async function playWindow(get: Get, userAgent: string, rounds: number, segmentS = 1): Promise<Played> {
  const headers = { 'User-Agent': userAgent };
  const fetched = new Set<string>();
  const played: Played = { segments: 0, firstSent: 0, firstAnswered: 0, lastSent: 0, lastAnswered: 0 };
  for (let round = 0; round < rounds; round++) {
    const playlist = await get(`/api/rewind/${PORT}/playlist.m3u8`, headers);
    const names = playlist.body
      .toString()
      .split('\n')
      .filter((line) => line.endsWith('.mp3'));
    for (const name of fetched.size === 0 ? names.slice(-3) : names.filter((n) => !fetched.has(n))) {
      fetched.add(name);
      const sent = performance.now();
      const segment = await get(`/api/rewind/${PORT}/${name}`, headers);
      if (segment.status !== 200) continue;
      const answered = performance.now();
      if (played.segments === 0) Object.assign(played, { firstSent: sent, firstAnswered: answered });
      Object.assign(played, { lastSent: sent, lastAnswered: answered });
      played.segments += 1;
    }
    await new Promise((resolve) => setTimeout(resolve, segmentS * 1000));
  }
  return played;
}

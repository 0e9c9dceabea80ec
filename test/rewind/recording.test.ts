/**
 * The rewind recorder against a real Icecast fed by ezstream, in the built app (1 s segments, a
 * minute's window): it records whether anyone listens; a station restart is marked as a gap and
 * recording resumes by itself; an app restart keeps the window and serves it; two processes on one
 * folder: exactly one records, and the other takes over when it dies; below the free-space floor
 * recording stops with one log line and its metric while live plays; and mpg123 decodes every
 * segment of a minute's window, their lengths adding up to the playlist's.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlaylist } from '../../src/server/rewind/window.ts';
import { type AppProcess, freePort, startApp } from '../support/app-process.ts';
import { type Ezstream, type Icecast, startEzstream, startIcecast } from '../support/icecast.ts';
import { until } from '../support/wait.ts';
import { decodedSeconds, metric, PORT, playlistAt, recordingEnv, rewindDir } from './helpers.ts';

const series = (name: string) => `${name}{port="${PORT}"}`;

/** The first bytes of the live stream through the app (live listening is /api/stream, whatever rewind does). */
async function liveBytes(app: AppProcess, count: number): Promise<number> {
  const res = await fetch(`${app.url}/api/stream?port=${PORT}`);
  const reader = res.body!.getReader();
  let got = 0;
  while (got < count) {
    const { value, done } = await reader.read();
    if (done) break;
    got += value.length;
  }
  await reader.cancel();
  return got;
}

describe('the rewind recorder, with a real Icecast', () => {
  let ice: Icecast;
  let source: Ezstream;
  const dir = rewindDir();
  let stationEnv: Record<string, string>;
  let env: Record<string, string>;
  let app: AppProcess;
  const others: AppProcess[] = [];

  beforeAll(async () => {
    ice = await startIcecast();
    source = await startEzstream(ice);
    stationEnv = { STREAM_UPSTREAM_HOST: '127.0.0.1', STREAM_PORT_MAP: `${PORT}:${ice.port}` };
    env = await recordingEnv(dir, stationEnv);
    app = await startApp(env, { name: 'recorder' });
  });
  afterAll(async () => {
    for (const other of others) await other.stop();
    await app?.stop();
    await source?.stop();
    await ice?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('records the station with nobody listening: dated segments of about a second', async () => {
    await until('three segments', async () => ((await playlistAt(app.url))?.segments.length ?? 0) >= 3);
    const playlist = (await playlistAt(app.url))!;
    expect(playlist.text).toMatch(/^#EXTM3U\n/);
    expect(playlist.text).not.toContain('#EXT-X-ENDLIST');
    expect(playlist.text).toContain('#EXT-X-TARGETDURATION:1\n');
    for (const segment of playlist.segments) {
      expect(segment.seconds).toBeGreaterThanOrEqual(1);
      // 128 kbit/s at 44.1 kHz: a frame is 1152 samples, and a segment ends on the first frame boundary past 1 s.
      expect(segment.seconds).toBeLessThan(1 + 1152 / 44_100 + 1e-3);
    }
    expect(await ice.listeners('/stream')).toBe(1);
    expect(await metric(env, series('rewind_recording'))).toBe(1);
    // The recorder is no listener of ours: readers are told nobody listens.
    const nowPlaying = await (await fetch(`${app.url}/api/now-playing?port=${PORT}`)).json();
    expect(nowPlaying).toMatchObject({ live: true, listeners: 0 });
  });

  it('marks a station restart as a gap and records again by itself', async () => {
    expect((await playlistAt(app.url))!.text).not.toContain('#EXT-X-DISCONTINUITY\n');
    const port = ice.port;
    await source.stop();
    await ice.stop();
    ice = await startIcecast({ port });
    source = await startEzstream(ice);
    await until('two segments after a gap', async () => {
      const text = (await playlistAt(app.url))!.text;
      const after = text.split('#EXT-X-DISCONTINUITY\n')[1] ?? '';
      return (after.match(/#EXTINF/g) ?? []).length >= 2;
    });
    expect(await metric(env, series('rewind_gaps_total'))).toBeGreaterThanOrEqual(1);
    expect(await metric(env, series('rewind_recorder_restarts_total'))).toBeGreaterThanOrEqual(1);
  });

  it('keeps and serves the window across an app restart, the restart marked as a gap', async () => {
    await until('a segment', async () => ((await playlistAt(app.url))?.segments.length ?? 0) >= 1);
    const before = (await playlistAt(app.url))!;
    const gapsBefore = (before.text.match(/#EXT-X-DISCONTINUITY\n/g) ?? []).length;
    await app.stop();
    app = await startApp(env, { name: 'recorder again' });
    const after = (await playlistAt(app.url))!;
    const kept = before.segments.at(-1)!.name;
    expect(after.segments.map((s) => s.name)).toContain(kept);
    const segment = await fetch(`${app.url}/api/rewind/${PORT}/${kept}`);
    expect(segment.status).toBe(200);
    expect(segment.headers.get('content-type')).toBe('audio/mpeg');
    await until('a segment recorded after the restart', async () => {
      const text = (await playlistAt(app.url))!.text;
      return (text.match(/#EXT-X-DISCONTINUITY\n/g) ?? []).length > gapsBefore && !text.trimEnd().endsWith(kept);
    });
  });

  it('has exactly one of two processes on one folder record, and the other take over when it dies', async () => {
    const secondEnv = { ...env, METRICS_PORT: String(await freePort()) };
    const second = await startApp(secondEnv, { name: 'second recorder' });
    others.push(second);
    // Long enough for a lock retry (2 s) and some segments: still one recorder.
    const written = await metric(env, series('rewind_segments_written_total'));
    await until(
      'three more segments',
      async () => (await metric(env, series('rewind_segments_written_total'))) >= written + 3,
    );
    expect(await metric(env, series('rewind_recording'))).toBe(1);
    expect(await metric(secondEnv, series('rewind_recording'))).toBe(0);
    expect(await metric(secondEnv, series('rewind_segments_written_total'))).toBe(0);
    expect(await ice.listeners('/stream')).toBe(1);
    // The second serves the same window from the folder.
    expect((await playlistAt(second.url))!.segments.length).toBeGreaterThan(0);

    await app.stop('SIGKILL');
    await until(
      'the second process recording',
      async () => (await metric(secondEnv, series('rewind_recording'))) === 1,
    );
    await until(
      'segments written by the second',
      async () => (await metric(secondEnv, series('rewind_segments_written_total'))) >= 2,
    );
    app = await startApp(env, { name: 'recorder, third start' });
    expect(await metric(env, series('rewind_recording'))).toBe(0);
  });

  it('stops recording below the free-space floor, with one log line and its metric, while live plays', async () => {
    const floorDir = rewindDir();
    const floorEnv = await recordingEnv(floorDir, { ...stationEnv, REWIND_MIN_FREE_BYTES: String(2 ** 50) });
    const floored = await startApp(floorEnv, { name: 'below the floor' });
    others.push(floored);
    const stoppedLines = () => floored.logLines().filter((l) => String(l.msg).startsWith('rewind: recording stopped'));
    await until('the stop logged', () => stoppedLines().length > 0);
    expect(await metric(floorEnv, series('rewind_recording'))).toBe(0);
    const window = await (await fetch(`${floored.url}/api/rewind/${PORT}/window.json`)).json();
    expect(window).toMatchObject({ recording: false, start: null });
    // Several segments' time later: still the one line, and nothing written.
    expect(await liveBytes(floored, 64 * 1024)).toBeGreaterThanOrEqual(64 * 1024);
    expect(stoppedLines()).toHaveLength(1);
    expect(readdirSync(join(floorDir, String(PORT))).filter((n) => n.endsWith('.mp3'))).toEqual([]);
    expect(await metric(floorEnv, series('rewind_segments_written_total'))).toBe(0);
    rmSync(floorDir, { recursive: true, force: true });
  });

  it("decodes every segment of a minute's window without error, their lengths adding up to the playlist's", async () => {
    // Whichever process records it, the window is in the folder.
    const onDisk = () => parsePlaylist(readFileSync(join(dir, String(PORT), 'playlist.m3u8'), 'utf8')).segments;
    await until(
      'a minute of window',
      () => {
        const segments = onDisk();
        return segments.length > 0 && segments.at(-1)!.start - segments[0]!.start >= 58_000;
      },
      120_000,
    );
    // Read at once, decoded after: the oldest leaves the window every second (one gone already is left out).
    const segments = onDisk().flatMap((segment) => {
      try {
        return [{ ...segment, mp3: readFileSync(join(dir, String(PORT), segment.name)) }];
      } catch {
        return [];
      }
    });
    expect(segments.length).toBeGreaterThanOrEqual(50);
    let decoded = 0;
    let listed = 0;
    for (const segment of segments) {
      const { seconds, complaints } = decodedSeconds(segment.mp3);
      expect(complaints, segment.name).toBe('');
      // Each segment alone: within one frame of its EXTINF.
      expect(Math.abs(seconds - segment.seconds), segment.name).toBeLessThan(1152 / 44_100);
      decoded += seconds;
      listed += segment.seconds;
    }
    // EXTINF has six decimals: the sums agree to within their rounding.
    expect(Math.abs(decoded - listed)).toBeLessThan(segments.length * 1e-6);
  }, 180_000);
});

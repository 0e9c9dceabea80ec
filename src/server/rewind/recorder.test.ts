/**
 * The recorder in process, against the demo station (real-time MP3 on loopback) and a station that
 * sends something else: segments on frame boundaries with their dates, titles kept with the time
 * they started, nothing recorded from a non-MPEG answer.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseRewindWindow } from '../../shared/rewind.ts';
import { frameHeaderAt } from '../audio/mp3-frames.ts';
import { DEMO_LOOP_FILE, startDemoStation } from '../demo-station/station.ts';
import { id3Length, ptsOf } from './id3-timestamp.ts';
import { type FollowTitle, type Recorder, type RecorderSettings, startRecorder } from './recorder.ts';
import { parsePlaylist } from './window.ts';
import { openWindowStore } from './window-store.ts';

const SETTINGS: RecorderSettings = {
  segmentS: 1,
  windowS: 30,
  maxBytes: 1e9,
  minFreeBytes: 0,
  connectTimeoutMs: 2_000,
  idleTimeoutMs: 5_000,
  retryMs: 200,
};

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const waitFor = async (check: () => boolean) => {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

async function record(url: string, followTitle: FollowTitle = () => () => {}) {
  const dir = mkdtempSync(join(tmpdir(), 'rewind-recorder-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const lines: Array<Record<string, unknown>> = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const store = await openWindowStore(dir);
  const recorder: Recorder = await startRecorder({ port: 8076, url, store, settings: SETTINGS, followTitle, log });
  cleanups.push(() => recorder.stop());
  const playlist = () => parsePlaylist(readFileSync(join(dir, 'playlist.m3u8'), 'utf8'));
  const window = () => parseRewindWindow(JSON.parse(readFileSync(join(dir, 'window.json'), 'utf8')));
  return { dir, recorder, lines, playlist, window };
}

describe('the recorder', () => {
  it('cuts the station into dated segments that start and end on frame boundaries, titles kept with their start', async () => {
    const station = await startDemoStation({ mount: '/stream' });
    cleanups.push(() => station.close());
    let title: (title: string | null) => void = () => {};
    const { dir, recorder, playlist, window } = await record(station.url, (onTitle) => {
      title = onTitle;
      return () => {};
    });
    const before = Date.now();
    title('First');
    await waitFor(() => playlist().segments.length >= 2);
    const between = Date.now();
    title('Second');
    await waitFor(() => playlist().segments.length >= 4);

    const { segments } = playlist();
    for (const [i, segment] of segments.entries()) {
      const bytes = readFileSync(join(dir, segment.name));
      // The timestamp tag (RFC 8216 3.4) first: the segment's start as a 90 kHz MPEG-2 time.
      const tag = id3Length(bytes);
      expect(tag).toBeGreaterThan(0);
      expect(bytes.subarray(20, 20 + 45).toString('latin1')).toBe('com.apple.streaming.transportStreamTimestamp\0');
      // The playlist's date has whole milliseconds: the tag within one (90 ticks).
      expect(Math.abs(Number(bytes.readBigUInt64BE(tag - 8)) - ptsOf(segment.start))).toBeLessThanOrEqual(90);
      // Then whole frames only: each frame's header says where the next starts, and the last ends the file.
      let at = tag;
      let seconds = 0;
      while (at < bytes.length) {
        const header = frameHeaderAt(bytes, at);
        expect(header, `${segment.name} at ${at}`).not.toBeNull();
        at += header!.length;
        seconds += header!.samples / header!.sampleRate;
      }
      expect(at).toBe(bytes.length);
      expect(segment.seconds).toBeCloseTo(seconds, 5);
      // One after another in time, no gap and no overlap.
      if (i > 0) expect(segment.start).toBeCloseTo(segments[i - 1]!.start + segments[i - 1]!.seconds * 1000, -1);
    }
    const titles = window()!.titles;
    expect(titles.map((t) => t.title)).toEqual(['First', 'Second']);
    expect(Date.parse(titles[0]!.at)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(titles[1]!.at)).toBeGreaterThanOrEqual(between);
    expect(recorder.segmentsWritten).toBe(segments.length);
    expect(recorder.connected).toBe(true);
  });

  it('records nothing from a station that does not send MPEG audio, and says so once', async () => {
    const station = createServer((_req, res) => {
      // Good MP3 frames, but said to be a page: not the station's audio, not recorded.
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(readFileSync(DEMO_LOOP_FILE));
    });
    await new Promise<void>((resolve) => station.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => station.close(() => resolve())));
    const url = `http://127.0.0.1:${(station.address() as AddressInfo).port}/stream`;
    const { dir, recorder, lines } = await record(url);
    await waitFor(() => recorder.restarts >= 3);
    expect(readdirSync(dir).filter((name) => name.endsWith('.mp3'))).toEqual([]);
    expect(lines.filter((l) => String(l.msg).includes('sends no MP3 audio'))).toHaveLength(1);
    expect(recorder.connected).toBe(false);
  });
});

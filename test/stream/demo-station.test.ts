/**
 * The built-in demo station: on its own, and behind the built server exactly
 * as `npm start` runs it with no upstream configured.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { findFrameSync, frameHeaderAt, splitFrames } from '../../src/server/audio/mp3-frames.ts';
import { DEMO_LOOP_FILE, DEMO_TITLE, startDemoStation } from '../../src/server/demo-station/station.ts';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { fetchAll, type OpenStream, openStream } from './helpers.ts';

const loop = readFileSync(DEMO_LOOP_FILE);
const frames = splitFrames(loop);
const bytesPerSecond = loop.length / ((frames.length * 1152) / 44_100);

/** The station's burst to a new listener (BURST_SECONDS in station.ts). */
const BURST_BYTES = 2 * bytesPerSecond;
/** Rounding: the station's clock ticks every 100 ms and sends whole frames. */
const SLACK = 0.1 * bytesPerSecond + 2 * Math.max(...frames.map((f) => f.length));

/**
 * Listens for `seconds` of audio past the burst, then checks the pace in the one direction a busy
 * machine cannot blur: a radio never gets ahead of real time (a file download would), so by any
 * moment it has sent at most the burst plus the audio time since the request. The measured rate is printed.
 */
async function expectRealTimePace(stream: OpenStream, requestedAt: number, seconds: number): Promise<void> {
  await stream.waitForBytes(BURST_BYTES - SLACK);
  const a = stream.received();
  const t0 = performance.now();
  await stream.waitForBytes(a + seconds * bytesPerSecond);
  const received = stream.received();
  const elapsed = (performance.now() - requestedAt) / 1000;
  console.log(`demo station: ${((received - a) / ((performance.now() - t0) / 1000) / 1000).toFixed(1)} kB/s`);
  expect(received).toBeLessThanOrEqual(BURST_BYTES + elapsed * bytesPerSecond + SLACK);
  // And it flows on: more audio arrives.
  await stream.waitForBytes(received + 1);
}

describe('the demo loop', () => {
  it('is a whole number of valid MPEG-1 Layer III frames at 44.1 kHz', () => {
    expect(frames.length).toBeGreaterThan(300);
    expect(frames.reduce((n, f) => n + f.length, 0)).toBe(loop.length);
    for (const frame of frames) expect(frameHeaderAt(frame, 0)).toMatchObject({ sampleRate: 44_100, samples: 1152 });
  });
});

describe('startDemoStation', () => {
  it('serves the mount at real-time rate from a frame boundary, and an Icecast-shaped status', async () => {
    const station = await startDemoStation({ mount: '/stream' });
    try {
      const requestedAt = performance.now();
      const stream = await openStream(`${station.url}`);
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('audio/mpeg');
      await expectRealTimePace(stream, requestedAt, 3);
      const body = stream.body();
      expect(findFrameSync(body, 0, 50)).toBe(0);

      const status = await fetchAll(`http://127.0.0.1:${station.port}/status-json.xsl`);
      const source = JSON.parse(status.text).icestats.source;
      expect(source).toMatchObject({ listeners: 1, title: DEMO_TITLE });
      expect(new URL(source.listenurl).pathname).toBe('/stream');

      expect((await fetchAll(`http://127.0.0.1:${station.port}/other`)).status).toBe(404);
      stream.destroy();
    } finally {
      await station.close();
    }
  });
});

describe('npm start with no upstream configured', () => {
  let app: AppProcess | undefined;
  afterAll(async () => {
    await app?.stop();
  });

  it('plays the demo station through /api/stream?port=8076, unhurried by short server timeouts', async () => {
    app = await startApp({
      STREAM_UPSTREAM_HOST: '',
      REQUEST_TIMEOUT_MS: '1000',
      HEADERS_TIMEOUT_MS: '1000',
      KEEP_ALIVE_TIMEOUT_MS: '1000',
    });
    const requestedAt = performance.now();
    const stream = await openStream(`${app.url}/api/stream?port=8076`, { headers: { Connection: 'keep-alive' } });
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('audio/mpeg');
    expect(stream.headers['icy-name']).toMatch(/demo/i);
    // Three seconds past the burst, longer than every server timeout above (and their 1 s sweep):
    // a stream is not a request that is still arriving, so it still flows.
    await expectRealTimePace(stream, requestedAt, 3);
    expect(findFrameSync(stream.body(), 0, 50)).toBe(0);

    const nowPlaying = await fetchAll(`${app.url}/api/now-playing?port=8076`);
    expect(JSON.parse(nowPlaying.text)).toEqual({ live: true, title: DEMO_TITLE, listeners: 1 });
    stream.destroy();
  });

  it('stops the station with the server', async () => {
    const code = await app!.stop();
    expect(code).toBe(0);
    expect(app!.logs.join('\n')).toMatch(/demo station on the air/);
  });
});

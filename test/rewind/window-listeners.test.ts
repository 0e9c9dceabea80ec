/**
 * The rewind window's listeners counted when the app serves the window itself (no nginx): a client
 * fetching segments as a player does (2 s segments, one every 2 s, for a minute and more) adds
 * listener-seconds and, past a minute, a session to `mode="rewind"` of its port; the live series
 * and the other port stay as they were. (Behind the shipped nginx: test/deploy/nginx-rewind.test.ts.)
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, startApp } from '../support/app-process.ts';
import { BROWSER_UA } from '../support/http.ts';
import { until } from '../support/wait.ts';
import { type Get, metric, PORT, playlistAt, playWindow, recordingEnv, rewindDir } from './helpers.ts';

/** Segments of 2 s: a session ends after three without a fetch (6 s), room for a busy machine. */
const SEGMENT_S = 2;
const series = (name: string, mode: string, port = PORT) => `${name}{port="${port}",mode="${mode}"}`;

describe("the rewind window's listeners, counted by the app serving the window", () => {
  const dir = rewindDir();
  let env: Record<string, string>;
  let app: AppProcess;
  const get: Get = async (path, headers) => {
    const res = await fetch(app.url + path, { headers });
    return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
  };

  beforeAll(async () => {
    env = await recordingEnv(dir, { STREAM_ALLOWED_PORTS: `${PORT},8078`, REWIND_SEGMENT_S: String(SEGMENT_S) });
    app = await startApp(env, { name: 'recorder' });
    await until('three segments', async () => ((await playlistAt(app.url))?.segments.length ?? 0) >= 3);
  });
  afterAll(async () => {
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('adds the listening time and, past a minute, a session to mode="rewind" of the port', async () => {
    expect(await metric(env, series('stream_listener_seconds_total', 'rewind'))).toBe(0);
    expect(await metric(env, series('stream_listener_sessions_total', 'rewind'))).toBe(0);
    const played = await playWindow(get, BROWSER_UA, 32, SEGMENT_S);
    const seconds = await metric(env, series('stream_listener_seconds_total', 'rewind'));
    // From the first segment's fetch to the last, plus the last segment: bounded by when the
    // requests were sent and answered, whatever the machine's speed.
    expect(seconds).toBeGreaterThanOrEqual((played.lastSent - played.firstAnswered) / 1000 + SEGMENT_S);
    expect(seconds).toBeLessThanOrEqual((played.lastAnswered - played.firstSent) / 1000 + SEGMENT_S);
    expect(seconds).toBeGreaterThanOrEqual(60);
    expect(await metric(env, series('stream_listener_sessions_total', 'rewind'))).toBe(1);
    expect(await metric(env, series('stream_listeners_peak', 'rewind'))).toBe(1);
    // Nothing for live listening, nor for the other port.
    expect(await metric(env, series('stream_listener_seconds_total', 'live'))).toBe(0);
    expect(await metric(env, series('stream_listener_seconds_total', 'rewind', 8078))).toBe(0);
  });

  it('counts another client (another user agent) as another listener', async () => {
    const before = await metric(env, series('stream_listener_seconds_total', 'rewind'));
    await Promise.all([
      playWindow(get, `${BROWSER_UA} A`, 2, SEGMENT_S),
      playWindow(get, `${BROWSER_UA} B`, 2, SEGMENT_S),
    ]);
    expect(await metric(env, series('stream_listeners_peak', 'rewind'))).toBeGreaterThanOrEqual(2);
    expect(await metric(env, series('stream_listener_seconds_total', 'rewind'))).toBeGreaterThan(before);
  });
});

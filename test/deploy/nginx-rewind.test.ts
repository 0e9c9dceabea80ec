/**
 * The rewind window through the shipped deploy/nginx.conf (its REWIND_DIR swapped in) in front of
 * a built app recording the demo station (1 s segments): nginx serves the playlist, window.json and
 * every segment from disk without asking the app (its request log is counted), segments immutable
 * with Range and never compressed, the playlist short-lived; bad ports are 400 and crafted names
 * 404, through nginx as from the app itself. The window's listeners are still counted: nginx sends
 * its log of the segments it served to the app (REWIND_LOG_PORT), which counts them as listening;
 * of two processes on the port, the first to hold it counts, the other nothing.
 */
import { chmodSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppProcess, freePort, startApp } from '../support/app-process.ts';
import { BROWSER_UA, HANG_LIMIT_MS } from '../support/http.ts';
import { type DeployNginx, startNginx } from '../support/nginx.ts';
import { until } from '../support/wait.ts';
import { metric, PORT, playlistAt, playWindow, recordingEnv, rewindDir } from '../rewind/helpers.ts';

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request, the path sent exactly as written (no normalising client in between). */
function get(
  origin: string,
  path: string,
  headers: Record<string, string> = {},
  ca?: string,
  method = 'GET',
): Promise<Reply> {
  const https = origin.startsWith('https:');
  return new Promise((resolve, reject) => {
    const req = (https ? httpsRequest : httpRequest)(
      `${origin}/`,
      { method, path, headers, timeout: HANG_LIMIT_MS, ...(https && { ca }) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${path}: no answer`)));
    req.on('error', reject);
    req.end();
  });
}

/** The app's request-log lines for paths under /api/rewind/. */
const rewindLines = (app: AppProcess) =>
  app.logLines().filter((l) => String((l.req as { url?: string } | undefined)?.url ?? '').startsWith('/api/rewind/'));

describe('the rewind window through deploy/nginx.conf', () => {
  const dir = rewindDir();
  let app: AppProcess;
  let env: Record<string, string>;
  /** A second process of the host, started after the first, with the same REWIND_LOG_PORT. */
  let other: AppProcess;
  let otherEnv: Record<string, string>;
  let nginx: DeployNginx;
  const viaNginx = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    get(nginx.httpsUrl, path, headers, nginx.certificate.cert, method);

  beforeAll(async () => {
    // nginx's workers (nobody) read the folder the app writes.
    chmodSync(dir, 0o755);
    const rewindLogPort = await freePort();
    env = await recordingEnv(dir, { REWIND_LOG_PORT: String(rewindLogPort) });
    app = await startApp(env, { name: 'recorder' });
    otherEnv = await recordingEnv(dir, { REWIND_LOG_PORT: String(rewindLogPort) });
    other = await startApp(otherEnv, { name: 'second process' });
    await until('three segments', async () => ((await playlistAt(app.url))?.segments.length ?? 0) >= 3);
    nginx = await startNginx({ upstreams: [app.port], rewindDir: dir, rewindLogPort });
  });
  afterAll(async () => {
    await nginx?.stop();
    await other?.stop();
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the playlist, window.json and every segment from disk: not one request reaches the app', async () => {
    // Requests to the app are counted from its log, which it writes every 100 ms: a request of
    // known URL, once logged, says every line before it is there.
    const logged = async (marker: string) => {
      await get(app.url, marker);
      await until(`${marker} in the log`, () =>
        rewindLines(app).some((l) => (l.req as { url: string }).url === marker),
      );
      return rewindLines(app).length;
    };
    const before = await logged(`/api/rewind/${PORT}/window.json?before`);
    const playlist = await viaNginx(`/api/rewind/${PORT}/playlist.m3u8`);
    expect(playlist.status).toBe(200);
    expect(playlist.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(playlist.headers['cache-control']).toBe('public, max-age=1');
    const window = await viaNginx(`/api/rewind/${PORT}/window.json`);
    expect(window.status).toBe(200);
    expect(window.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(window.headers['cache-control']).toBe('public, max-age=1');
    expect(JSON.parse(window.body.toString())).toMatchObject({ recording: true });

    const names = playlist.body
      .toString()
      .split('\n')
      .filter((line) => line.endsWith('.mp3'));
    expect(names.length).toBeGreaterThanOrEqual(3);
    for (const name of names) {
      const segment = await viaNginx(`/api/rewind/${PORT}/${name}`, { 'Accept-Encoding': 'gzip, deflate, br' });
      // A segment trimmed from the window between the playlist and now is a 404; the rest are whole.
      if (segment.status === 404) continue;
      expect(segment.status, name).toBe(200);
      expect(segment.headers['content-type']).toBe('audio/mpeg');
      expect(segment.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(segment.headers['content-encoding']).toBeUndefined();
      expect(segment.body).toEqual(readFileSync(join(dir, String(PORT), name)));
    }
    const last = names.at(-1)!;
    const whole = readFileSync(join(dir, String(PORT), last));
    const part = await viaNginx(`/api/rewind/${PORT}/${last}`, { Range: 'bytes=100-1099' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${whole.length}`);
    expect(part.body).toEqual(whole.subarray(100, 1100));

    // Only the second marker reached the app since the first.
    expect((await logged(`/api/rewind/${PORT}/window.json?after`)) - before).toBe(1);
  });

  it("counts the window's listeners from nginx's log, while no segment request reaches the app", async () => {
    const rewind = (name: string) => `${name}{port="${PORT}",mode="rewind"}`;
    const counted = 'rewind_access_log_lines_total{result="counted"}';
    const before = {
      seconds: await metric(env, rewind('stream_listener_seconds_total')),
      counted: await metric(env, counted),
    };
    const played = await playWindow((path, headers) => viaNginx(path, headers), BROWSER_UA, 4);
    expect(played.segments).toBeGreaterThanOrEqual(4);
    // One log line per segment served, each counted: the listener is counted as listening, by the
    // process that holds the port and by it alone (the second process of the host counts nothing).
    await until('every segment counted', async () => (await metric(env, counted)) - before.counted === played.segments);
    expect(await metric(otherEnv, counted)).toBe(0);
    expect(await metric(otherEnv, rewind('stream_listener_seconds_total'))).toBe(0);
    expect(await metric(env, rewind('stream_listener_seconds_total'))).toBeGreaterThan(before.seconds + 1);
    expect(await metric(env, rewind('stream_listeners_peak'))).toBeGreaterThanOrEqual(1);
    // The app served none of them: its request log, complete up to a marker sent after them, has no segment.
    const marker = `/api/rewind/${PORT}/window.json?after-playing`;
    await get(app.url, marker);
    await until('the marker in the log', () => rewindLines(app).some((l) => (l.req as { url: string }).url === marker));
    const segmentRequests = rewindLines(app).filter((l) => /\.mp3(?:\?|$)/.test((l.req as { url: string }).url));
    expect(segmentRequests).toEqual([]);
  });

  const badPorts = ['8000', '80760', '08076', 'abc', '', '%38076', '..%2F8076'];
  const craftedNames = [
    'x.mp3',
    'secret.txt',
    '..%2Fplaylist.m3u8',
    '../8076/playlist.m3u8',
    'playlist.m3u8/',
    '%70laylist.m3u8',
    '1795874400000-0.mp3%2F',
    '1795874400000-0.mp3',
    '',
  ];

  it('answers a port that is not allowed 400, directly and through nginx', async () => {
    for (const port of badPorts) {
      const path = `/api/rewind/${port}/playlist.m3u8`;
      expect((await get(app.url, path)).status, `app ${path}`).toBe(400);
      expect((await viaNginx(path)).status, `nginx ${path}`).toBe(400);
    }
  });

  it('answers a name the window never has 404, directly and through nginx', async () => {
    for (const name of craftedNames) {
      const path = `/api/rewind/${PORT}/${name}`;
      expect((await get(app.url, path)).status, `app ${path}`).toBe(404);
      expect((await viaNginx(path)).status, `nginx ${path}`).toBe(404);
    }
    expect((await get(app.url, `/api/rewind/${PORT}`)).status).toBe(404);
    expect((await viaNginx(`/api/rewind/${PORT}`)).status).toBe(404);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const head = await viaNginx(`/api/rewind/${PORT}/playlist.m3u8`, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(head.body.length).toBe(0);
  });
});

/** The window's files as the app answers them: which names, which ports, which headers, Range. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byteRange, serveRewindFiles } from './serve.ts';

describe('byteRange', () => {
  it.each([
    ['bytes=0-99', [0, 99]],
    ['bytes=100-', [100, 999]],
    ['bytes=-10', [990, 999]],
    ['bytes=900-5000', [900, 999]],
    ['bytes=1000-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=5-2', null],
    ['bytes=0-1,5-6', null],
    ['items=0-1', null],
    [undefined, null],
  ] as const)('%s of 1,000 bytes is %j', (header, expected) => {
    expect(byteRange(header, 1_000)).toEqual(expected);
  });
});

describe('serveRewindFiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rewind-serve-'));
  const segment = Buffer.alloc(1_000, 7);
  let server: Server;
  let base: string;
  const serve = serveRewindFiles(dir, [8076]);

  beforeAll(async () => {
    mkdirSync(join(dir, '8076'));
    writeFileSync(join(dir, '8076', 'playlist.m3u8'), '#EXTM3U\n');
    writeFileSync(join(dir, '8076', '1795874400000-0.mp3'), segment);
    writeFileSync(join(dir, '8076', 'secret.txt'), 'no');
    server = createServer((req, res) => {
      if (!serve(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/rewind`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the playlist and segments with their types and lifetimes, Range on segments', async () => {
    const playlist = await fetch(`${base}/8076/playlist.m3u8`);
    expect(playlist.status).toBe(200);
    expect(playlist.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
    expect(playlist.headers.get('cache-control')).toBe('public, max-age=1');
    const whole = await fetch(`${base}/8076/1795874400000-0.mp3`);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await whole.arrayBuffer())).toEqual(segment);
    const part = await fetch(`${base}/8076/1795874400000-0.mp3`, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 10-19/1000');
    expect((await part.arrayBuffer()).byteLength).toBe(10);
    const beyond = await fetch(`${base}/8076/1795874400000-0.mp3`, { headers: { range: 'bytes=5000-' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */1000');
  });

  it('says it is not recording when there is no window.json, and 404s names it does not serve', async () => {
    const window = await fetch(`${base}/8076/window.json`);
    expect(window.status).toBe(200);
    expect(await window.json()).toEqual({ recording: false, start: null, end: null, titles: [] });
    for (const name of ['secret.txt', '1795874400001-1.mp3', '..%2Fsecret.txt', 'playlist.m3u8/x', '']) {
      expect((await fetch(`${base}/8076/${name}`)).status, name).toBe(404);
    }
  });

  it('is a 400 for a port that is not allowed or not a port, and not its business elsewhere', async () => {
    for (const port of ['8000', '08076', 'abc', '', '8076x']) {
      expect((await fetch(`${base}/${port}/playlist.m3u8`)).status, port).toBe(400);
    }
    expect((await fetch(`${base.replace('/rewind', '/rewinds')}/8076/playlist.m3u8`)).status).toBe(418);
    expect((await fetch(`${base}/8076/playlist.m3u8`, { method: 'POST' })).status).toBe(418);
  });
});

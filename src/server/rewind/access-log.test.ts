import { createSocket } from 'node:dgram';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parseLogLine, receiveAccessLog, type SegmentFetch } from './access-log.ts';

const PORTS = [8076];
/** A line as nginx sends it (syslog, nohostname), with the site's log_format. */
const line = (entry: Record<string, string>) =>
  `<190>Nov 29 02:01:23 news_rewind: ${JSON.stringify({ uri: '/api/rewind/8076/1795874400000-12.mp3', status: '200', addr: '203.0.113.5', ua: 'Mozilla/5.0 (X11)', ...entry })}`;

describe("nginx's access log of the window", () => {
  it('reads a segment fetched, with the client as address and user agent', () => {
    expect(parseLogLine(line({}), PORTS)).toEqual({ client: '203.0.113.5\nMozilla/5.0 (X11)', port: 8076 });
    expect(parseLogLine(line({ status: '206', uri: '/api/rewind/8076/1795874400000-12.mp3?x' }), PORTS)).not.toBeNull();
    // A user agent holding quotes and the tag itself stays one field (escape=json).
    expect(parseLogLine(line({ ua: 'a" news_rewind: {"uri":"x' }), PORTS)?.client).toBe(
      '203.0.113.5\na" news_rewind: {"uri":"x',
    );
  });

  it('ignores anything but a segment of an allowed port answered 200 or 206', () => {
    const entries: Array<Record<string, string>> = [
      { status: '404' },
      { status: '304' },
      { uri: '/api/rewind/8076/playlist.m3u8' },
      { uri: '/api/rewind/8000/1795874400000-12.mp3' },
      { uri: '/api/rewind/08076/1795874400000-12.mp3' },
      { uri: '/api/rewind/8076/../1795874400000-12.mp3' },
      { uri: '/api/stream?port=8076' },
    ];
    for (const entry of entries) {
      expect(parseLogLine(line(entry), PORTS), JSON.stringify(entry)).toBeNull();
    }
    for (const text of ['', 'news_rewind: {', '<190>Nov 29 x news_rewind: [1]', '<190>x other: {"uri":"/"}']) {
      expect(parseLogLine(text, PORTS), text).toBeNull();
    }
  });

  it('is received by one process on the port; a second one waits, and takes over when the first stops', async () => {
    const log = pino({ level: 'silent' });
    const fetches: string[] = [];
    const onSegment = (name: string) => (f: SegmentFetch) => fetches.push(`${name} ${f.client}`);
    const first = await receiveAccessLog({ port: 0, allowedPorts: PORTS, onSegment: onSegment('first'), log });
    expect(first.held).toBe(true);
    await first.stop();
    // Port 0 cannot be shared: find the one the kernel gives, then race two receivers for it.
    const probe = createSocket('udp4');
    const port = await new Promise<number>((resolve) =>
      probe.bind(0, '127.0.0.1', () => resolve(probe.address().port)),
    );
    probe.close();
    const a = await receiveAccessLog({ port, allowedPorts: PORTS, onSegment: onSegment('a'), log, retryMs: 50 });
    const b = await receiveAccessLog({ port, allowedPorts: PORTS, onSegment: onSegment('b'), log, retryMs: 50 });
    expect([a.held, b.held]).toEqual([true, false]);
    const send = (text: string) =>
      new Promise<void>((resolve) => {
        const s = createSocket('udp4');
        s.send(text, port, '127.0.0.1', () => {
          s.close();
          resolve();
        });
      });
    await send(line({}));
    await send('junk');
    await expect.poll(() => a.counted + a.ignored).toBe(2);
    expect(fetches).toEqual(['a 203.0.113.5\nMozilla/5.0 (X11)']);
    await a.stop();
    await expect.poll(() => b.held).toBe(true);
    await send(line({ addr: '198.51.100.7' }));
    await expect.poll(() => fetches.at(-1)).toBe('b 198.51.100.7\nMozilla/5.0 (X11)');
    await b.stop();
  });

  it('refuses to start, naming REWIND_LOG_PORT, on a port it may not use', async () => {
    const log = pino({ level: 'silent' });
    await expect(
      receiveAccessLog({ port: 5140, host: '192.0.2.1', allowedPorts: PORTS, onSegment: () => {}, log }),
    ).rejects.toThrow(/REWIND_LOG_PORT 5140/);
  });
});

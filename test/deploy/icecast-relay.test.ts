/**
 * deploy/icecast-relay.xml's <relay> block, run by a real Icecast (the relay) against a real
 * master with a source: listeners through two app processes (STREAM_PORT_MAP to the relay) get
 * audio; each app holds one connection to the relay (it shares one upstream per port among its
 * listeners), and the master sees one listener, the relay, however many play.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type AppProcess } from '../support/app-process.ts';
import { type Ezstream, type Icecast, startEzstream, startIcecast } from '../support/icecast.ts';

const RELAY_CONFIG = new URL('../../deploy/icecast-relay.xml', import.meta.url).pathname;

/** The shipped <relay> block, pointed at the test's master (its server and port swapped, nothing else). */
function relayBlock(masterPort: number): string {
  const block = /^\s*<relay>[\s\S]*?<\/relay>/m.exec(readFileSync(RELAY_CONFIG, 'utf8'))?.[0];
  if (!block) throw new Error('deploy/icecast-relay.xml has no <relay> block');
  return block
    .replace(/<server>[^<]*<\/server>/, '<server>127.0.0.1</server>')
    .replace(/<port>[^<]*<\/port>/, `<port>${masterPort}</port>`);
}

/** Opens a listener through the app and resolves once `bytes` of audio arrived; the request stays open. */
function listen(app: AppProcess, bytes: number) {
  let req: ReturnType<typeof request> | undefined;
  const audio = new Promise<{ status: number; type: string | undefined; head: Buffer }>((resolve, reject) => {
    req = request(`${app.url}/api/stream?port=8076`, (res) => {
      const chunks: Buffer[] = [];
      let got = 0;
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        got += c.length;
        if (got >= bytes)
          resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], head: Buffer.concat(chunks) });
      });
      res.on('end', () => reject(new Error(`the stream ended after ${got} bytes`)));
    });
    req.on('error', reject);
    req.end();
  });
  return { audio, close: () => req?.destroy() };
}

describe('deploy/icecast-relay.xml', () => {
  let master: Icecast;
  let source: Ezstream;
  let relay: Icecast;
  let apps: AppProcess[] = [];

  beforeAll(async () => {
    master = await startIcecast();
    source = await startEzstream(master);
    await master.waitForMount('/stream');
    relay = await startIcecast({ extraXml: relayBlock(master.port) });
    await relay.waitForMount('/stream');
    const env = { STREAM_UPSTREAM_HOST: '127.0.0.1', STREAM_PORT_MAP: `8076:${relay.port}` };
    apps = [await startApp(env, { name: 'app-a' }), await startApp(env, { name: 'app-b' })];
  });
  afterAll(async () => {
    for (const app of apps) await app.stop();
    await relay?.stop();
    await source?.stop();
    await master?.stop();
  });

  it('plays to listeners through the app while the master sees one connection, the relay', async () => {
    const listeners = Array.from({ length: 6 }, (_, i) => listen(apps[i % 2]!, 32 * 1024));
    try {
      for (const { audio } of listeners) {
        const { status, type, head } = await audio;
        expect(status).toBe(200);
        expect(type).toBe('audio/mpeg');
        // MPEG audio frame sync (11 bits set) somewhere in the first bytes: it is audio.
        expect(head.some((b, i) => b === 0xff && ((head[i + 1] ?? 0) & 0xe0) === 0xe0)).toBe(true);
      }
      expect(await relay.waitForListeners(2)).toBe(2);
      expect(await master.listeners('/stream')).toBe(1);
    } finally {
      for (const { close } of listeners) close();
    }
  });
});

/**
 * Which source learns of a title change sooner (issue 20, docs/decisions/022): Icecast's status
 * page, or the in-band ICY metadata of a listener connection? Under `npm run bench:stream`,
 * against the same real Icecast fed by ezstream: one listener asks for ICY metadata
 * (`Icy-MetaData: 1`) and reads at the live edge; a status reader fetches /status-json.xsl back
 * to back (so the figure is the page's own lag, not a poll interval); each repetition changes the
 * title through Icecast's admin metadata update, as a station operator does, and records when each
 * source first shows it. Repetitions are spread over a second so they fall at different points
 * of the ICY metadata interval.
 */
import { get, type IncomingMessage } from 'node:http';
import { parseIcecastStatus } from '../src/server/stream/icecast-status.ts';
import type { Icecast } from '../test/support/icecast.ts';
import { sleep } from '../test/support/wait.ts';

const MOUNT = '/stream';
/** A change neither source shows within this was overwritten (see benchTitleLatency). */
const GIVE_UP_MS = 10_000;

export interface TitleLatency {
  /** ms from the admin update to each source showing the title, for the changes both showed. */
  status: number[];
  icy: number[];
  /** Bytes of audio between two ICY metadata blocks, and what they last at the stream's rate. */
  metaint: number;
}

/** StreamTitle out of an ICY metadata block ("StreamTitle='…';StreamUrl='…';", NUL-padded). */
const streamTitle = (block: Buffer) => /StreamTitle='(.*?)';/s.exec(block.toString('utf8'))?.[1] ?? null;

/** Feeds a listener's body through: calls `onTitle` with the StreamTitle of each metadata block. */
function icyTitles(metaint: number, onTitle: (title: string) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let audioLeft = metaint;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      const skip = Math.min(audioLeft, pending.length);
      audioLeft -= skip;
      pending = pending.subarray(skip);
      // A block: one length byte (×16), then the metadata; incomplete ones wait for the next chunk.
      const size = pending.length > 0 ? 1 + pending[0]! * 16 : Number.POSITIVE_INFINITY;
      if (audioLeft > 0 || pending.length < size) return;
      const title = streamTitle(pending.subarray(1, size));
      if (title !== null) onTitle(title);
      pending = pending.subarray(size);
      audioLeft = metaint;
    }
  };
}

/** A listener reading ICY metadata: `title()` is the latest StreamTitle seen. */
function icyListener(url: string): Promise<{ title: () => string | null; metaint: number; close: () => void }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { headers: { 'Icy-MetaData': '1' }, agent: false }, (res: IncomingMessage) => {
      const metaint = Number(res.headers['icy-metaint']);
      if (!(metaint > 0)) {
        res.destroy();
        reject(new Error(`no icy-metaint from ${url}`));
        return;
      }
      let title: string | null = null;
      res.on(
        'data',
        icyTitles(metaint, (t) => {
          title = t;
        }),
      );
      res.on('error', () => {});
      resolve({ title: () => title, metaint, close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

/** Reads the status page back to back; `title()` is the latest reading's. */
function statusReader(url: string): { title: () => string | null; close: () => void } {
  let title: string | null = null;
  let open = true;
  const readOnce = () =>
    new Promise<void>((resolve) => {
      const req = get(url, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          title = parseIcecastStatus(Buffer.concat(chunks).toString('utf8'), MOUNT).title;
          resolve();
        });
        res.on('error', () => resolve());
      });
      req.on('error', () => resolve());
    });
  void (async () => {
    while (open) await readOnce();
  })();
  return {
    title: () => title,
    close: () => {
      open = false;
    },
  };
}

type Source = { title: () => string | null };

/** Changes the title once; ms until each source shows it (NaN: not within GIVE_UP_MS). */
async function timeOneChange(ice: Icecast, title: string, sources: Source[]): Promise<number[]> {
  const changedAt = performance.now();
  await ice.setTitle(title);
  const seen: number[] = sources.map(() => Number.NaN);
  while (performance.now() - changedAt < GIVE_UP_MS && seen.some(Number.isNaN)) {
    sources.forEach((source, i) => {
      if (Number.isNaN(seen[i]) && source.title() === title) seen[i] = performance.now() - changedAt;
    });
    await sleep(2);
  }
  return seen;
}

export async function benchTitleLatency(ice: Icecast, repetitions = 8): Promise<TitleLatency> {
  const icy = await icyListener(`${ice.url}${MOUNT}`);
  const status = statusReader(`${ice.url}/status-json.xsl`);
  const result: TitleLatency = { status: [], icy: [], metaint: icy.metaint };
  try {
    await sleep(2_000); // past Icecast's burst: the listener reads at the live edge
    // ezstream sets its own title each time its file loops, which can overwrite a change before a
    // source shows it: such a change is made again, and only changes both sources showed count.
    for (let tries = 0; result.status.length < repetitions && tries < repetitions * 3; tries++) {
      await sleep(500 + Math.random() * 1_000);
      const [statusMs, icyMs] = await timeOneChange(ice, `Latency ${tries} ${Date.now()}`, [status, icy]);
      if (Number.isNaN(statusMs) || Number.isNaN(icyMs)) continue;
      result.status.push(statusMs!);
      result.icy.push(icyMs!);
    }
  } finally {
    icy.close();
    status.close();
  }
  return result;
}

/**
 * HEAD /api/stream: what a GET would get now, without opening a listener here or upstream
 * (docs/decisions/021): the stream's headers while this process relays the mount, else the latest
 * state a listener found (at most a few seconds old), else Icecast's status page.
 */
import type { ServerResponse } from 'node:http';
import { answerText, UPSTREAM_ANSWERS } from './answers.ts';
import type { IcecastStatus } from './icecast-status.ts';
import { DEFAULT_STREAM_HEADERS, type HeaderList, setStreamHeaders } from './stream-headers.ts';
import type { UpstreamHealth } from './upstream.ts';

/** HEAD answers from what is known about the upstream if it is at most this old. */
const HEAD_STATE_MAX_AGE_MS = 3_000;

export interface HeadDeps {
  health: UpstreamHealth;
  status: IcecastStatus;
  retryAfterS: number;
  /** The stream's headers while it is relayed, else the last ones seen (null: none yet). */
  headersOf(port: number): { live: boolean; headers: HeaderList | null };
}

export async function answerHead(res: ServerResponse, port: number, deps: HeadDeps): Promise<void> {
  const known = deps.headersOf(port);
  const code = known.live
    ? 200
    : (deps.health.latest(port, HEAD_STATE_MAX_AGE_MS) ?? (await deps.status.read(port, HEAD_STATE_MAX_AGE_MS)).status);
  if (code !== 200) {
    const { text, retry } = UPSTREAM_ANSWERS[code];
    answerText(res, code, text, retry ? deps.retryAfterS : undefined);
    return;
  }
  setStreamHeaders(res, known.headers ?? DEFAULT_STREAM_HEADERS);
  res.end();
}

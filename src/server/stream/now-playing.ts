/**
 * GET /api/now-playing?port=N: the current title and listener count as JSON, from Icecast's status
 * (icecast-status.ts), reused for a few seconds so any number of pages cost one upstream request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerText, TEXT } from './answers.ts';
import type { StreamConfig } from './config.ts';
import type { IcecastStatus, NowPlaying } from './icecast-status.ts';
import { requestedPort } from './port-param.ts';

/**
 * This process's own listeners of a port, whether it relays the mount (then Icecast counts it as
 * one), and whether it records it (the rewind recorder's connection, one more; absent: not).
 */
export type LocalListeners = (port: number) => {
  relaying: boolean;
  count: number;
  recording?: boolean;
  /** The newest listener (mount-feed.ts `newest`; null or absent: not relaying). */
  newest?: { lagS: number; fromMs: number } | null;
};

/**
 * Icecast counts each process that relays the mount as one listener, and its rewind recorder as
 * another: the count a reader sees replaces our connections by the listeners we serve through them.
 */
export function withLocalListeners(
  nowPlaying: NowPlaying,
  local: { relaying: boolean; count: number; recording?: boolean },
): NowPlaying {
  const own = (local.relaying ? 1 : 0) + (local.recording ? 1 : 0);
  if (nowPlaying.listeners === null || own === 0) return nowPlaying;
  return { ...nowPlaying, listeners: Math.max(0, nowPlaying.listeners - own) + local.count };
}

/** Answers GET or HEAD /api/now-playing?port=N; a failure to read the status goes to `onError`. */
export type NowPlayingHandler = (req: IncomingMessage, res: ServerResponse, onError: (err: unknown) => void) => void;

export function createNowPlayingHandler(
  config: StreamConfig,
  status: IcecastStatus,
  local: LocalListeners,
): NowPlayingHandler {
  return (req, res, onError) => {
    const port = requestedPort(req.url ?? '', config.allowedPorts);
    if (port === null) return answerText(res, 400, TEXT.badPort);
    status
      .read(port, config.statusCacheMs)
      .then(({ nowPlaying }) => {
        const body = JSON.stringify(withLocalListeners(nowPlaying, local(port)));
        // Nothing under /api/ is stored by any cache (issue 19): a CDN keeping a title would show
        // yesterday's show; the status cache above already spares Icecast.
        res.writeHead(200, {
          'Cache-Control': 'no-store',
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': Buffer.byteLength(body),
        });
        res.end(body);
      })
      .catch(onError);
  };
}

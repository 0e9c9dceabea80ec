/**
 * GET /api/now-playing?port=N: the current title and listener count as JSON, from Icecast's status
 * (icecast-status.ts), reused for a few seconds so any number of pages cost one upstream request.
 */
import type { RequestHandler } from 'express';
import type { StreamConfig } from './config.ts';
import type { IcecastStatus, NowPlaying } from './icecast-status.ts';
import { requestedPort } from './port-param.ts';

/** This process's own listeners of a port, and whether it relays the mount (then Icecast counts it as one). */
export type LocalListeners = (port: number) => { relaying: boolean; count: number };

/**
 * Icecast counts each process that relays the mount as one listener: the count a reader sees
 * replaces our one connection by the listeners we serve through it.
 */
export function withLocalListeners(nowPlaying: NowPlaying, local: { relaying: boolean; count: number }): NowPlaying {
  if (nowPlaying.listeners === null || !local.relaying) return nowPlaying;
  return { ...nowPlaying, listeners: Math.max(0, nowPlaying.listeners - 1) + local.count };
}

export function createNowPlayingHandler(
  config: StreamConfig,
  status: IcecastStatus,
  local: LocalListeners,
): RequestHandler {
  return (req, res, next) => {
    const port = requestedPort(req.originalUrl, config.allowedPorts);
    if (port === null) {
      res.status(400).set('Cache-Control', 'no-store').type('text/plain').send('Invalid stream request');
      return;
    }
    status
      .read(port, config.statusCacheMs)
      .then(({ nowPlaying }) => {
        // Nothing under /api/ is stored by any cache (issue 19): a CDN keeping a title would show
        // yesterday's show; the status cache above already spares Icecast.
        res.set('Cache-Control', 'no-store').json(withLocalListeners(nowPlaying, local(port)));
      })
      .catch(next);
  };
}

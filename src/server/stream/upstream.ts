/**
 * Where the upstream is, and what we last learnt about it.
 */
import type { Logger } from 'pino';
import type { StreamConfig } from './config.ts';

/** `http://host:port` of the upstream for a visitor's port: the one place its URL is built. */
export function upstreamOrigin(config: StreamConfig, port: number): string {
  const host = config.upstreamHost;
  const upstreamPort = config.upstreamPorts[port] ?? port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${upstreamPort}`;
}

/**
 * What a listener asking now would get: 200 (on the air), 503 (mount missing
 * or full: the source stopped, or Icecast's own limits), 502 (refused, reset
 * or a bad answer), 504 (no answer in time).
 */
export type UpstreamStatus = 200 | 502 | 503 | 504;

interface Known {
  status: UpstreamStatus;
  at: number;
}

export interface UpstreamHealth {
  /** Records what a request to the upstream just found; logs when it changes (with `detail`). */
  record(port: number, status: UpstreamStatus, detail?: Record<string, unknown>): void;
  /** The latest status recorded within maxAgeMs, or null. */
  latest(port: number, maxAgeMs: number): UpstreamStatus | null;
}

const CHANGE: Record<UpstreamStatus, { level: 'info' | 'warn' | 'error'; message: string }> = {
  200: { level: 'info', message: 'stream upstream on the air' },
  503: { level: 'warn', message: 'stream upstream has no source (or is full)' },
  502: { level: 'error', message: 'stream upstream unreachable or not sending audio' },
  504: { level: 'error', message: 'stream upstream not answering' },
};

/**
 * One log line when the upstream's state changes, not one per listener: a
 * stopped source with many players retrying must not flood the log. Errors
 * are only what an operator must act on (Icecast down or hung).
 */
export function createUpstreamHealth(logger: Logger): UpstreamHealth {
  const known = new Map<number, Known>();
  return {
    record(port, status, detail) {
      const previous = known.get(port);
      known.set(port, { status, at: Date.now() });
      if (previous?.status === status || (!previous && status === 200)) return;
      const { level, message } = CHANGE[status];
      logger[level]({ port, status, was: previous?.status ?? null, ...detail }, message);
    },
    latest(port, maxAgeMs) {
      const entry = known.get(port);
      return entry && Date.now() - entry.at <= maxAgeMs ? entry.status : null;
    },
  };
}

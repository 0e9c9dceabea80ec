/**
 * The stream's part of the configuration schema (src/server/config.ts
 * composes it with the others): the STREAM_* variables, and what they become.
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { STREAM_PORT } from '../../shared/ui/radio/constants.ts';
import { tcpPort, wholeNumber } from '../env-values.ts';

/** The stream's settings as configured. */
export interface StreamSettings {
  /** Icecast host name or IP address; null runs the embedded demo station. */
  upstreamHost: string | null;
  /** Icecast mount the proxy requests (the only path it ever asks for). */
  mount: string;
  /** The `port` values a visitor may ask for (`/api/stream?port=8076`); the player asks for the first. */
  allowedPorts: number[];
  /** Upstream TCP port per allowed port, when the upstream listens elsewhere (Docker, the demo station). */
  upstreamPorts: Record<number, number>;
  /** No response headers from the upstream within this: 504. */
  connectTimeoutMs: number;
  /** An established stream that sends nothing for this long is ended (longer than Icecast's 10 s source timeout). */
  idleTimeoutMs: number;
  /** A listener whose socket accepts nothing for this long while audio waits for it is ended (nginx's send_timeout). */
  sendTimeoutMs: number;
  /** Concurrent listeners per process; beyond it 503 without touching the upstream. */
  maxListeners: number;
  /** Concurrent listeners per client (req.ip, so TRUST_PROXY decides what that is; IPv6 by /64); also the push's. */
  maxListenersPerClient: number;
  /** Concurrent now-playing push connections (GET /api/now-playing/events) per process. */
  maxEventClients: number;
  /** Retry-After seconds on 503 answers. */
  retryAfterSeconds: number;
  /** How long the now-playing answer built from Icecast's status is reused. */
  statusCacheMs: number;
}

/**
 * The stream's one configuration, what every part of the stream runs with: the settings with the
 * upstream resolved (the composition root resolves it once: runtime.ts).
 */
export interface StreamConfig extends StreamSettings {
  upstreamHost: string;
}

/**
 * The settings aimed at their upstream: STREAM_UPSTREAM_HOST when set, else the demo station at
 * `demo`, to which every allowed port maps (visitors still ask for the public port).
 */
export function resolveUpstream(settings: StreamSettings, demo?: { host: string; port: number }): StreamConfig {
  if (settings.upstreamHost !== null) return { ...settings, upstreamHost: settings.upstreamHost };
  if (!demo) throw new Error('STREAM_UPSTREAM_HOST is not set and no demo station runs');
  const upstreamPorts = Object.fromEntries(settings.allowedPorts.map((port) => [port, demo.port]));
  return { ...settings, upstreamHost: demo.host, upstreamPorts };
}

/** Icecast drops a silent source after 10 s; a shorter idle timeout would cut healthy streams. */
export const ICECAST_SOURCE_TIMEOUT_MS = 10_000;

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const MOUNT = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,200}$/;

/** A bare host: a scheme, port or path here would be silently ignored or, worse, let the proxy reach elsewhere. */
const upstreamHost = z.string().transform((text, ctx) => {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIP(bare) !== 0) return bare;
  if (HOSTNAME.test(text)) return text.toLowerCase();
  ctx.addIssue({ code: 'custom', message: 'must be a host name or IP address without scheme, port or path' });
  return z.NEVER;
});

const mount = z
  .string()
  .refine(
    (v) => MOUNT.test(v) && !v.includes('..') && !v.includes('//'),
    'must be an absolute path such as /stream, without query or ".."',
  );

/** "8076, 8000" */
const portList = z.string().transform((text, ctx) => {
  const ports = text.split(',').map((p) => tcpPort(p.trim()));
  if (ports.some((p) => p === null)) {
    ctx.addIssue({ code: 'custom', message: 'must list TCP ports from 1 to 65535, separated by commas' });
    return z.NEVER;
  }
  if (new Set(ports).size !== ports.length) {
    ctx.addIssue({ code: 'custom', message: 'lists a port twice' });
    return z.NEVER;
  }
  return ports as number[];
});

/** "8076:18000, 8077:18001": visitor port → upstream port. */
const portMap = z.string().transform((text, ctx) => {
  const pairs: [number, number][] = [];
  for (const pair of text.split(',')) {
    const [from, to, extra] = pair.split(':').map((s) => tcpPort(s.trim()));
    if (!from || !to || extra !== undefined) {
      ctx.addIssue({ code: 'custom', message: 'must be "visitorPort:upstreamPort" pairs separated by commas' });
      return z.NEVER;
    }
    pairs.push([from, to]);
  }
  return pairs;
});

/** The STREAM_* variables, with their defaults: a part of the one configuration schema. */
export const streamEnv = {
  STREAM_UPSTREAM_HOST: upstreamHost.optional(),
  STREAM_MOUNT: mount.default('/stream'),
  STREAM_ALLOWED_PORTS: portList.default([STREAM_PORT]),
  STREAM_PORT_MAP: portMap.default([]),
  STREAM_CONNECT_TIMEOUT_MS: wholeNumber(100, 60_000).default(5_000),
  STREAM_IDLE_TIMEOUT_MS: wholeNumber(
    ICECAST_SOURCE_TIMEOUT_MS + 1,
    600_000,
    " (more than Icecast's 10 s source timeout)",
  ).default(15_000),
  STREAM_SEND_TIMEOUT_MS: wholeNumber(1_000, 600_000).default(60_000),
  STREAM_MAX_LISTENERS: wholeNumber(1, 100_000).default(1_000),
  STREAM_MAX_LISTENERS_PER_CLIENT: wholeNumber(1, 100_000).default(8),
  STREAM_MAX_EVENT_CLIENTS: wholeNumber(1, 1_000_000).default(10_000),
  STREAM_RETRY_AFTER_S: wholeNumber(1, 3_600).default(10),
  STREAM_STATUS_CACHE_MS: wholeNumber(500, 300_000).default(5_000),
};

export type StreamEnv = z.output<z.ZodObject<typeof streamEnv>>;

/** Checks across variables, as issues on the variable at fault (for the schema's superRefine). */
export function checkStreamEnv(env: StreamEnv, ctx: z.RefinementCtx): void {
  const stray = env.STREAM_PORT_MAP.find(([from]) => !env.STREAM_ALLOWED_PORTS.includes(from));
  if (stray) {
    ctx.addIssue({
      code: 'custom',
      path: ['STREAM_PORT_MAP'],
      message: `maps port ${stray[0]}, which STREAM_ALLOWED_PORTS does not list`,
    });
  }
}

export function streamConfigFrom(env: StreamEnv): StreamSettings {
  const allowedPorts = env.STREAM_ALLOWED_PORTS;
  return {
    upstreamHost: env.STREAM_UPSTREAM_HOST ?? null,
    mount: env.STREAM_MOUNT,
    allowedPorts,
    upstreamPorts: Object.fromEntries([...allowedPorts.map((p) => [p, p]), ...env.STREAM_PORT_MAP]),
    connectTimeoutMs: env.STREAM_CONNECT_TIMEOUT_MS,
    idleTimeoutMs: env.STREAM_IDLE_TIMEOUT_MS,
    sendTimeoutMs: env.STREAM_SEND_TIMEOUT_MS,
    maxListeners: env.STREAM_MAX_LISTENERS,
    maxListenersPerClient: env.STREAM_MAX_LISTENERS_PER_CLIENT,
    maxEventClients: env.STREAM_MAX_EVENT_CLIENTS,
    retryAfterSeconds: env.STREAM_RETRY_AFTER_S,
    statusCacheMs: env.STREAM_STATUS_CACHE_MS,
  };
}

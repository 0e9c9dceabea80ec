/**
 * Stream proxy settings from the environment. Every value is checked once at
 * start; a bad one throws ConfigError naming the variable. An empty variable
 * means "not set", as elsewhere in the configuration.
 */
import { isIP } from 'node:net';
import { ConfigError } from '../config-error.ts';

export interface StreamConfig {
  /** Icecast host name or IP address; null runs the embedded demo station. */
  upstreamHost: string | null;
  /** Icecast mount the proxy requests (the only path it ever asks for). */
  mount: string;
  /** The `port` values a visitor may ask for (`/api/stream?port=8076`). */
  allowedPorts: number[];
  /** Upstream TCP port per allowed port, when the upstream listens elsewhere (Docker, the demo station). */
  upstreamPorts: Record<number, number>;
  /** No response headers from the upstream within this: 504. */
  connectTimeoutMs: number;
  /** An established stream that sends nothing for this long is ended (longer than Icecast's 10 s source timeout). */
  idleTimeoutMs: number;
  /** Concurrent listeners per process; beyond it 503 without touching the upstream. */
  maxListeners: number;
  /** Concurrent listeners per client address (req.ip, so TRUST_PROXY decides what that is). */
  maxListenersPerClient: number;
  /** Retry-After seconds on 503 answers. */
  retryAfterSeconds: number;
  /** How long the now-playing answer built from Icecast's status is reused. */
  statusCacheMs: number;
}

/** Icecast drops a silent source after 10 s; a shorter idle timeout would cut healthy streams. */
export const ICECAST_SOURCE_TIMEOUT_MS = 10_000;

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const MOUNT = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]{0,200}$/;
const PORT = /^[1-9]\d{0,4}$/;

function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function port(name: string, text: string): number {
  const value = PORT.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= 65_535))
    throw new ConfigError(name, `must list TCP ports from 1 to 65535 (got "${text}")`);
  return value;
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, hint = ''): number {
  const text = read(env, name);
  if (text === undefined) return fallback;
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be a whole number from ${min} to ${max}${hint} (got "${text}")`);
  }
  return value;
}

function upstreamHost(env: NodeJS.ProcessEnv): string | null {
  const text = read(env, 'STREAM_UPSTREAM_HOST');
  if (text === undefined) return null;
  // A bare host: a scheme, port or path here would be silently ignored or, worse, let the proxy reach elsewhere.
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIP(bare) !== 0) return bare;
  if (HOSTNAME.test(text)) return text.toLowerCase();
  throw new ConfigError(
    'STREAM_UPSTREAM_HOST',
    `must be a host name or IP address without scheme, port or path (got "${text}")`,
  );
}

function allowedPorts(env: NodeJS.ProcessEnv): number[] {
  const text = read(env, 'STREAM_ALLOWED_PORTS') ?? '8076';
  const ports = text.split(',').map((p) => port('STREAM_ALLOWED_PORTS', p.trim()));
  if (new Set(ports).size !== ports.length)
    throw new ConfigError('STREAM_ALLOWED_PORTS', `lists a port twice (got "${text}")`);
  return ports;
}

/** "8076:18000,8077:18001": visitor port → upstream port. */
function upstreamPorts(env: NodeJS.ProcessEnv, allowed: number[]): Record<number, number> {
  const map: Record<number, number> = Object.fromEntries(allowed.map((p) => [p, p]));
  const text = read(env, 'STREAM_PORT_MAP');
  if (text === undefined) return map;
  for (const pair of text.split(',')) {
    const [from, to, extra] = pair.split(':').map((s) => s.trim());
    if (from === undefined || to === undefined || extra !== undefined) {
      throw new ConfigError(
        'STREAM_PORT_MAP',
        `must be "visitorPort:upstreamPort" pairs separated by commas (got "${text}")`,
      );
    }
    const visitor = port('STREAM_PORT_MAP', from);
    if (!allowed.includes(visitor))
      throw new ConfigError('STREAM_PORT_MAP', `maps port ${visitor}, which STREAM_ALLOWED_PORTS does not list`);
    map[visitor] = port('STREAM_PORT_MAP', to);
  }
  return map;
}

export function parseStreamConfig(env: NodeJS.ProcessEnv): StreamConfig {
  const mount = read(env, 'STREAM_MOUNT') ?? '/stream';
  if (!MOUNT.test(mount) || mount.includes('..') || mount.includes('//')) {
    throw new ConfigError(
      'STREAM_MOUNT',
      `must be an absolute path such as /stream, without query or ".." (got "${mount}")`,
    );
  }
  const ports = allowedPorts(env);
  return {
    upstreamHost: upstreamHost(env),
    mount,
    allowedPorts: ports,
    upstreamPorts: upstreamPorts(env, ports),
    connectTimeoutMs: whole(env, 'STREAM_CONNECT_TIMEOUT_MS', 5_000, 100, 60_000),
    idleTimeoutMs: whole(
      env,
      'STREAM_IDLE_TIMEOUT_MS',
      15_000,
      ICECAST_SOURCE_TIMEOUT_MS + 1,
      600_000,
      ", more than Icecast's 10 s source timeout",
    ),
    maxListeners: whole(env, 'STREAM_MAX_LISTENERS', 1_000, 1, 100_000),
    maxListenersPerClient: whole(env, 'STREAM_MAX_LISTENERS_PER_CLIENT', 8, 1, 100_000),
    retryAfterSeconds: whole(env, 'STREAM_RETRY_AFTER_S', 10, 1, 3_600),
    statusCacheMs: whole(env, 'STREAM_STATUS_CACHE_MS', 5_000, 500, 300_000),
  };
}

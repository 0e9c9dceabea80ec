import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { ConfigError } from '../config-error.ts';
import { resolveUpstream } from './config.ts';
import { requestedPort } from './port-param.ts';

/** The stream's settings, read by the one configuration schema. */
const parseStreamConfig = (env: NodeJS.ProcessEnv) => loadConfig(env).stream;

describe('stream configuration', () => {
  it('defaults to the demo station, /stream, port 8076 and safe limits', () => {
    for (const env of [{}, { STREAM_UPSTREAM_HOST: '', STREAM_ALLOWED_PORTS: ' ', STREAM_MOUNT: '' }]) {
      expect(parseStreamConfig(env)).toEqual({
        upstreamHost: null,
        mount: '/stream',
        allowedPorts: [8076],
        upstreamPorts: { 8076: 8076 },
        connectTimeoutMs: 5_000,
        idleTimeoutMs: 15_000,
        sendTimeoutMs: 60_000,
        maxListeners: 1_000,
        maxListenersPerClient: 8,
        maxEventClients: 10_000,
        retryAfterSeconds: 10,
        statusCacheMs: 5_000,
      });
    }
  });

  it('reads every variable', () => {
    const config = parseStreamConfig({
      STREAM_UPSTREAM_HOST: 'Icecast.Internal',
      STREAM_MOUNT: '/live.mp3',
      STREAM_ALLOWED_PORTS: '8076, 8000',
      STREAM_PORT_MAP: '8076:18000',
      STREAM_CONNECT_TIMEOUT_MS: '2500',
      STREAM_IDLE_TIMEOUT_MS: '20000',
      STREAM_SEND_TIMEOUT_MS: '30000',
      STREAM_MAX_LISTENERS: '5000',
      STREAM_MAX_LISTENERS_PER_CLIENT: '3',
      STREAM_MAX_EVENT_CLIENTS: '20000',
      STREAM_RETRY_AFTER_S: '30',
      STREAM_STATUS_CACHE_MS: '10000',
    });
    expect(config).toEqual({
      upstreamHost: 'icecast.internal',
      mount: '/live.mp3',
      allowedPorts: [8076, 8000],
      upstreamPorts: { 8076: 18000, 8000: 8000 },
      connectTimeoutMs: 2_500,
      idleTimeoutMs: 20_000,
      sendTimeoutMs: 30_000,
      maxListeners: 5_000,
      maxListenersPerClient: 3,
      maxEventClients: 20_000,
      retryAfterSeconds: 30,
      statusCacheMs: 10_000,
    });
    expect(parseStreamConfig({ STREAM_UPSTREAM_HOST: '10.0.0.5' }).upstreamHost).toBe('10.0.0.5');
    expect(parseStreamConfig({ STREAM_UPSTREAM_HOST: '[::1]' }).upstreamHost).toBe('::1');
  });
});

describe('stream configuration refuses bad values', () => {
  const bad: [string, string][] = [
    ['STREAM_UPSTREAM_HOST', 'http://icecast'],
    ['STREAM_UPSTREAM_HOST', 'icecast:8000'],
    ['STREAM_UPSTREAM_HOST', 'icecast/stream'],
    ['STREAM_UPSTREAM_HOST', 'ice cast'],
    ['STREAM_UPSTREAM_HOST', 'user@icecast'],
    ['STREAM_MOUNT', 'stream'],
    ['STREAM_MOUNT', '/stream?x=1'],
    ['STREAM_MOUNT', '/../admin'],
    ['STREAM_MOUNT', '//evil.example/x'],
    ['STREAM_ALLOWED_PORTS', 'abc'],
    ['STREAM_ALLOWED_PORTS', '0'],
    ['STREAM_ALLOWED_PORTS', '65536'],
    ['STREAM_ALLOWED_PORTS', '+8076'],
    ['STREAM_ALLOWED_PORTS', '08076'],
    ['STREAM_ALLOWED_PORTS', '8076,8076'],
    ['STREAM_ALLOWED_PORTS', '8076,'],
    ['STREAM_PORT_MAP', '8076'],
    ['STREAM_PORT_MAP', '8077:9000'],
    ['STREAM_PORT_MAP', '8076:0'],
    ['STREAM_PORT_MAP', '8076:9000:1'],
    ['STREAM_CONNECT_TIMEOUT_MS', '5s'],
    ['STREAM_CONNECT_TIMEOUT_MS', '50'],
    ['STREAM_IDLE_TIMEOUT_MS', '10000'],
    ['STREAM_IDLE_TIMEOUT_MS', '5000'],
    ['STREAM_IDLE_TIMEOUT_MS', '-1'],
    ['STREAM_SEND_TIMEOUT_MS', '999'],
    ['STREAM_SEND_TIMEOUT_MS', '1m'],
    ['STREAM_MAX_LISTENERS', '0'],
    ['STREAM_MAX_LISTENERS', '1.5'],
    ['STREAM_MAX_LISTENERS_PER_CLIENT', '0'],
    ['STREAM_RETRY_AFTER_S', '0'],
    ['STREAM_STATUS_CACHE_MS', '10'],
  ];
  it.each(bad)('rejects %s=%s with a ConfigError naming it', (variable, value) => {
    let error: unknown;
    try {
      parseStreamConfig({ [variable]: value });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(variable);
    // One error format for every variable: "Invalid configuration: NAME <reason> (got "<value>")".
    expect((error as ConfigError).message).toMatch(
      new RegExp(`^Invalid configuration: ${variable} .+ \\(got ".*"\\)$`),
    );
  });

  it('refuses an idle timeout within Icecast’s source timeout, saying why', () => {
    expect(() => loadConfig({ STREAM_IDLE_TIMEOUT_MS: '9000' })).toThrow(
      /STREAM_IDLE_TIMEOUT_MS must be at least 10001 \(more than Icecast's 10 s source timeout\)/,
    );
  });

  it('checks the port map against the allowed ports, naming the map', () => {
    expect(() => loadConfig({ STREAM_ALLOWED_PORTS: '9000', STREAM_PORT_MAP: '8076:18000' })).toThrow(
      /STREAM_PORT_MAP maps port 8076, which STREAM_ALLOWED_PORTS does not list/,
    );
    expect(loadConfig({ STREAM_ALLOWED_PORTS: '9000', STREAM_PORT_MAP: '9000:18000' }).stream.upstreamPorts).toEqual({
      9000: 18000,
    });
  });
});

describe('requestedPort', () => {
  it('accepts exactly port=<allowed>', () => {
    expect(requestedPort('/api/stream?port=8076', [8076])).toBe(8076);
    expect(requestedPort('/api/stream?port=8000', [8076, 8000])).toBe(8000);
  });

  it.each([
    '/api/stream',
    '/api/stream?port=8000',
    '/api/stream?port=08076',
    '/api/stream?port=8076&port=8076',
    '/api/stream?port=8076&x=1',
    '/api/stream?port=%38076',
    '/api/stream?Port=8076',
    '/api/stream?port=8076 ',
    '/api/stream?port=1e4',
  ])('refuses %s', (url) => {
    expect(requestedPort(url, [8076])).toBeNull();
  });
});

describe('the stream configuration, resolved once', () => {
  it('keeps a configured upstream and its port map', () => {
    const settings = parseStreamConfig({ STREAM_UPSTREAM_HOST: 'icecast', STREAM_PORT_MAP: '8076:18000' });
    expect(resolveUpstream(settings, { host: '127.0.0.1', port: 40_000 })).toMatchObject({
      upstreamHost: 'icecast',
      upstreamPorts: { 8076: 18_000 },
    });
  });

  it('aims every allowed port at the demo station when no upstream is configured', () => {
    const settings = parseStreamConfig({ STREAM_ALLOWED_PORTS: '8076,8077' });
    expect(resolveUpstream(settings, { host: '127.0.0.1', port: 40_000 })).toMatchObject({
      upstreamHost: '127.0.0.1',
      upstreamPorts: { 8076: 40_000, 8077: 40_000 },
    });
    expect(() => resolveUpstream(settings)).toThrow('STREAM_UPSTREAM_HOST');
  });
});

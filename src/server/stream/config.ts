import type { ConfigError } from '../config-error.ts';

/** Stream proxy settings (the radio work fills this in; see issue 4). */
export interface StreamConfig {
  /** Icecast host; null runs the embedded demo station. */
  upstreamHost: string | null;
  mount: string;
  allowedPorts: number[];
}

export function parseStreamConfig(env: NodeJS.ProcessEnv): StreamConfig {
  void (null as unknown as ConfigError);
  return {
    upstreamHost: env.STREAM_UPSTREAM_HOST || null,
    mount: env.STREAM_MOUNT || '/stream',
    allowedPorts: [8076],
  };
}

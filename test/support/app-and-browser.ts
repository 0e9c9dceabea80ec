import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startApp, type AppProcess } from './app-process.ts';
import { launchBrowser } from './browser.ts';
import { startEzstream, startIcecast, type Ezstream, type EzstreamOptions, type Icecast } from './icecast.ts';

export interface AppAndBrowser {
  readonly app: AppProcess;
  readonly browser: Browser;
}

/**
 * For a browser test file or describe block: the built server and Debian's Chromium, started
 * together before its tests and stopped (browser first, then the server by PID) after them.
 */
export function useAppAndBrowser(env: Record<string, string> = {}): AppAndBrowser {
  const started: { app?: AppProcess; browser?: Browser } = {};
  beforeAll(async () => {
    [started.app, started.browser] = await Promise.all([startApp(env), launchBrowser()]);
  });
  afterAll(async () => {
    await started.browser?.close();
    await started.app?.stop();
  });
  return {
    get app() {
      if (!started.app) throw new Error('app not started yet (use it inside a test or hook)');
      return started.app;
    },
    get browser() {
      if (!started.browser) throw new Error('browser not started yet (use it inside a test or hook)');
      return started.browser;
    },
  };
}

export interface StationAppAndBrowser extends AppAndBrowser {
  readonly ice: Icecast;
  /** Stops the station's source (ezstream): the mount goes off the air. */
  stopSource(): Promise<void>;
  /** Starts a new source on the same mount. */
  startSource(): Promise<void>;
}

/**
 * As useAppAndBrowser, with a real Icecast fed by ezstream started first; `env(icePort)` gives
 * the server's environment, which points its stream at that Icecast; `source` what ezstream plays
 * (the default test tone; the tone songs of icecast.ts `makeToneSongs`). Stopped in the reverse order.
 */
export function useStationAppAndBrowser(
  env: (icePort: number) => Record<string, string>,
  source: () => EzstreamOptions = () => ({}),
): StationAppAndBrowser {
  const started: { app?: AppProcess; browser?: Browser; ice?: Icecast; source?: Ezstream } = {};
  beforeAll(async () => {
    started.ice = await startIcecast();
    started.source = await startEzstream(started.ice, source());
    [started.app, started.browser] = await Promise.all([startApp(env(started.ice.port)), launchBrowser()]);
  }, 60_000);
  afterAll(async () => {
    await started.browser?.close();
    await started.app?.stop();
    await started.source?.stop();
    await started.ice?.stop();
  });
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} not started yet (use it inside a test or hook)`);
    return value;
  };
  return {
    get app() {
      return need(started.app, 'app');
    },
    get browser() {
      return need(started.browser, 'browser');
    },
    get ice() {
      return need(started.ice, 'Icecast');
    },
    async stopSource() {
      await started.source?.stop();
      started.source = undefined;
    },
    async startSource() {
      started.source = await startEzstream(need(started.ice, 'Icecast'), source());
    },
  };
}

import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startApp, type AppProcess } from './app-process.ts';
import { launchBrowser } from './browser.ts';

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

import { requireCommand } from './system-deps.ts';

/** Debian's Chromium and the flags it needs on a closed network (no background calls home). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** CHROMIUM_PATH, or an error naming the Debian package when it is not there. */
export function requireChromium(): string {
  return requireCommand('the browser tests and Lighthouse', CHROMIUM_PATH, 'chromium');
}

export const CHROMIUM_BASE_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The only script the page names: a loader of a few hundred bytes. It lets the server's HTML and
 * CSS paint first, alone on the network and the main thread, then imports the app's modules (React,
 * the shell, this page's chunk: the list comes with the boot data) all at once, so there is no
 * waterfall; the app (app.tsx) hydrates as it is evaluated. It imports nothing, so it stays one small
 * file: a shared import would become one more request in front of the paint.
 */
import type { BootData } from '../shared/boot.ts';

// Written by Document (BOOT_ELEMENT_ID in src/shared/boot.ts).
const bootElement = document.getElementById('__boot');
if (!bootElement?.textContent) throw new Error('boot data missing');
const { assets } = JSON.parse(bootElement.textContent) as BootData;

/**
 * Runs `start` once the page has painted its first content (the browser reports it after the
 * frame), at once in a hidden tab, where nothing paints. No timers and no animation frames: they
 * are what a test's fake clock stops.
 */
function afterFirstPaint(start: () => void): void {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    start();
  };
  if (document.visibilityState === 'hidden' || !PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    once();
    return;
  }
  new PerformanceObserver((list, observer) => {
    if (!list.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    once();
  }).observe({ type: 'paint', buffered: true });
  // Or when the tab is hidden before anything painted.
  document.addEventListener('visibilitychange', once, { once: true });
}

afterFirstPaint(() => {
  for (const url of assets.preload) void import(url);
});

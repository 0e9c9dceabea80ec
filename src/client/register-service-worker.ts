/**
 * Registers the site's service worker (decision 052) once the page has loaded and the main thread
 * is idle, so it never competes with the first paint or hydration. Imported by the router's chunk,
 * which every page load fetches after hydration; nothing on the first load.
 */
import { SERVICE_WORKER_PATH } from '../shared/service-worker.ts';
import { whenIdle } from '../shared/ui/schedule.ts';

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  // The browser retries at the next page load; nothing to do about a failure here.
  const register = () =>
    whenIdle(() => void navigator.serviceWorker.register(SERVICE_WORKER_PATH, { scope: '/' }).catch(() => {}));
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * The kill switch (decision 052): served at the worker's URL in its place when SERVICE_WORKER=off.
 * A browser that checks for an update installs it; it takes over at once, deletes every cache
 * the site's worker made and unregisters itself, so the site is plain network again. It handles
 * no request.
 */
/// <reference lib="webworker" />
declare const self: ServiceWorkerGlobalScope;

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) await caches.delete(name);
      await self.registration.unregister();
    })(),
  );
});

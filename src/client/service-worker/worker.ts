/**
 * The site's service worker (decision 052), built with Workbox (scripts/build/service-worker.ts
 * bundles it and injects the precache list):
 *
 * - the current build's hashed files are precached, so repeat visits take them from the worker;
 * - a navigation is network-first, with navigation preload (the page's request starts while the
 *   worker boots), falling back to the copy of that page kept when it was last opened, then to the
 *   offline page, which lists the pages kept. The front page and the page that installed the
 *   worker are kept at install;
 * - `/api/*` (the stream, now-playing, its events, metrics) and range requests are never handled:
 *   the first fetch listener stops them before Workbox's, so they go to the network untouched;
 * - a new build's worker takes over at once (skipWaiting, clientsClaim) and Workbox deletes the
 *   files the new build no longer lists; open tabs fetch those from the server, which keeps them
 *   for a week (decision 046).
 */
/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { enable as enableNavigationPreload } from 'workbox-navigation-preload';
import { cleanupOutdatedCaches, type PrecacheEntry, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute, setCatchHandler } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';
import { pages } from '../../shared/pages.ts';
import { OFFLINE_PAGE_CSP, offlinePage } from './offline-page.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

const PAGES_CACHE = 'pages';
const API = /^\/api(?:\/|$)/i;
const readable = pages.filter((p) => p.id !== 'notFound');
const isPagePath = (path: string) => readable.some((p) => p.path === path);

// First, so it runs before Workbox's listener: what it stops is answered by the network alone.
self.addEventListener('fetch', (event) => {
  if (API.test(new URL(event.request.url).pathname) || event.request.headers.has('range')) {
    event.stopImmediatePropagation();
  }
});

void self.skipWaiting();
clientsClaim();
cleanupOutdatedCaches();
precacheAndRoute(self.__WB_MANIFEST);
enableNavigationPreload();

/** The network first (the preloaded response when there is one); a page of the route table answered 200 is kept, by path. */
const pagesStrategy = new NetworkFirst({
  cacheName: PAGES_CACHE,
  plugins: [
    {
      cacheKeyWillBeUsed: async ({ request }) => new URL(new URL(request.url).pathname, self.location.origin).href,
      cacheWillUpdate: async ({ request, response }) =>
        response.status === 200 && isPagePath(new URL(request.url).pathname) ? response : null,
    },
  ],
});

registerRoute(new NavigationRoute(pagesStrategy, { denylist: [API] }));

setCatchHandler(async ({ request }) => {
  if (request.mode !== 'navigate') return Response.error();
  const kept = new Set((await (await caches.open(PAGES_CACHE)).keys()).map((r) => new URL(r.url).pathname));
  return new Response(offlinePage(readable.filter((p) => kept.has(p.path))), {
    status: 503,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': OFFLINE_PAGE_CSP },
  });
});

/** At install: keep the front page and the pages open in the site's tabs (they loaded before the worker). */
self.addEventListener('install', (event) => {
  const keep = async () => {
    const tabs = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const paths = new Set(['/', ...tabs.map((tab) => new URL(tab.url).pathname)].filter(isPagePath));
    await Promise.allSettled([...paths].map((path) => pagesStrategy.handle({ event, request: new Request(path) })));
  };
  event.waitUntil(keep());
});

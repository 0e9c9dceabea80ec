/**
 * The site's service worker (decision 052), built with Workbox (scripts/build/service-worker.ts
 * bundles it and injects the precache list):
 *
 * - the current build's hashed files are precached, so repeat visits take them from the worker;
 * - a navigation is network-first, with navigation preload (the page's request starts while the
 *   worker boots), falling back to the copy of that page kept when it was last opened, then to the
 *   offline page (the masthead, Try again, the pages kept; it loads the page by itself once the
 *   network is back, with a script the worker serves). The front page and the page that installed
 *   the worker are kept at install; a page reached by an in-site navigation (which makes no request
 *   of its own) is kept when the page tells the worker (`{ keep: path }`): the worker asks the server
 *   for it, conditionally when it has a copy, so a page read again costs a 304. At most
 *   MAX_KEPT_PAGES are kept, the front page always;
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
import type { BootData } from '../../shared/boot.ts';
import {
  type KeptPage,
  mainHeading,
  OFFLINE_PAGE_CSP,
  OFFLINE_SCRIPT,
  OFFLINE_SCRIPT_PATH,
  offlinePage,
} from './offline-page.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<PrecacheEntry | string> };

const PAGES_CACHE = 'pages';
/** The pages kept for reading offline: the route table's today, with room for more. */
const MAX_KEPT_PAGES = 30;
const API = /^\/api(?:\/|$)/i;
const readable = pages.filter((p) => p.id !== 'notFound');
const isPagePath = (path: string) => readable.some((p) => p.path === path);
const pageUrl = (path: string) => new URL(path, self.location.origin).href;

/** The oldest kept pages go first when there are too many; the front page stays. */
async function trim(cache: Cache): Promise<void> {
  const keys = (await cache.keys()).filter((request) => new URL(request.url).pathname !== '/');
  const excess = keys.length + 1 - MAX_KEPT_PAGES;
  await Promise.all(keys.slice(0, Math.max(0, excess)).map((request) => cache.delete(request)));
}

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
      cacheDidUpdate: async ({ cacheName }) => trim(await caches.open(cacheName)),
    },
  ],
});

registerRoute(new NavigationRoute(pagesStrategy, { denylist: [API] }));

// The offline page's script, made here: it must be there when nothing else is.
registerRoute(
  ({ url }) => url.origin === self.location.origin && url.pathname === OFFLINE_SCRIPT_PATH,
  async () => new Response(OFFLINE_SCRIPT, { headers: { 'Content-Type': 'text/javascript; charset=utf-8' } }),
);

/**
 * A page the reader reached inside the site, as the server sends it. A copy already kept is
 * revalidated (If-None-Match): unchanged, it costs the reader a 304 and no body.
 */
async function keep(path: string): Promise<void> {
  const cache = await caches.open(PAGES_CACHE);
  const etag = (await cache.match(pageUrl(path)))?.headers.get('etag');
  const headers: HeadersInit = { Accept: 'text/html' };
  if (etag) headers['If-None-Match'] = etag;
  const response = await fetch(pageUrl(path), { headers, cache: 'no-store' });
  if (response.status !== 200) return;
  await cache.put(pageUrl(path), response);
  await trim(cache);
}

self.addEventListener('message', (event) => {
  const path: unknown = (event.data as { keep?: unknown } | null)?.keep;
  if (typeof path === 'string' && isPagePath(path)) event.waitUntil(keep(path).catch(() => {}));
});

/** The site's name, read from the boot data of the kept front page (the server's configuration). */
async function masthead(cache: Cache): Promise<string> {
  const html = await (await cache.match(new URL('/', self.location.origin).href))?.text();
  const boot = html && /<script type="application\/json" id="__boot">(.*?)<\/script>/s.exec(html)?.[1];
  try {
    if (boot) return (JSON.parse(boot) as BootData).site.masthead;
  } catch {
    // A page of another build: the host name will do.
  }
  return self.location.hostname;
}

/** The kept pages, in the route table's order (the front page first), each by its main heading. */
async function keptPages(cache: Cache): Promise<KeptPage[]> {
  const kept = new Set((await cache.keys()).map((r) => new URL(r.url).pathname));
  const listed = readable.filter((p) => kept.has(p.path));
  return Promise.all(
    listed.map(async ({ path, title }) => ({
      path,
      heading:
        path === '/' ? 'Front page' : (mainHeading((await (await cache.match(pageUrl(path)))?.text()) ?? '') ?? title),
    })),
  );
}

setCatchHandler(async ({ request }) => {
  if (request.mode !== 'navigate') return Response.error();
  const cache = await caches.open(PAGES_CACHE);
  const { pathname, search } = new URL(request.url);
  const html = offlinePage(await keptPages(cache), { masthead: await masthead(cache), url: pathname + search });
  return new Response(html, {
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

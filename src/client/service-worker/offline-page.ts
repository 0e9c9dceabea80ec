/**
 * The page the worker answers a navigation with when neither the network nor its cache has the
 * page: it says the reader is offline and lists the pages that are readable (those in the cache).
 * Plain HTML with an inline style and no script, so it needs nothing more from the network.
 */
import type { PageEntry } from '../../shared/pages.ts';

/** Its own policy: the answer is made in the worker, so the server's headers never reach it. */
export const OFFLINE_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function offlinePage(available: readonly Pick<PageEntry, 'path' | 'title'>[]): string {
  const items = available.map((p) => `<li><a href="${escapeHtml(p.path)}">${escapeHtml(p.title)}</a></li>`).join('');
  const list = available.length
    ? `<p>These pages are saved on this device:</p><ul>${items}</ul>`
    : '<p>No page is saved on this device yet.</p>';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>You are offline</title><style>body{font:1.125rem/1.6 system-ui,sans-serif;margin:0 auto;max-width:40rem;padding:1rem;color:#111;background:#fff}a{color:#0b4f8a}li{margin:.5rem 0}</style></head><body><main><h1>You are offline</h1><p>This page is not saved on this device. It will load once you are back online.</p>${list}</main></body></html>`;
}

/**
 * The page the worker answers a navigation with when neither the network nor its cache has the
 * page: the site's masthead, a line saying the reader is offline, a Try again link (the same URL:
 * it works without script), and the pages that are readable (those in the cache). A small script
 * of its own (OFFLINE_SCRIPT, which the worker serves: an inline one would need the CSP to allow
 * it, decision 002) loads the page by itself once the network is back: at the browser's `online`
 * event, and by asking the server every few seconds, for a network that returns without the
 * browser noticing. Light or dark as the reader's system asks.
 */
/** A page the worker keeps, listed by its main heading (what the reader saw on it). */
export interface KeptPage {
  path: string;
  heading: string;
}

/** Where the worker serves the offline page's script. */
export const OFFLINE_SCRIPT_PATH = '/offline-retry.js';

/** How often the offline page asks whether the network is back. */
const CHECK_EVERY_MS = 5_000;

/**
 * Reloads the page when the network is back: a HEAD of the page itself answered by the server (not
 * the worker: no route of the worker takes it) with anything but a server error.
 */
export const OFFLINE_SCRIPT = `"use strict";(()=>{const l=()=>location.reload();addEventListener("online",l);setInterval(()=>{navigator.onLine&&fetch(location.href,{method:"HEAD",cache:"no-store"}).then(r=>{r.status<500&&l()},()=>{})},${CHECK_EVERY_MS})})();`;

/** Its own policy: the answer is made in the worker, so the server's headers never reach it. */
export const OFFLINE_PAGE_CSP =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE =
  'body{font:1.125rem/1.6 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}' +
  'header,main{max-width:40rem;margin:0 auto;padding:1rem}header{border-bottom:1px solid #d6d6d2}' +
  '.masthead{font:700 1.5rem/1.2 Georgia,serif;color:inherit;text-decoration:none}a{color:#1d4e89}li{margin:.5rem 0}' +
  '.retry{display:inline-block;padding:.5rem 1rem;border-radius:6px;background:#9b1c1c;color:#fff;text-decoration:none}' +
  '@media (prefers-color-scheme:dark){body{color:#ececec;background:#121212}header{border-color:#3a3a3a}' +
  'a{color:#8ab4f8}.retry{background:#f28b82;color:#1a1a1a}}';

export interface OfflinePageOptions {
  /** The site's name, from a page the worker keeps; the host name when it keeps none. */
  masthead: string;
  /** The URL asked for (path and query): Try again asks for it again. */
  url: string;
}

/**
 * The text of a page's first <h1>, from its HTML as the server sent it (the worker has no DOM
 * parser): its tags dropped, its character references decoded; undefined when it has none.
 */
export function mainHeading(html: string): string | undefined {
  const inner = /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  if (inner === undefined) return undefined;
  const text = inner
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:#(\d+)|#x([\da-f]+)|(amp|lt|gt|quot|apos));/gi, (_, dec, hex, name: string | undefined) =>
      name ? NAMED[name.toLowerCase()]! : codePoint(Number.parseInt(dec ?? hex, dec ? 10 : 16)),
    )
    .trim();
  return text || undefined;
}

/** A numeric reference beyond Unicode is the replacement character, as in HTML. */
const codePoint = (n: number) => String.fromCodePoint(n > 0 && n <= 0x10ffff ? n : 0xfffd);

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function offlinePage(available: readonly KeptPage[], { masthead, url }: OfflinePageOptions): string {
  const items = available.map((p) => `<li><a href="${escapeHtml(p.path)}">${escapeHtml(p.heading)}</a></li>`).join('');
  const list = available.length
    ? `<p>These pages are saved on this device:</p><ul>${items}</ul>`
    : '<p>No page is saved on this device yet.</p>';
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>You are offline | ${escapeHtml(masthead)}</title><style>${STYLE}</style><script src="${OFFLINE_SCRIPT_PATH}" defer></script></head><body><header><a class="masthead" href="/">${escapeHtml(masthead)}</a></header><main><h1>You are offline</h1><p>This page is not saved on this device. It will load by itself once you are back online.</p><p><a class="retry" href="${escapeHtml(url)}">Try again</a></p>${list}</main></body></html>`;
}

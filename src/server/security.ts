import type { ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { SiteConfig } from '../shared/site.ts';

/** Response headers as name/value pairs, in the order they are set. */
export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

const origin = (url: string) => new URL(url).origin;

/** helmet, configured for our pages: the source of every security header we send. */
function helmetFor(site: SiteConfig): RequestHandler {
  const https = site.url.startsWith('https:');
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", origin(site.adScriptUrl), origin(site.contactFormScriptUrl)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', site.bookCoverOrigin, origin(site.adScriptUrl)],
        frameSrc: [origin(site.imageboardUrl), origin(site.contactFormUrl)],
        connectSrc: ["'self'"],
        // blob: the rewind window played through hls.js, whose MediaSource the element plays by a blob: URL (decision 056).
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'"],
        manifestSrc: ["'self'"],
        // The service worker (/sw.js, decision 052); nothing else starts a worker.
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'self'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 15552000, includeSubDomains: true } : false,
    // Book covers and ad creatives come from other origins.
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
}

/**
 * The security headers every response carries, worked out once from configuration by helmet:
 * they are the same for every request (no per-request nonce), so the Express chain and the page
 * fast lane set this one list instead of running a middleware per request. The CSP allows exactly
 * the third parties the pages use. Scripts: our own files plus the ad network and the contact form
 * embed; no inline script at all (boot data is a JSON block), which also lets one cached page serve
 * every visitor. Styles allow inline attributes, which React's `style` prop writes.
 */
export function securityHeaders(site: SiteConfig): HeaderList {
  const middleware = helmetFor(site);
  const record = (): Array<[string, string]> => {
    const headers = new Map<string, string>();
    const res = {
      setHeader(name: string, value: unknown) {
        headers.set(name, String(value));
        return res;
      },
      removeHeader(name: string) {
        headers.delete(name);
      },
      getHeader: (name: string) => headers.get(name),
    };
    let passed = false;
    middleware({ method: 'GET', url: '/', headers: {} } as Request, res as unknown as Response, () => {
      passed = true;
    });
    if (!passed) throw new Error('security headers: helmet must call next() synchronously');
    return [...headers];
  };
  const list = record();
  // Twice: a per-request value (a CSP nonce, say) would differ, and a shared list must not carry it.
  if (JSON.stringify(list) !== JSON.stringify(record())) throw new Error('security headers differ per request');
  return list;
}

export function setHeaders(res: ServerResponse, headers: HeaderList): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}

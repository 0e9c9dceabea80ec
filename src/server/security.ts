import type { ServerResponse } from 'node:http';
import type { SiteConfig } from '../shared/site.ts';

/** Response headers as name/value pairs, in the order they are set. */
export type HeaderList = ReadonlyArray<readonly [name: string, value: string]>;

const origin = (url: string) => new URL(url).origin;

/**
 * The security headers every response carries, worked out once from configuration: the same
 * for every request (no per-request nonce), so the full middleware chain and the page fast lane
 * set this one list. The CSP allows exactly the third parties the pages use. Scripts: our own
 * files plus the ad network and the contact form embed; no inline script at all (boot data is a
 * JSON block), which also lets one cached page serve every visitor. Styles allow inline
 * attributes, which React's `style` prop writes. The rest are the hardening headers helmet sets
 * by default (it was the source of this list; a list needs no middleware).
 */
export function securityHeaders(site: SiteConfig): HeaderList {
  const https = site.url.startsWith('https:');
  const csp: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", origin(site.adScriptUrl), origin(site.contactFormScriptUrl)]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', site.bookCoverOrigin, origin(site.adScriptUrl)]],
    ['frame-src', [origin(site.imageboardUrl), origin(site.contactFormUrl)]],
    ['connect-src', ["'self'"]],
    ['media-src', ["'self'"]],
    ['font-src', ["'self'"]],
    ['manifest-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'self'"]],
    ...(https ? [['upgrade-insecure-requests', []] as [string, string[]]] : []),
  ];
  return [
    ['Content-Security-Policy', csp.map(([name, values]) => [name, ...values].join(' ')).join(';')],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Origin-Agent-Cluster', '?1'],
    ['Referrer-Policy', 'strict-origin-when-cross-origin'],
    ...(https ? [['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'] as const] : []),
    ['X-Content-Type-Options', 'nosniff'],
    ['X-DNS-Prefetch-Control', 'off'],
    ['X-Download-Options', 'noopen'],
    ['X-Frame-Options', 'SAMEORIGIN'],
    ['X-Permitted-Cross-Domain-Policies', 'none'],
    ['X-XSS-Protection', '0'],
  ];
}

export function setHeaders(res: ServerResponse, headers: HeaderList): void {
  for (const [name, value] of headers) res.setHeader(name, value);
}

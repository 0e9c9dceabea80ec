import helmet from 'helmet';
import type { RequestHandler } from 'express';
import type { SiteConfig } from '../shared/site.ts';

const origin = (url: string) => new URL(url).origin;

/**
 * Security headers. The CSP allows exactly the third parties the pages use,
 * all from configuration. Scripts: our own files plus the ad network and the
 * contact form embed; no inline script at all (boot data is a JSON block),
 * which also lets one cached page serve every visitor. Styles allow inline
 * attributes, which React's `style` prop writes.
 */
export function securityHeaders(site: SiteConfig): RequestHandler {
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
        mediaSrc: ["'self'"],
        fontSrc: ["'self'"],
        manifestSrc: ["'self'"],
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

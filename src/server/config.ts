/**
 * Configuration from environment variables, validated once at start by one
 * zod schema composed of parts (the server's, the site's, the stream's in
 * stream/config.ts). A bad value stops the server with a ConfigError naming
 * the variable. An empty or blank variable means "not set".
 */
import { isIP } from 'node:net';
import { z } from 'zod';
import { defaultSite, type ContactChannel, type ExternalLink, type SiteConfig } from '../shared/site.ts';
import { ConfigError } from './config-error.ts';
import type { SharedCacheSettings } from './pages/shared-cache.ts';
import { httpUrl, wholeNumber as int } from './env-values.ts';
import { checkStreamEnv, streamConfigFrom, streamEnv, type StreamConfig } from './stream/config.ts';

export interface Config {
  env: 'production' | 'development' | 'test';
  port: number;
  host: string;
  /** Express "trust proxy": false, a hop count, or addresses/subnets of trusted proxies. */
  trustProxy: boolean | number | string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** dist/ of the build: client/ holds public files, manifest.json the asset map. */
  distDir: string;
  pageCache: boolean;
  /** What pages tell shared caches (nginx, a CDN), in seconds: pages/shared-cache.ts. */
  sharedCache: SharedCacheSettings;
  timeouts: {
    /** A page render that takes longer is aborted. */
    renderMs: number;
    /** Whole request (headers and body) must arrive within this. */
    requestMs: number;
    headersMs: number;
    keepAliveMs: number;
    /** A connection that neither sends nor takes a byte for this long is closed (nginx's send_timeout). */
    sendMs: number;
    /** Graceful shutdown gives up and exits after this. */
    shutdownMs: number;
  };
  maxHeaderSize: number;
  site: SiteConfig;
  stream: StreamConfig;
}

const trustProxy = z.string().transform((v, ctx): Config['trustProxy'] => {
  const value = v.trim().toLowerCase();
  if (value === '' || value === 'false' || value === '0') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  const parts = value.split(',').map((p) => p.trim());
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  for (const p of parts) {
    const [addr, bits, extra] = p.split('/');
    const ok =
      named.has(p) ||
      (extra === undefined && !!addr && isIP(addr) !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits)));
    if (!ok) {
      ctx.addIssue({
        code: 'custom',
        message: `"${p}" is not true/false, a hop count, loopback/linklocal/uniquelocal, or an IP address or subnet`,
      });
      return z.NEVER;
    }
  }
  return parts;
});

/** "Name|https://url, Name|https://url" */
const linkList = z.string().transform((v, ctx): ExternalLink[] => {
  const links = v.split(',').map((item) => {
    const [name, url] = item.split('|').map((s) => s.trim());
    return { name: name ?? '', url: url ?? '' };
  });
  for (const link of links) {
    if (!link.name || !httpUrl.safeParse(link.url).success) {
      ctx.addIssue({ code: 'custom', message: 'must be "Name|https://url" items separated by commas' });
      return z.NEVER;
    }
  }
  return links;
});

const email = z.email('must be an email address');
const phoneList = z
  .string()
  .transform((v) =>
    v
      .split(';')
      .map((p) => p.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(z.string().regex(/^[+()\d\s.-]{7,}$/, 'must be phone numbers separated by ";"'))
      .min(1, 'must list at least one phone number'),
  );

const contactKeys = ['general', 'editorial', 'advertising', 'subscriptions', 'legal', 'careers'] as const;

const serverEnv = {
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  PORT: int(1, 65535).optional(),
  HOST: z.string().min(1, 'must not be empty').optional(),
  TRUST_PROXY: trustProxy.optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  DIST_DIR: z.string().min(1).optional(),
  PAGE_CACHE: z.enum(['on', 'off']).optional(),
  PAGE_S_MAXAGE: int(0, 86_400).default(60),
  PAGE_STALE_WHILE_REVALIDATE: int(0, 86_400).default(60),
  PAGE_STALE_IF_ERROR: int(0, 604_800).default(86_400),
  RENDER_TIMEOUT_MS: int(100, 60_000).optional(),
  REQUEST_TIMEOUT_MS: int(1_000, 300_000).optional(),
  HEADERS_TIMEOUT_MS: int(1_000, 120_000).optional(),
  KEEP_ALIVE_TIMEOUT_MS: int(1_000, 120_000).optional(),
  SEND_TIMEOUT_MS: int(1_000, 600_000).default(60_000),
  SHUTDOWN_TIMEOUT_MS: int(100, 9_500).optional(),
  MAX_HEADER_SIZE: int(1_024, 65_536).optional(),
};

const siteEnv = {
  SITE_URL: httpUrl.transform((v) => v.replace(/\/+$/, '')).optional(),
  SITE_MASTHEAD: z.string().min(1).optional(),
  SITE_NETWORK_NAME: z.string().min(1).optional(),
  SITE_TAGLINE: z.string().min(1).optional(),
  SITE_SISTER_SITES: linkList.optional(),
  DONATION_URL: httpUrl.optional(),
  SPONSOR_BUDDHATV_URL: httpUrl.optional(),
  SPONSOR_DUNAMIS_URL: httpUrl.optional(),
  SPONSOR_GOOGLE_URL: httpUrl.optional(),
  AD_SCRIPT_URL: httpUrl.optional(),
  IMAGEBOARD_URL: httpUrl.optional(),
  CONTACT_FORM_URL: httpUrl.optional(),
  CONTACT_FORM_SCRIPT_URL: httpUrl.optional(),
  BOOK_COVER_ORIGIN: httpUrl.transform((v) => new URL(v).origin).optional(),
  AUTHOR_RETAILER_URL: httpUrl.optional(),
  UNIVERSITY_URL: httpUrl.optional(),
  ...Object.fromEntries(contactKeys.map((k) => [`CONTACT_${k.toUpperCase()}_EMAIL`, email.optional()])),
  ...Object.fromEntries(contactKeys.map((k) => [`CONTACT_${k.toUpperCase()}_PHONES`, phoneList.optional()])),
};

const schema = z.object({ ...serverEnv, ...siteEnv, ...streamEnv }).superRefine(checkStreamEnv);

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as shells and compose files often leave them.
  const present = Object.fromEntries(
    Object.entries(env).flatMap(([k, v]) => (v === undefined || v.trim() === '' ? [] : [[k, v.trim()]])),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    const value = env[variable];
    throw new ConfigError(variable, `${issue.message}${value !== undefined ? ` (got "${value}")` : ''}`);
  }
  const e = parsed.data as z.infer<typeof schema> & Record<string, unknown>;
  const port = e.PORT ?? 3000;

  const contacts = Object.fromEntries(
    contactKeys.map((k): [string, ContactChannel] => [
      k,
      {
        email: (e[`CONTACT_${k.toUpperCase()}_EMAIL`] as string | undefined) ?? defaultSite.contacts[k].email,
        phones: (e[`CONTACT_${k.toUpperCase()}_PHONES`] as string[] | undefined) ?? defaultSite.contacts[k].phones,
      },
    ]),
  ) as SiteConfig['contacts'];

  const site: SiteConfig = {
    url: e.SITE_URL ?? `http://localhost:${port}`,
    masthead: e.SITE_MASTHEAD ?? defaultSite.masthead,
    networkName: e.SITE_NETWORK_NAME ?? defaultSite.networkName,
    tagline: e.SITE_TAGLINE ?? defaultSite.tagline,
    sisterSites: e.SITE_SISTER_SITES ?? defaultSite.sisterSites,
    contacts,
    donationUrl: e.DONATION_URL ?? defaultSite.donationUrl,
    sponsors: {
      buddhatv: { ...defaultSite.sponsors.buddhatv, url: e.SPONSOR_BUDDHATV_URL ?? defaultSite.sponsors.buddhatv.url },
      dunamis: { ...defaultSite.sponsors.dunamis, url: e.SPONSOR_DUNAMIS_URL ?? defaultSite.sponsors.dunamis.url },
      google: { ...defaultSite.sponsors.google, url: e.SPONSOR_GOOGLE_URL ?? defaultSite.sponsors.google.url },
    },
    adScriptUrl: e.AD_SCRIPT_URL ?? defaultSite.adScriptUrl,
    imageboardUrl: e.IMAGEBOARD_URL ?? defaultSite.imageboardUrl,
    contactFormUrl: e.CONTACT_FORM_URL ?? defaultSite.contactFormUrl,
    contactFormScriptUrl: e.CONTACT_FORM_SCRIPT_URL ?? defaultSite.contactFormScriptUrl,
    bookCoverOrigin: e.BOOK_COVER_ORIGIN ?? defaultSite.bookCoverOrigin,
    authorRetailerUrl: e.AUTHOR_RETAILER_URL ?? defaultSite.authorRetailerUrl,
    universityUrl: e.UNIVERSITY_URL ?? defaultSite.universityUrl,
  };

  return {
    env: e.NODE_ENV,
    port,
    host: e.HOST ?? '127.0.0.1',
    trustProxy: e.TRUST_PROXY ?? false,
    logLevel: e.LOG_LEVEL ?? 'info',
    distDir: e.DIST_DIR ?? 'dist',
    pageCache: (e.PAGE_CACHE ?? 'on') === 'on',
    sharedCache: {
      sMaxAge: e.PAGE_S_MAXAGE,
      staleWhileRevalidate: e.PAGE_STALE_WHILE_REVALIDATE,
      staleIfError: e.PAGE_STALE_IF_ERROR,
    },
    timeouts: {
      renderMs: e.RENDER_TIMEOUT_MS ?? 5_000,
      requestMs: e.REQUEST_TIMEOUT_MS ?? 30_000,
      headersMs: e.HEADERS_TIMEOUT_MS ?? 10_000,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS ?? 65_000,
      sendMs: e.SEND_TIMEOUT_MS,
      shutdownMs: e.SHUTDOWN_TIMEOUT_MS ?? 8_000,
    },
    maxHeaderSize: e.MAX_HEADER_SIZE ?? 16_384,
    site,
    stream: streamConfigFrom(e),
  };
}

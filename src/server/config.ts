/**
 * Configuration from environment variables, validated once at start by one zod schema composed
 * of parts (the server's, the site's, the stream's in stream/config.ts). Every default is in the
 * schema, and the types are what it produces (`Config`). A bad value stops the server with a
 * ConfigError naming the variable. An empty or blank variable means "not set".
 */
import proxyaddr from 'proxy-addr';
import { z } from 'zod';
import { defaultSite, type ExternalLink, type SiteConfig } from '../shared/site.ts';
import { REWIND_SEGMENT_TARGET_S } from '../shared/rewind.ts';
import { ConfigError } from './config-error.ts';
import { fraction, httpUrl, wholeNumber as int } from './env-values.ts';
import { checkStreamEnv, streamConfigFrom, streamEnv } from './stream/config.ts';

/** proxy-addr's compiled check: whether the address `hop` steps from the socket is a proxy we trust. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY, as Express reads "trust proxy": true, false, a hop count, or addresses and subnets
 * (loopback, linklocal, uniquelocal among them), compiled once by proxy-addr. `false` when no
 * proxy is trusted, so the client is the socket's peer without reading X-Forwarded-For at all.
 */
const trustProxy = z.string().transform((text, ctx): ProxyTrust | false => {
  const value = text.toLowerCase();
  if (value === 'false' || value === '0') return false;
  if (value === 'true') return () => true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return (_address, hop) => hop < hops;
  }
  try {
    return proxyaddr.compile(value.split(',').map((part) => part.trim()));
  } catch {
    ctx.addIssue({
      code: 'custom',
      message: 'must be true/false, a hop count, loopback/linklocal/uniquelocal, or IP addresses or subnets',
    });
    return z.NEVER;
  }
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

const serverEnv = {
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  PORT: int(1, 65535).default(3000),
  HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  TRUST_PROXY: trustProxy.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** dist/ of the build: client/ holds public files, manifest.json the asset map. */
  DIST_DIR: z.string().min(1).default('dist'),
  PAGE_CACHE: z.enum(['on', 'off']).default('on'),
  /** off: the kill switch is served at the worker's URL, and unregisters the worker in every browser (decision 052). */
  SERVICE_WORKER: z.enum(['on', 'off']).default('on'),
  PAGE_S_MAXAGE: int(0, 86_400).default(60),
  PAGE_STALE_WHILE_REVALIDATE: int(0, 86_400).default(60),
  PAGE_STALE_IF_ERROR: int(0, 604_800).default(86_400),
  RENDER_TIMEOUT_MS: int(100, 60_000).default(5_000),
  REQUEST_TIMEOUT_MS: int(1_000, 300_000).default(30_000),
  HEADERS_TIMEOUT_MS: int(1_000, 120_000).default(10_000),
  KEEP_ALIVE_TIMEOUT_MS: int(1_000, 120_000).default(65_000),
  SEND_TIMEOUT_MS: int(1_000, 600_000).default(60_000),
  SHUTDOWN_TIMEOUT_MS: int(100, 9_500).default(8_000),
  MAX_HEADER_SIZE: int(1_024, 65_536).default(16_384),
  /** GET /metrics on a listener of its own (metrics.ts); off when unset. */
  METRICS_PORT: int(1, 65535).optional(),
  METRICS_HOST: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  /** Share of page views whose field Web Vitals the page sends to POST /api/vitals (0: none). */
  VITALS_SAMPLE_RATE: fraction.default(1),
};

/** The metrics listener must not be the site's own port. */
function checkServerEnv(env: { PORT: number; METRICS_PORT?: number | undefined }, ctx: z.RefinementCtx): void {
  if (env.METRICS_PORT === env.PORT) {
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must differ from PORT (the public port)' });
  }
}

const MIB = 1024 * 1024;

/** The rewind window (src/server/rewind/): where it is kept and its bounds. */
const rewindEnv = {
  /** off: nothing is recorded; window.json says rewind is unavailable. */
  REWIND: z.enum(['on', 'off']).default('on'),
  /** One folder per allowed port under it; nginx serves it too (deploy/nginx.conf). */
  REWIND_DIR: z.string().min(1, 'must not be empty').default('var/rewind'),
  REWIND_WINDOW_S: int(10, 86_400).default(7_200),
  REWIND_SEGMENT_S: int(1, 10).default(REWIND_SEGMENT_TARGET_S),
  /** Per mount: the oldest segments go first when the window would hold more. */
  REWIND_MAX_BYTES: int(MIB, 2 ** 50).default(256 * MIB),
  /** Below this much free space on REWIND_DIR's file system, recording stops (live goes on). */
  REWIND_MIN_FREE_BYTES: int(0, 2 ** 50).default(256 * MIB),
  /**
   * UDP port on 127.0.0.1 where nginx sends its access log of the window's segments (syslog, as
   * deploy/nginx.conf does), so the window's listeners are counted while nginx serves the files.
   * Unset: not received (the app counts only the segments it serves itself).
   */
  REWIND_LOG_PORT: int(1024, 65535).optional(),
};

/** A window of at least two segments. */
function checkRewindEnv(env: { REWIND_WINDOW_S: number; REWIND_SEGMENT_S: number }, ctx: z.RefinementCtx): void {
  if (env.REWIND_WINDOW_S < 2 * env.REWIND_SEGMENT_S) {
    ctx.addIssue({
      code: 'custom',
      path: ['REWIND_WINDOW_S'],
      message: 'must hold at least two segments (twice REWIND_SEGMENT_S)',
    });
  }
}

const { contacts, sponsors } = defaultSite;

const siteEnv = {
  /** Without it, http://localhost and PORT. */
  SITE_URL: httpUrl.transform((v) => v.replace(/\/+$/, '')).optional(),
  SITE_MASTHEAD: z.string().min(1).default(defaultSite.masthead),
  SITE_NETWORK_NAME: z.string().min(1).default(defaultSite.networkName),
  SITE_TAGLINE: z.string().min(1).default(defaultSite.tagline),
  SITE_SISTER_SITES: linkList.default(defaultSite.sisterSites),
  DONATION_URL: httpUrl.default(defaultSite.donationUrl),
  SPONSOR_BUDDHATV_URL: httpUrl.default(sponsors.buddhatv.url),
  SPONSOR_DUNAMIS_URL: httpUrl.default(sponsors.dunamis.url),
  SPONSOR_GOOGLE_URL: httpUrl.default(sponsors.google.url),
  AD_SCRIPT_URL: httpUrl.default(defaultSite.adScriptUrl),
  IMAGEBOARD_URL: httpUrl.default(defaultSite.imageboardUrl),
  CONTACT_FORM_URL: httpUrl.default(defaultSite.contactFormUrl),
  CONTACT_FORM_SCRIPT_URL: httpUrl.default(defaultSite.contactFormScriptUrl),
  BOOK_COVER_ORIGIN: httpUrl.transform((v) => new URL(v).origin).default(defaultSite.bookCoverOrigin),
  AUTHOR_RETAILER_URL: httpUrl.default(defaultSite.authorRetailerUrl),
  UNIVERSITY_URL: httpUrl.default(defaultSite.universityUrl),
  CONTACT_GENERAL_EMAIL: email.default(contacts.general.email),
  CONTACT_GENERAL_PHONES: phoneList.default(contacts.general.phones),
  CONTACT_EDITORIAL_EMAIL: email.default(contacts.editorial.email),
  CONTACT_EDITORIAL_PHONES: phoneList.default(contacts.editorial.phones),
  CONTACT_ADVERTISING_EMAIL: email.default(contacts.advertising.email),
  CONTACT_ADVERTISING_PHONES: phoneList.default(contacts.advertising.phones),
  CONTACT_SUBSCRIPTIONS_EMAIL: email.default(contacts.subscriptions.email),
  CONTACT_SUBSCRIPTIONS_PHONES: phoneList.default(contacts.subscriptions.phones),
  CONTACT_LEGAL_EMAIL: email.default(contacts.legal.email),
  CONTACT_LEGAL_PHONES: phoneList.default(contacts.legal.phones),
  CONTACT_CAREERS_EMAIL: email.default(contacts.careers.email),
  CONTACT_CAREERS_PHONES: phoneList.default(contacts.careers.phones),
};

const envSchema = z
  .object({ ...serverEnv, ...siteEnv, ...streamEnv, ...rewindEnv })
  .superRefine(checkServerEnv)
  .superRefine(checkRewindEnv)
  .superRefine(checkStreamEnv);
type Env = z.output<typeof envSchema>;

function siteFrom(e: Env): SiteConfig {
  return {
    url: e.SITE_URL ?? `http://localhost:${e.PORT}`,
    masthead: e.SITE_MASTHEAD,
    networkName: e.SITE_NETWORK_NAME,
    tagline: e.SITE_TAGLINE,
    sisterSites: e.SITE_SISTER_SITES,
    contacts: {
      general: { email: e.CONTACT_GENERAL_EMAIL, phones: e.CONTACT_GENERAL_PHONES },
      editorial: { email: e.CONTACT_EDITORIAL_EMAIL, phones: e.CONTACT_EDITORIAL_PHONES },
      advertising: { email: e.CONTACT_ADVERTISING_EMAIL, phones: e.CONTACT_ADVERTISING_PHONES },
      subscriptions: { email: e.CONTACT_SUBSCRIPTIONS_EMAIL, phones: e.CONTACT_SUBSCRIPTIONS_PHONES },
      legal: { email: e.CONTACT_LEGAL_EMAIL, phones: e.CONTACT_LEGAL_PHONES },
      careers: { email: e.CONTACT_CAREERS_EMAIL, phones: e.CONTACT_CAREERS_PHONES },
    },
    donationUrl: e.DONATION_URL,
    sponsors: {
      buddhatv: { ...sponsors.buddhatv, url: e.SPONSOR_BUDDHATV_URL },
      dunamis: { ...sponsors.dunamis, url: e.SPONSOR_DUNAMIS_URL },
      google: { ...sponsors.google, url: e.SPONSOR_GOOGLE_URL },
    },
    adScriptUrl: e.AD_SCRIPT_URL,
    imageboardUrl: e.IMAGEBOARD_URL,
    contactFormUrl: e.CONTACT_FORM_URL,
    contactFormScriptUrl: e.CONTACT_FORM_SCRIPT_URL,
    bookCoverOrigin: e.BOOK_COVER_ORIGIN,
    authorRetailerUrl: e.AUTHOR_RETAILER_URL,
    universityUrl: e.UNIVERSITY_URL,
  };
}

/** The validated variables, grouped as the parts use them. */
function configFrom(e: Env) {
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    /** The one trust function: the request log, the stream's per-client caps and Express all use it. */
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    distDir: e.DIST_DIR,
    pageCache: e.PAGE_CACHE === 'on',
    serviceWorker: e.SERVICE_WORKER === 'on',
    /** What pages tell shared caches (nginx, a CDN), in seconds: pages/shared-cache.ts. */
    sharedCache: {
      sMaxAge: e.PAGE_S_MAXAGE,
      staleWhileRevalidate: e.PAGE_STALE_WHILE_REVALIDATE,
      staleIfError: e.PAGE_STALE_IF_ERROR,
    },
    timeouts: {
      /** A page render that takes longer is aborted. */
      renderMs: e.RENDER_TIMEOUT_MS,
      /** Whole request (headers and body) must arrive within this. */
      requestMs: e.REQUEST_TIMEOUT_MS,
      headersMs: e.HEADERS_TIMEOUT_MS,
      keepAliveMs: e.KEEP_ALIVE_TIMEOUT_MS,
      /** A connection that neither sends nor takes a byte for this long is closed (nginx's send_timeout). */
      sendMs: e.SEND_TIMEOUT_MS,
      /** Graceful shutdown gives up and exits after this. */
      shutdownMs: e.SHUTDOWN_TIMEOUT_MS,
    },
    maxHeaderSize: e.MAX_HEADER_SIZE,
    metrics: e.METRICS_PORT === undefined ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    /** Told to every page in its boot data (the same for every visitor, so cached pages stay right). */
    vitalsSampleRate: e.VITALS_SAMPLE_RATE,
    site: siteFrom(e),
    stream: streamConfigFrom(e),
    /** null: rewind off. */
    rewind:
      e.REWIND === 'off'
        ? null
        : {
            dir: e.REWIND_DIR,
            windowS: e.REWIND_WINDOW_S,
            segmentS: e.REWIND_SEGMENT_S,
            maxBytes: e.REWIND_MAX_BYTES,
            minFreeBytes: e.REWIND_MIN_FREE_BYTES,
            logPort: e.REWIND_LOG_PORT ?? null,
          },
  };
}

export type Config = ReturnType<typeof configFrom>;

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as shells and compose files often leave them.
  const present = Object.fromEntries(
    Object.entries(env).flatMap(([k, v]) => (v === undefined || v.trim() === '' ? [] : [[k, v.trim()]])),
  );
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const variable = String(issue.path[0] ?? 'environment');
    const value = env[variable];
    throw new ConfigError(variable, `${issue.message}${value !== undefined ? ` (got "${value}")` : ''}`);
  }
  return configFrom(parsed.data);
}

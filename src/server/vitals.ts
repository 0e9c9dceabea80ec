/**
 * POST /api/vitals: one page view's field Web Vitals, sent by the page's beacon
 * (src/client/vitals.ts) when it is hidden. The body is small JSON of the route's id from the
 * route table, the navigation type and the measured values; nothing else is accepted, and nothing
 * identifying is sent or kept. A valid beacon is recorded in histograms by route (metrics.ts
 * serves them) and answered 204; anything else gets a 4xx and records nothing. Every label value
 * comes from the route table and the fixed lists here, so no body can add a series.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { pages } from '../shared/pages.ts';
import { NAVIGATION_TYPES, VITAL_NAMES, VITALS_PATH, type VitalName } from '../shared/vitals.ts';
import { clientKey } from './client-key.ts';

export const ROUTE_IDS = pages.map((page) => page.id) as [string, ...string[]];

/** A beacon is about 150 bytes; anything much larger is not one of ours. */
export const MAX_BODY_BYTES = 1024;
/** Beacons one client (an IPv4 address or an IPv6 /64) may send per minute: a page view sends one. */
export const BEACONS_PER_MINUTE = 60;
/** Clients remembered per minute: beyond that, new clients wait for the next minute (bounded memory). */
const CLIENTS_PER_MINUTE_MAX = 50_000;

/** Times in milliseconds (web-vitals' unit), under a minute; CLS is a score. */
const milliseconds = z.number().min(0).max(60_000);
const vitalsBody = z.strictObject({
  route: z.enum(ROUTE_IDS),
  navigation: z.enum(NAVIGATION_TYPES),
  metrics: z
    .strictObject({
      LCP: milliseconds.optional(),
      INP: milliseconds.optional(),
      CLS: z.number().min(0).max(100).optional(),
      FCP: milliseconds.optional(),
      TTFB: milliseconds.optional(),
      NAV: milliseconds.optional(),
    } satisfies Record<VitalName, unknown>)
    .refine((metrics) => Object.keys(metrics).length > 0, 'at least one metric'),
});
export type VitalsReport = z.output<typeof vitalsBody>;

/**
 * The histogram of each metric, in seconds (CLS: a score), its bucket bounds at the Core Web
 * Vitals thresholds (good / poor: LCP 2.5 / 4 s, INP 0.2 / 0.5 s, CLS 0.1 / 0.25, FCP 1.8 / 3 s,
 * TTFB 0.8 / 1.8 s; NAV at INP's) with finer ones below, so the 75th percentile reads closely.
 */
export const VITAL_HISTOGRAMS: Record<VitalName, { name: string; help: string; buckets: number[] }> = {
  LCP: {
    name: 'web_vitals_lcp_seconds',
    help: 'Field Largest Contentful Paint of page views, by route',
    buckets: [0.1, 0.2, 0.3, 0.4, 0.5, 0.75, 1, 1.5, 2, 2.5, 4, 6, 10],
  },
  INP: {
    name: 'web_vitals_inp_seconds',
    help: 'Field Interaction to Next Paint of page views, by route',
    buckets: [0.016, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 1],
  },
  CLS: {
    name: 'web_vitals_cls',
    help: 'Field Cumulative Layout Shift of page views, by route',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5],
  },
  FCP: {
    name: 'web_vitals_fcp_seconds',
    help: 'Field First Contentful Paint of page views, by route',
    buckets: [0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 1.8, 3, 6],
  },
  TTFB: {
    name: 'web_vitals_ttfb_seconds',
    help: 'Field Time to First Byte of page views, by route',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.2, 0.4, 0.8, 1.8, 4],
  },
  NAV: {
    name: 'web_vitals_navigation_seconds',
    help: "Field time of in-site navigations from the tap to the new page's paint, by route",
    buckets: [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2, 5],
  },
};
/** Values of these metrics come in milliseconds and are kept in seconds. */
export const IN_MILLISECONDS: ReadonlySet<VitalName> = new Set(VITAL_NAMES.filter((name) => name !== 'CLS'));

/** Where valid reports go (metrics.ts's histograms; nothing when metrics are off). */
export type VitalsRecorder = (report: VitalsReport) => void;

interface Refusal {
  status: 400 | 429;
  text: string;
}

/**
 * Every refusal of what was sent is a 400 (issue 30: one answer for anything that is not a report;
 * the text says which rule it broke); too many reports is 429, with when to come back.
 */
const refusals = {
  method: { status: 400, text: 'Only POST is accepted here' },
  type: { status: 400, text: 'The body must be application/json or text/plain' },
  size: { status: 400, text: `The body must be at most ${MAX_BODY_BYTES} bytes` },
  body: { status: 400, text: 'The body is not a Web Vitals report' },
  rate: { status: 429, text: 'Too many reports from this client; try again in a minute' },
} as const satisfies Record<string, Refusal>;

const NO_STORE = { 'Cache-Control': 'no-store' };

function answer(res: ServerResponse, refusal: Refusal | null): void {
  if (!refusal) {
    res.writeHead(204, NO_STORE).end();
    return;
  }
  const headers: Record<string, string> = { ...NO_STORE, 'Content-Type': 'text/plain; charset=utf-8' };
  if (refusal === refusals.method) headers.Allow = 'POST';
  if (refusal.status === 429) headers['Retry-After'] = '60';
  // A body left unread (too large, refused early) is not worth keeping the connection for.
  if (!res.req.complete) headers.Connection = 'close';
  res.writeHead(refusal.status, headers).end(refusal.text);
}

/** sendBeacon sends a string as text/plain, a Blob with its type: either, with or without a charset. */
const acceptedType = (header: string | undefined) =>
  /^(?:application\/json|text\/plain)\s*(?:;\s*charset=utf-8\s*)?$/i.test(header ?? '');

/** The body, or null once it passes `limit` bytes (then the rest is not read). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        req.pause();
        resolve(null);
      } else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(Buffer.concat(chunks)));
    // A client gone before the end: nothing to record (a later resolve is ignored).
    req.once('close', () => resolve(null));
    req.once('error', reject);
  });
}

/** A fixed one-minute window of beacon counts per client key, forgotten as each minute begins. */
function createRateLimit(now: () => number) {
  let minute = -1;
  let counts = new Map<string, number>();
  return (client: string): boolean => {
    const current = Math.floor(now() / 60_000);
    if (current !== minute) {
      minute = current;
      counts = new Map();
    }
    const key = clientKey(client);
    const sent = counts.get(key) ?? 0;
    if (sent >= BEACONS_PER_MINUTE || (sent === 0 && counts.size >= CLIENTS_PER_MINUTE_MAX)) return false;
    counts.set(key, sent + 1);
    return true;
  };
}

/** The report in a body, or null for anything that is not exactly one. */
export function parseReport(body: Buffer): VitalsReport | null {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  const parsed = vitalsBody.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export interface VitalsEndpoint {
  /** Answers the request when its path is /api/vitals (any method); false for any other path. */
  handle(req: IncomingMessage, res: ServerResponse, client: string): boolean;
}

export function createVitalsEndpoint(record: VitalsRecorder, now: () => number = Date.now): VitalsEndpoint {
  const allowed = createRateLimit(now);
  const refusalOf = async (req: IncomingMessage, client: string): Promise<Refusal | null> => {
    if (req.method !== 'POST') return refusals.method;
    if (!allowed(client)) return refusals.rate;
    if (!acceptedType(req.headers['content-type'])) return refusals.type;
    if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) return refusals.size;
    const body = await readBody(req, MAX_BODY_BYTES);
    if (!body) return refusals.size;
    const report = parseReport(body);
    if (!report) return refusals.body;
    record(report);
    return null;
  };
  return {
    handle(req, res, client) {
      const url = req.url ?? '';
      if (url !== VITALS_PATH && !url.startsWith(`${VITALS_PATH}?`)) return false;
      refusalOf(req, client).then(
        (refusal) => answer(res, refusal),
        () => answer(res, refusals.body),
      );
      return true;
    },
  };
}

/**
 * Field Web Vitals: what this reader's browser measured, sent once per page view to
 * POST /api/vitals (src/server/vitals.ts). Its own chunk, imported by the router's chunk, which
 * loads after the page is idle (decision 043), so it never counts in the first load; the web-vitals
 * library reads the page's earlier paints and shifts from the browser's buffered entries.
 *
 * A page view is the document's load, each back/forward cache restore, and each in-site
 * navigation (NAV: from the tap, or the back/forward press, to the new page's first frame). Its
 * beacon goes when the page is hidden (visibilitychange, or pagehide), or when an in-site
 * navigation ends it; it carries the route's id, the navigation type and the values, nothing else.
 * VITALS_SAMPLE_RATE (the boot data's `vitalsSampleRate`) picks the page views that send one.
 */
import { type Metric, onCLS, onFCP, onINP, onLCP, onTTFB } from 'web-vitals';
import type { BootData } from '../shared/boot.ts';
import type { PageId } from '../shared/pages.ts';
import { type NavigationType, type VitalName, type VitalsBeacon, VITALS_PATH } from '../shared/vitals.ts';

interface View {
  route: PageId;
  /** Unknown for the document's own view until web-vitals' first value says it (navigate, reload, prerender…). */
  navigation: NavigationType | undefined;
  metrics: VitalsBeacon['metrics'];
  sampled: boolean;
  sent: boolean;
}

/** The endpoint takes times under a minute and CLS up to 100; a value past them is left out, not the beacon. */
const inRange = (name: VitalName, value: number) => value >= 0 && value <= (name === 'CLS' ? 100 : 60_000);

function readBoot(): Pick<BootData, 'page' | 'vitalsSampleRate'> {
  const text = document.getElementById('__boot')?.textContent;
  return text ? (JSON.parse(text) as BootData) : { page: 'notFound', vitalsSampleRate: 0 };
}

const { page: firstPage, vitalsSampleRate } = readBoot();
/** The view web-vitals measures: the document's load, or its latest back/forward cache restore. */
let measured: View | null = null;
/** The page view shown now: `measured`, or an in-site navigation's after it. */
let shown: View | null = null;
/** When the reader last tapped a link or pressed back/forward: an in-site navigation's start. */
let startedAt: number | undefined;
let shownPath = window.location.pathname;

function send(ending: View | null): void {
  if (!ending || ending.sent || !ending.sampled || !ending.navigation) return;
  ending.sent = true;
  if (Object.keys(ending.metrics).length === 0) return;
  const beacon: VitalsBeacon = { route: ending.route, navigation: ending.navigation, metrics: ending.metrics };
  navigator.sendBeacon(VITALS_PATH, JSON.stringify(beacon));
}

/** The page is hidden or unloads: every view not sent yet goes now. */
function sendAll(): void {
  send(measured);
  send(shown);
}

const newView = (route: PageId, navigation: NavigationType | undefined): View => ({
  route,
  navigation,
  metrics: {},
  sampled: Math.random() < vitalsSampleRate,
  sent: false,
});

/** A value from web-vitals, into the view it measures, until that view's beacon is sent. */
function record(metric: Metric): void {
  const current = measured;
  if (!current || current.sent) return;
  current.navigation ??= metric.navigationType as NavigationType;
  const name = metric.name as VitalName;
  if (current.navigation === metric.navigationType && inRange(name, metric.value)) current.metrics[name] = metric.value;
}

/**
 * The router shows `page` at `pathname` (router.tsx, after the commit). The first call is the
 * page the document loaded with; a new path after it is an in-site page view, timed to the task
 * after the next frame (its paint). The view it ends is sent then too, so that the tap's own
 * interaction (INP), which the browser reports after that frame, is in it.
 */
export function pageShown(page: PageId, pathname: string): void {
  if (pathname === shownPath) return;
  shownPath = pathname;
  const tapped = startedAt;
  startedAt = undefined;
  const ended = shown;
  const next = newView(page, 'soft-navigation');
  shown = next;
  requestAnimationFrame(() =>
    setTimeout(() => {
      const elapsed = tapped === undefined ? Number.NaN : performance.now() - tapped;
      if (!next.sent && inRange('NAV', elapsed)) next.metrics.NAV = elapsed;
      send(ended);
    }),
  );
}

function listen(): void {
  // After web-vitals' own listeners (capture phase on window), so the last values are in.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') sendAll();
  });
  window.addEventListener('pagehide', sendAll);
  window.addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    measured = newView(shown?.route ?? firstPage, 'back-forward-cache');
    shown = measured;
  });
  const tap = (event: Event) => {
    if ((event.target as Element | null)?.closest?.('a[href]')) startedAt = event.timeStamp;
  };
  document.addEventListener('click', tap, true);
  window.addEventListener('popstate', (event) => {
    startedAt = event.timeStamp;
  });
}

if (vitalsSampleRate > 0) {
  measured = newView(firstPage, undefined);
  shown = measured;
  for (const on of [onLCP, onINP, onCLS, onFCP, onTTFB]) on(record, { reportAllChanges: true });
  listen();
}

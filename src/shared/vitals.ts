/**
 * What a Web Vitals beacon carries, shared by the page that sends it (src/client/vitals.ts) and
 * the endpoint that takes it (src/server/vitals.ts): the route's id, the navigation type, and
 * values of these metrics. Times in milliseconds, CLS a score; NAV is an in-site navigation's
 * time from the tap to the new page's paint.
 */
export const VITALS_PATH = '/api/vitals';

export const VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB', 'NAV'] as const;
export type VitalName = (typeof VITAL_NAMES)[number];

/** web-vitals' navigation types; `soft-navigation` is a page the router showed after a tap or back/forward. */
export const NAVIGATION_TYPES = [
  'navigate',
  'reload',
  'back-forward',
  'back-forward-cache',
  'prerender',
  'restore',
  'soft-navigation',
] as const;
export type NavigationType = (typeof NAVIGATION_TYPES)[number];

export interface VitalsBeacon {
  route: string;
  navigation: NavigationType;
  metrics: Partial<Record<VitalName, number>>;
}

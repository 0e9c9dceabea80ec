/** Ad boxes (spec §3, §4): labels, and a helper for the rows each page's content declares. Sponsor names and links come from site configuration. */
import type { AdHeight, AdRowSpec, AdSpec, AdType } from './types.ts';

export const adLabels: Record<AdType, string> = {
  google: 'Sponsored search',
  buddhatv: 'Sponsored',
  dunamis: 'Sponsored',
  generic: 'Advertisement',
};

export const ad = (type: AdType, height: AdHeight, bannerId?: number): AdSpec =>
  bannerId === undefined ? { kind: 'ad', type, height } : { kind: 'ad', type, height, bannerId };

export const notFoundAds: AdRowSpec = {
  mobile: 1,
  items: [ad('generic', 250, 1452363), ad('buddhatv', 250), ad('dunamis', 250)],
};

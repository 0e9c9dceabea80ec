/** Where the ad boxes go and what they carry (spec §3, §4). Sponsor names and links come from site configuration. */
import type { AdHeight, AdRowSpec, AdSpec, AdType } from './types.ts';

export const adLabels: Record<AdType, string> = {
  google: 'Sponsored search',
  buddhatv: 'Sponsored',
  dunamis: 'Sponsored',
  generic: 'Advertisement',
};

const ad = (type: AdType, height: AdHeight, bannerId?: number): AdSpec =>
  bannerId === undefined ? { kind: 'ad', type, height } : { kind: 'ad', type, height, bannerId };

/** Home: the search-engine block, then rows above and below the section grid, then the sponsor block. */
export const homeSearchAd = ad('google', 250);
export const homeTopAds: AdRowSpec = {
  mobile: 2,
  items: [ad('buddhatv', 250, 6079445), ad('dunamis', 250, 1452360), ad('generic', 250)],
};
export const homeBottomAds: AdRowSpec = {
  mobile: 1,
  items: [ad('generic', 250, 6079446), ad('buddhatv', 250, 1452361), ad('dunamis', 250)],
};
export const homeSponsorAd = ad('dunamis', 600, 6079448);

export const notFoundAds: AdRowSpec = {
  mobile: 1,
  items: [ad('generic', 250, 1452363), ad('buddhatv', 250), ad('dunamis', 250)],
};

/** Terms: after these section numbers, one banner on phones; banner, house widget, banner on desktop. */
const termsRow = (first: number, second: number): AdRowSpec => ({
  mobile: 1,
  items: [ad('generic', 250, first), { kind: 'widget' }, ad('generic', 250, second)],
});
export const termsAdBreaks: ReadonlyMap<number, AdRowSpec> = new Map([
  [3, termsRow(6079445, 1452360)],
  [6, termsRow(6079446, 1452361)],
  [9, termsRow(6079448, 1452363)],
]);

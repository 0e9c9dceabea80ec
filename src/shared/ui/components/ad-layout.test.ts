import { describe, expect, it } from 'vitest';
import { notFoundAds } from '../../content/ads.ts';
import { homeBottomAds, homeTopAds } from '../../content/home.ts';
import { termsAdBreaks } from '../../content/terms.ts';
import type { AdRowSpec } from '../../content/types.ts';
import { DESKTOP_PER_ROW, isDesktopOnly, MOBILE_BREAKPOINT, viewportAt, visibleItems } from './ad-layout.ts';

const rows: Array<[string, AdRowSpec]> = [
  ['home top', homeTopAds],
  ['home bottom', homeBottomAds],
  ['not found', notFoundAds],
  ...[...termsAdBreaks].map(([n, row]): [string, AdRowSpec] => [`terms after §${n}`, row]),
];

const kinds = (row: AdRowSpec, width: number) => visibleItems(row, viewportAt(width)).map((i) => i.kind);

describe('viewport', () => {
  it('is mobile under 768 px and desktop from 768 px', () => {
    expect(MOBILE_BREAKPOINT).toBe(768);
    expect(viewportAt(320)).toBe('mobile');
    expect(viewportAt(767)).toBe('mobile');
    expect(viewportAt(768)).toBe('desktop');
    expect(viewportAt(1440)).toBe('desktop');
  });
});

describe('ad rows by viewport (spec §4)', () => {
  it.each(rows)('%s: phones show one or two boxes, desktop full rows of three', (_name, row) => {
    const mobile = visibleItems(row, 'mobile');
    expect(mobile.length).toBeGreaterThanOrEqual(1);
    expect(mobile.length).toBeLessThanOrEqual(2);
    const desktop = visibleItems(row, 'desktop');
    expect(desktop.length).toBeGreaterThanOrEqual(DESKTOP_PER_ROW);
    expect(desktop.length % DESKTOP_PER_ROW).toBe(0);
  });

  it.each(rows)('%s: the phone boxes are the first ones, and only the rest are desktop-only', (_name, row) => {
    const mobile = visibleItems(row, 'mobile');
    expect(mobile).toEqual(row.items.slice(0, mobile.length));
    for (const i of row.items.keys()) expect(isDesktopOnly(row, i)).toBe(i >= mobile.length);
  });

  it('terms: one banner on phones; banner, house widget, banner on desktop', () => {
    expect(termsAdBreaks.size).toBeGreaterThan(0);
    for (const row of termsAdBreaks.values()) {
      expect(kinds(row, 375)).toEqual(['ad']);
      expect(kinds(row, 1280)).toEqual(['ad', 'widget', 'ad']);
    }
  });

  it('a row of two-on-phones shows two at 767 px and three at 768 px', () => {
    const row: AdRowSpec = { mobile: 2, items: homeTopAds.items.slice(0, 3) };
    expect(visibleItems(row, viewportAt(767))).toHaveLength(2);
    expect(visibleItems(row, viewportAt(768))).toHaveLength(3);
  });
});

describe('banner placeholders (spec §3)', () => {
  const banners = rows.flatMap(([, row]) => row.items).flatMap((i) => (i.kind === 'ad' && i.bannerId ? [i] : []));

  it('carry the spec’s numeric banner ids and reserved heights of 250 or 600 px', () => {
    const ids = new Set(banners.map((b) => b.bannerId));
    for (const id of [6079445, 1452360, 6079446, 1452361, 6079448, 1452363]) expect(ids).toContain(id);
    for (const b of banners) expect([250, 600]).toContain(b.height);
  });
});

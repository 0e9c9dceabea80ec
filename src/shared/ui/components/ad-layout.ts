/**
 * Which ad boxes each viewport shows (spec §4). The page renders every box and
 * CSS hides the desktop-only ones under the breakpoint, so the server's HTML is
 * the first client render at any width; this module is the rule that CSS
 * implements (class `ad-row__item--desktop`), kept here to be tested.
 */
import type { AdRowItem, AdRowSpec } from '../../content/types.ts';

/** Spec §9: mobile below 768 px. */
export const MOBILE_BREAKPOINT = 768;
/** Desktop shows three boxes per row (a row spec may fill several rows). */
export const DESKTOP_PER_ROW = 3;

export type Viewport = 'mobile' | 'desktop';

export const viewportAt = (width: number): Viewport => (width < MOBILE_BREAKPOINT ? 'mobile' : 'desktop');

/** Phones show the first `row.mobile` items; the rest are desktop-only. */
export const isDesktopOnly = (row: AdRowSpec, index: number): boolean => index >= row.mobile;

export function visibleItems(row: AdRowSpec, viewport: Viewport): AdRowItem[] {
  return viewport === 'desktop' ? row.items : row.items.filter((_, i) => !isDesktopOnly(row, i));
}

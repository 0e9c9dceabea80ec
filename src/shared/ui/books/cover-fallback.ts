/**
 * A book cover that fails to load is replaced once by a local placeholder
 * (spec §4, §8). Errors are matched to the source that failed, so one failure
 * never counts twice, and a failing placeholder ends the chain instead of
 * looping.
 */
export const COVER_PLACEHOLDER = '/images/cover-placeholder.svg';

/** cover: the retailer's image; placeholder: the local stand-in; none: the stand-in failed too, nothing more is requested. */
export type CoverState = 'cover' | 'placeholder' | 'none';

/** The cover's absolute URL: the configured origin joined with the path kept in the data. */
export function coverUrl(origin: string, path: string): string {
  return origin.replace(/\/+$/, '') + (path.startsWith('/') ? path : `/${path}`);
}

/** What the <img> shows. After the placeholder failed it keeps the same src, so no new request starts. */
export function coverSrc(state: CoverState, url: string): string {
  return state === 'cover' ? url : COVER_PLACEHOLDER;
}

/** The state after the image reported an error while its src was `failedSrc`; stale or repeated errors change nothing. */
export function afterCoverError(state: CoverState, failedSrc: string | null): CoverState {
  const placeholderFailed = failedSrc === COVER_PLACEHOLDER;
  if (state === 'cover' && !placeholderFailed) return 'placeholder';
  if (state === 'placeholder' && placeholderFailed) return 'none';
  return state;
}

/**
 * True for an image whose load has already failed. An error that fired before
 * hydration had no React listener and is not replayed, so it is detected on
 * mount. A lazy image that has not started loading is not `complete`.
 */
export function failedBeforeListening(img: { complete: boolean; naturalWidth: number }): boolean {
  return img.complete && img.naturalWidth === 0;
}

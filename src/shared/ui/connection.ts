/**
 * What the reader's connection allows ahead of a tap (Network Information API; Chromium's, others
 * have none and get the default). A reader who asks to save data (the browser's data saver: the
 * same setting sends the `Save-Data` request header) gets nothing fetched before a tap; on a slow
 * connection a page's code is fetched on an intent to follow its link (hover, touchstart, focus),
 * not for every link that comes into view, so the fetch of the page tapped does not queue behind them.
 */
interface ConnectionHints {
  saveData?: boolean;
  effectiveType?: string;
}

const SLOW_TYPES = new Set(['slow-2g', '2g', '3g']);

const connection = (): ConnectionHints | undefined =>
  typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { connection?: ConnectionHints }).connection;

/** The reader asks to save data: fetch nothing before it is needed. */
export const savesData = (): boolean => connection()?.saveData === true;

/** Whether links prefetch their pages as they come into view (else on an intent only, or not at all). */
export function prefetchesInView(): boolean {
  const hints = connection();
  return !hints?.saveData && !SLOW_TYPES.has(hints?.effectiveType ?? '');
}

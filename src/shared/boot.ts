import type { IsoDate } from './date.ts';
import type { PageId } from './pages.ts';
import type { SiteConfig } from './site.ts';

/** Asset URLs the document links, from the build manifest. */
export interface PageAssets {
  /** The client entry module: the loader (src/client/entry.tsx). */
  entry: string;
  /** The app's and the route's chunks: the loader preloads them all at once after the first paint. */
  preload: string[];
  /**
   * Per page module (pages.ts `module`), the chunks its own chunk imports: a navigation asks for them
   * with the page's chunk, not after it (src/client/page-files.ts). Pages that import none are left out.
   */
  pageDependencies: Record<string, string[]>;
}

/**
 * What the server hands the client so its first render equals the server's:
 * site identity, the date the page was rendered for, and the assets it links.
 * It travels as JSON in a non-executable <script type="application/json">, so
 * the CSP needs no inline-script allowance.
 */
export interface BootData {
  /** The page the server rendered, so hydration needs no router to know it. */
  page: PageId;
  site: SiteConfig;
  /** Chicago's date when the page was rendered, "YYYY-MM-DD" (also the page cache's key). */
  today: IsoDate;
  assets: PageAssets;
  /** The `port` the radio player asks /api/stream for (the first of STREAM_ALLOWED_PORTS). */
  streamPort: number;
  /** Share of page views that send their field Web Vitals (VITALS_SAMPLE_RATE; src/client/vitals.ts). */
  vitalsSampleRate: number;
}

export const BOOT_ELEMENT_ID = '__boot';
/** The <style> that holds the site's CSS, inlined by the server (decision 044). */
export const STYLES_ELEMENT_ID = '__styles';

/** JSON safe to place inside a <script> element: no "</script>", no "<!--", no line separators. */
export function serializeForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

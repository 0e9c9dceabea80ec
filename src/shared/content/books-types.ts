/** A book card on /books (spec §3): hard-coded, display only. */
export interface Book {
  title: string;
  /** The book's page at the retailer (absolute URL). */
  url: string;
  /** Path of the cover image on the configured cover origin (site.bookCoverOrigin), e.g. "/images/B0XXXXXXXX.jpg". */
  cover: string;
}

/** Shapes of the site's hard-coded content (spec §3). Display only: nothing here is fetched. */

export interface Article {
  title: string;
  excerpt: string;
  author: string;
  /** Display text, e.g. "April 16, 2025". */
  date: string;
  category: string;
  /** A local image under /public, or null: a card without an image shows text only. */
  imageUrl: string | null;
  /** Featured cards use two columns with the image on the right at 16:9; others use 4:3. */
  featured?: boolean;
}

export interface LeadArticle extends Article {
  photoCredit: string;
}

/** One block of the home page's section grid; `id` is the in-page anchor (see sections-nav.ts). */
export interface HomeSection {
  id: string;
  title: string;
  articles: Article[];
}

export interface Quote {
  text: string;
  author?: string;
}

export interface NamedText {
  title: string;
  text: string;
}

export interface JobOpening {
  title: string;
  department: 'Editorial' | 'Business' | 'Digital';
  location: 'Chicago, IL' | 'Remote (Midwest)';
  type: 'Full-time';
  description: string;
}

/** A numbered section of a legal page: paragraphs, then an optional list. */
export interface LegalSection {
  title: string;
  paragraphs: string[];
  items?: string[];
  /** Lead-in to the legal contact's email link, which the page appends (from site configuration). */
  contact?: string;
}

export interface LegalDocument {
  lastUpdated: string;
  intro: string;
  sections: LegalSection[];
}

export type AdType = 'google' | 'buddhatv' | 'dunamis' | 'generic';

/** Reserved minimum heights of ad boxes, in px (spec §9). */
export type AdHeight = 250 | 600;

/** A sponsor box; a banner id also hosts the ad network's script for that banner. */
export interface AdSpec {
  kind: 'ad';
  type: AdType;
  height: AdHeight;
  bannerId?: number;
}

/** Our own promo box, shown among ads on the Terms page. */
export interface HouseWidgetSpec {
  kind: 'widget';
}

export type AdRowItem = AdSpec | HouseWidgetSpec;

/** A row of ad boxes: desktop shows every item, three per row; phones show the first `mobile`. */
export interface AdRowSpec {
  items: AdRowItem[];
  mobile: 1 | 2;
}

/**
 * Site identity and third-party endpoints. The server fills this from the
 * environment (src/server/config.ts) and hands it to the client in the boot
 * data, so both render the same words. Defaults are fictional.
 */
export interface ExternalLink {
  name: string;
  url: string;
}

export interface ContactChannel {
  email: string;
  phones: string[];
}

export interface SiteConfig {
  /** Public origin used for canonical URLs, the sitemap and Open Graph, without trailing slash. */
  url: string;
  masthead: string;
  networkName: string;
  tagline: string;
  sisterSites: ExternalLink[];
  contacts: {
    general: ContactChannel;
    editorial: ContactChannel;
    advertising: ContactChannel;
    subscriptions: ContactChannel;
    legal: ContactChannel;
    careers: ContactChannel;
  };
  donationUrl: string;
  sponsors: { buddhatv: ExternalLink; dunamis: ExternalLink; google: ExternalLink };
  /** Ad network script injected into ad script slots. */
  adScriptUrl: string;
  /** News Imageboard feed frame on the home page. */
  imageboardUrl: string;
  /** Contact form frame (the category parameter is added by the page) and its embed script. */
  contactFormUrl: string;
  contactFormScriptUrl: string;
  /** Origin that serves book cover images. */
  bookCoverOrigin: string;
  /** The author's page at the book retailer, and the spiritual university promoted on /books. */
  authorRetailerUrl: string;
  universityUrl: string;
}

export const defaultSite: SiteConfig = {
  url: 'http://localhost:3000',
  masthead: 'The Chicago Lakefront Ledger',
  networkName: 'Heartland Independent Press Network',
  tagline: 'Independent news for Chicago — a Heartland Independent Press Network publication',
  sisterSites: [
    { name: 'Milwaukee Ledger', url: 'https://milwaukee-ledger.example.org' },
    { name: 'Detroit Ledger', url: 'https://detroit-ledger.example.org' },
    { name: 'St. Louis Ledger', url: 'https://stlouis-ledger.example.org' },
  ],
  contacts: {
    general: { email: 'info@lakefrontledger.example.com', phones: ['(312) 555-0100'] },
    editorial: { email: 'newsroom@lakefrontledger.example.com', phones: ['(312) 555-0110', '(312) 555-0111'] },
    advertising: { email: 'ads@lakefrontledger.example.com', phones: ['(312) 555-0120'] },
    subscriptions: { email: 'subscribe@lakefrontledger.example.com', phones: ['(312) 555-0130'] },
    legal: { email: 'legal@lakefrontledger.example.com', phones: ['(312) 555-0140'] },
    careers: { email: 'careers@lakefrontledger.example.com', phones: ['(312) 555-0150'] },
  },
  donationUrl: 'https://donate.lakefrontledger.example.com',
  sponsors: {
    buddhatv: { name: 'Buddha TV', url: 'https://buddhatv.example.net' },
    dunamis: { name: 'Dunamis Studios', url: 'https://dunamis.example.net' },
    google: { name: 'Search Ads', url: 'https://ads.search.example.com' },
  },
  adScriptUrl: 'https://ads.adnetwork.example.net/tag.js',
  imageboardUrl: 'https://imageboard.example.net/feed/chicago',
  contactFormUrl: 'https://forms.example.com/embed/contact',
  contactFormScriptUrl: 'https://forms.example.com/embed.js',
  bookCoverOrigin: 'https://covers.bookretailer.example.com',
  authorRetailerUrl: 'https://www.amazon.com/stores/author/B0EXAMPLE00',
  universityUrl: 'https://university.example.org',
};

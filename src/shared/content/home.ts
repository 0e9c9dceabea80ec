/** The front page: lead story, the 16 section blocks and the pull quote (display-only sample content). */
import { ad } from './ads.ts';
import type { AdRowSpec, Article, HomeSection, LeadArticle, Quote } from './types.ts';

export const leadArticle: LeadArticle = {
  title: 'Lakefront Trail Expansion Gets Green Light After Years of Debate',
  excerpt: 'A $48 million plan widens the trail and separates bikes from walkers. Work begins this fall.',
  author: 'Maria Delgado',
  date: 'April 17, 2025',
  category: 'Local News',
  imageUrl: '/images/lakefront.svg',
  featured: true,
  photoCredit: 'Photo: Ledger staff illustration',
};

/** [title, excerpt, author, date, imageUrl?] — compact rows, expanded to articles below. */
type Row = [string, string, string, string, string?];

const d1 = 'April 17, 2025';
const d2 = 'April 16, 2025';
// A small staff, so names repeat (and compress) as in a real paper.
const [A, B, C, D, E, F] = ['Maria Delgado', 'James Okafor', 'Lena Park', 'Rachel Stein', 'Kevin Liu', 'Ana Ruiz'];
const X = 'Archive Desk';
const V = 'Events Desk';

const section = (id: string, title: string, rows: Row[]): HomeSection => ({
  id,
  title,
  articles: rows.map(
    ([t, excerpt, author, date, image]): Article => ({
      title: t,
      excerpt,
      author,
      date,
      category: title,
      imageUrl: image ?? null,
    }),
  ),
});

/** The header's nine anchors (sections-nav.ts) are the ids of the matching blocks. */
export const homeSections: HomeSection[] = [
  section('local', 'Local News - Chicago', [
    ['CTA Adds Late-Night Blue Line Trains', 'Service every 10 minutes after midnight.', A, d1, '/images/transit.svg'],
    ['Pilsen Library Reopens', 'A new reading room and maker space.', B, d2],
  ]),
  section('national', 'National News', [
    ['Senate Passes Rail Safety Bill', 'New rules for freight lines in Illinois.', C, d1],
    ['Lakes States Sign Water Pact', 'Shared limits on large withdrawals.', D, d2],
  ]),
  section('world', 'World News', [
    ['Global Grain Prices Ease', 'Relief for Midwest exporters.', E, d1],
    ['Mayor Visits Sister City Warsaw', 'Talks on culture and trade.', F, d2],
  ]),
  section('politics', 'Politics & Government', [
    ['Council Faces Budget Gap', 'A $220 million hole opens hearings.', A, d1],
    ['Runoff Turnout Rises', 'Early voting up in 31 of 50 wards.', C, d2],
  ]),
  section('business', 'Business & Finance', [
    ['Loop Office Vacancies Dip', 'Housing conversions fill towers.', D, d1],
    ['Community Banks Expand', 'Three new South Side branches.', B, d2],
  ]),
  section('tech', 'Technology & Innovation', [
    ['Quantum Park Breaks Ground', 'First lab planned for 2027.', E, d1],
    ['Smart Signals Tested', 'Forty crossings adapt to traffic.', F, d2],
  ]),
  section('automotive', 'Automotive & Energy', [
    ['More EV Chargers on I-90', 'One every 50 miles to Rockford.', C, d1],
    ['Grid Upgrades Planned', 'Buried lines to cut storm outages.', A, d2],
  ]),
  section('real-estate', 'Real Estate & Housing', [
    ['Spring Home Prices Up 4%', 'Inventory stays tight.', D, d1],
    ['Affordable Units Open in Uptown', 'Half of 120 units for low incomes.', B, d2],
  ]),
  section('health', 'Health & Wellness', [
    ['Clinics Add Evening Hours', 'Five now open until 8 p.m.', E, d1],
    ['Allergy Season Starts Early', 'High pollen counts this week.', F, d2],
  ]),
  section('sports', 'Sports', [
    ['Cubs Win Opener in the 11th', 'A walk-off single at Wrigley.', C, d1, '/images/ballpark.svg'],
    ['Fire Open Training Center', 'A new lakeside practice home.', A, d2],
  ]),
  section('culture', 'Arts & Culture', [
    ['Art Institute Opens Prairie Show', 'Two centuries of Midwest landscapes.', B, d1],
    ['Blues Fest Lineup Announced', 'Three free days in June.', D, d2],
  ]),
  section('food', 'Food & Dining', [
    ['Best New Taquerias', 'Six spots worth the trip.', E, d1],
    ['Green City Market Moves Outside', 'Saturdays in Lincoln Park.', F, d2],
  ]),
  section('lifestyle', 'Lifestyle & Fashion', [
    ['Vintage Shops Thrive', 'Wicker Park’s secondhand boom.', B, d1],
    ['Layers for Lake Winds', 'Dressing for 40 and 70 in a day.', D, d2],
  ]),
  section('opinion', 'Opinion / Editorials', [
    ['Fund the Libraries', 'Our busiest public rooms need it.', 'Editorial Board', d1],
    ['A Car-Free Loop Sunday', 'Show what downtown can be.', A, d2],
  ]),
  section('archives', 'From the Archives', [
    ['1925: Tribune Tower Rises', 'A contest that shaped the skyline.', X, d1],
    ['1979: The Blizzard Vote', 'Snow, stalled trains, a new mayor.', X, d2],
  ]),
  section('events', 'Local Events - Chicago', [
    ['Marathon Sign-Ups Open', 'Lottery closes April 30.', V, d1],
    ['Navy Pier Fireworks Return', 'Wednesdays and Saturdays.', V, d2],
  ]),
];

export const homeQuote: Quote = {
  text: 'A city that knows itself can govern itself. Local news is how Chicago keeps that promise.',
  author: 'The Editors',
};

/** The search-engine block, rows above and below the section grid, and the sponsor block. */
export const homeSearchAd = ad('google', 250);
/** Two rows of three on desktop; the first two on phones. */
export const homeTopAds: AdRowSpec = {
  mobile: 2,
  items: [
    ad('buddhatv', 250, 6079445),
    ad('dunamis', 250, 1452360),
    ad('generic', 250),
    ad('dunamis', 250),
    ad('generic', 250),
    ad('buddhatv', 250),
  ],
};
export const homeBottomAds: AdRowSpec = {
  mobile: 1,
  items: [ad('generic', 250, 6079446), ad('buddhatv', 250, 1452361), ad('dunamis', 250)],
};
export const homeSponsorAd = ad('dunamis', 600, 6079448);

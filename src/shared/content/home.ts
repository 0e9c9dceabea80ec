/** The front page: lead story, the 16 section blocks and the pull quote (display-only sample content). */
import type { Article, HomeSection, LeadArticle, Quote } from './types.ts';

export const leadArticle: LeadArticle = {
  title: 'Lakefront Trail Expansion Gets Green Light After Years of Debate',
  excerpt:
    'The city council approved a $48 million plan to widen the trail, separate bikes from walkers and add lighting from Edgewater to South Shore. Work begins this fall.',
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

const section = (id: string, title: string, category: string, rows: Row[]): HomeSection => ({
  id,
  title,
  articles: rows.map(([t, excerpt, author, date, image]): Article => ({
    title: t,
    excerpt,
    author,
    date,
    category,
    imageUrl: image ?? null,
  })),
});

/** The header's nine anchors (sections-nav.ts) are the ids of the matching blocks. */
export const homeSections: HomeSection[] = [
  section('local', 'Local News - Chicago', 'Local', [
    ['CTA Adds Late-Night Service on Blue Line', 'Trains will run every 10 minutes after midnight starting in May.', 'James Okafor', d1, '/images/transit.svg'],
    ['Pilsen Library Branch Reopens', 'A renovated reading room and maker space welcome neighbors back.', 'Ana Ruiz', d2],
  ]),
  section('national', 'National News', 'National', [
    ['Senate Passes Rail Safety Bill', 'New inspection rules would cover freight lines through Illinois.', 'Dana Whitfield', d1],
    ['Great Lakes States Form Water Compact', 'Eight governors agree on shared limits for large withdrawals.', 'Tom Becker', d2],
  ]),
  section('world', 'World News', 'World', [
    ['Global Grain Prices Ease', 'Better harvests abroad bring relief to Midwest exporters.', 'Priya Nair', d1],
    ['Sister City Delegation Visits Warsaw', 'Chicago leaders discuss culture and trade ties.', 'Marek Nowak', d2],
  ]),
  section('politics', 'Politics & Government', 'Politics', [
    ['Aldermen Debate Budget Shortfall', 'A $220 million gap frames the first hearings of the season.', 'Lena Park', d1],
    ['Turnout Up in Spring Runoffs', 'Early voting climbed in 31 of 50 wards.', 'Marcus Hill', d2],
  ]),
  section('business', 'Business & Finance', 'Business', [
    ['Loop Office Vacancies Dip', 'Conversions to housing shrink empty space downtown.', 'Rachel Stein', d1],
    ['Small Lenders Expand on South Side', 'Community banks open three branches in two years.', 'Andre Coleman', d2],
  ]),
  section('tech', 'Technology & Innovation', 'Tech', [
    ['Quantum Park Breaks Ground', 'The campus on the former steel site plans its first lab for 2027.', 'Kevin Liu', d1],
    ['City Tests Smart Traffic Signals', 'Forty intersections will adjust timing to real traffic.', 'Sofia Grant', d2],
  ]),
  section('automotive', 'Automotive & Energy', 'Auto & Energy', [
    ['More Chargers Along I-90', 'Fast chargers every 50 miles between Chicago and Rockford.', 'Ben Harper', d1],
    ['ComEd Plans Grid Upgrades', 'Buried lines aim to cut outages during summer storms.', 'Nina Patel', d2],
  ]),
  section('real-estate', 'Real Estate & Housing', 'Real Estate', [
    ['Home Prices Edge Up in Spring', 'Median sale price rises 4% as inventory stays tight.', 'Carla Mendez', d1],
    ['Affordable Units Open in Uptown', 'A 120-unit building reserves half for low-income renters.', 'Jon Fields', d2],
  ]),
  section('health', 'Health & Wellness', 'Health', [
    ['Free Clinics Extend Evening Hours', 'Five neighborhood clinics now stay open until 8 p.m.', 'Dr. Grace Lee', d1],
    ['Allergy Season Starts Early', 'Warm weather brings high pollen counts this week.', 'Sam Ortiz', d2],
  ]),
  section('sports', 'Sports', 'Sports', [
    ['Cubs Win Home Opener in Extra Innings', 'A walk-off single in the 11th sends Wrigley home happy.', 'Mike Sullivan', d1, '/images/ballpark.svg'],
    ['Fire Unveil New Training Center', 'The club moves practice to a lakeside complex.', 'Luis Romero', d2],
  ]),
  section('culture', 'Arts & Culture', 'Culture', [
    ['Art Institute Opens Prairie Show', 'Two centuries of Midwest landscape painting.', 'Helen Brooks', d1],
    ['Blues Festival Lineup Announced', 'Millennium Park hosts three free days in June.', 'Darnell Price', d2],
  ]),
  section('food', 'Food & Dining', 'Food', [
    ['Best New Taquerias of the Year', 'Our critics pick six spots worth the trip.', 'Elena Vargas', d1],
    ['Green City Market Moves Outdoors', 'Farmers return to Lincoln Park on Saturdays.', 'Chris Dunn', d2],
  ]),
  section('lifestyle', 'Lifestyle & Fashion', 'Lifestyle', [
    ['Vintage Shops Thrive in Wicker Park', 'Secondhand style draws a new crowd of buyers.', 'Mia Chen', d1],
    ['Spring Layers for Lake Winds', 'What to wear when the forecast says 40 and 70.', 'Tara Quinn', d2],
  ]),
  section('opinion', 'Opinion / Editorials', 'Opinion', [
    ['Editorial: Fund the Libraries', 'Branches are the city’s busiest public rooms. Budget like it.', 'Editorial Board', d1],
    ['The Case for a Car-Free Loop Day', 'One Sunday a month would show what downtown can be.', 'Paul Adeyemi', d2],
  ]),
  section('archives', 'From the Archives', 'Archives', [
    ['1925: The Tribune Tower Rises', 'How a design contest shaped the skyline for a century.', 'Archive Desk', d1],
    ['1979: The Blizzard That Toppled a Mayor', 'Snow, stalled trains and an upset at the polls.', 'Archive Desk', d2],
  ]),
  section('events', 'Local Events - Chicago', 'Events', [
    ['Chicago Marathon Registration Opens', 'Lottery entries close at the end of the month.', 'Events Desk', d1],
    ['Navy Pier Fireworks Return', 'Wednesday and Saturday shows run through Labor Day.', 'Events Desk', d2],
  ]),
];

export const homeQuote: Quote = {
  text: 'A city that knows itself can govern itself. Local news is how Chicago keeps that promise.',
  author: 'The Editors',
};

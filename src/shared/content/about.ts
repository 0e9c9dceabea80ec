/** The About page's words; the masthead and network name come from site configuration. */
import type { NamedText, Quote } from './types.ts';

export const aboutIntro =
  'was founded in 2025 by Chicago reporters and editors who believe every neighborhood deserves a newsroom that shows up, listens and tells the truth.';

export const aboutMission =
  'Our mission is to deliver independent, accurate and fair reporting that helps Chicagoans understand their city, hold power to account and take part in civic life. We cover the stories that shape daily life, from City Hall to the corner store.';

export const aboutQuote: Quote = {
  text: 'Journalism is a public service. We answer to our readers, and to no one else.',
  author: 'The Editors',
};

export const aboutValues: NamedText[] = [
  { title: 'Integrity', text: 'We verify before we publish, and we correct our mistakes in the open.' },
  { title: 'Independence', text: 'No owner, advertiser or official decides what we cover.' },
  { title: 'Inclusivity', text: 'We report from and for all 77 community areas of Chicago.' },
  { title: 'Innovation', text: 'We try new ways to tell stories and to reach readers where they are.' },
  { title: 'Impact', text: 'We measure success by what our reporting changes for the better.' },
];

export const aboutTeam =
  'Our newsroom brings together veteran reporters, young journalists, photographers, data specialists and editors who live in the neighborhoods they cover. We share resources and stories with our sister publications across the Midwest.';

export const aboutSupport =
  'We are reader-supported. Subscriptions and donations keep our reporting free of outside influence and open to everyone.';

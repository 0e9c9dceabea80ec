/** The Contact page's sections; addresses and numbers come from site configuration (site.ts). */
import type { SiteConfig } from '../site.ts';

export type ContactKey = keyof Pick<SiteConfig['contacts'], 'general' | 'editorial' | 'advertising' | 'subscriptions'>;

export interface ContactTopic {
  title: string;
  text: string;
  /** Subject line preset in the mailto link. */
  subject: string;
}

export interface ContactSection {
  key: ContactKey;
  title: string;
  text: string;
  /** The editorial department lists tips, corrections and opinion separately. */
  topics?: ContactTopic[];
}

export const contactIntro = 'We want to hear from you. Choose the team that can help, or use the form below.';

export const contactSections: ContactSection[] = [
  { key: 'general', title: 'General Inquiries', text: 'Questions, feedback or anything else about our publication.' },
  {
    key: 'editorial',
    title: 'Editorial Department',
    text: 'Reach our newsroom.',
    topics: [
      { title: 'News Tips', text: 'Know something we should look into? Tell us in confidence.', subject: 'News tip' },
      {
        title: 'Corrections',
        text: 'Spotted an error? Tell us the story and what needs fixing.',
        subject: 'Correction',
      },
      {
        title: 'Opinion Submissions',
        text: 'Op-eds up to 750 words and letters to the editor.',
        subject: 'Opinion submission',
      },
    ],
  },
  { key: 'advertising', title: 'Advertising', text: 'Reach Chicago readers in print, online and on air.' },
  {
    key: 'subscriptions',
    title: 'Subscriptions',
    text: 'Start, pause or change a subscription, or ask about billing.',
  },
];

/** The embedded form opens on this category (spec §2: local news and community). */
export const contactFormCategory = 'local-news-community';

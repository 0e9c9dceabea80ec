/** The Careers page: openings (spec §3), benefits, values and culture. */
import type { JobOpening, NamedText } from './types.ts';

export const careersIntro =
  'Join a newsroom that puts Chicago first. We are looking for curious, driven people who want their work to matter to their neighbors.';

export const careerValues: NamedText[] = [
  { title: 'Local Impact', text: 'Your work informs the people who live and vote in this city.' },
  { title: 'Independent Voice', text: 'Report without fear or favor, backed by editors who have your back.' },
  { title: 'Room to Grow', text: 'Mentoring, training and new beats for people who want to stretch.' },
];

export const jobOpenings: JobOpening[] = [
  {
    title: 'City Beat Reporter',
    department: 'Editorial',
    location: 'Chicago, IL',
    type: 'Full-time',
    description: 'Cover City Hall, neighborhoods and public services with daily news and deeper enterprise stories.',
  },
  {
    title: 'Culture Editor',
    department: 'Editorial',
    location: 'Chicago, IL',
    type: 'Full-time',
    description: 'Lead our arts, food and music coverage and edit a team of staff writers and freelancers.',
  },
  {
    title: 'Data Journalist',
    department: 'Digital',
    location: 'Remote (Midwest)',
    type: 'Full-time',
    description: 'Find stories in public records, build charts and tools, and help reporters work with data.',
  },
  {
    title: 'Digital Subscription Manager',
    department: 'Business',
    location: 'Chicago, IL',
    type: 'Full-time',
    description: 'Grow and keep our readers: run offers, study the funnel and improve the subscriber experience.',
  },
  {
    title: 'Social Media Editor',
    department: 'Digital',
    location: 'Remote (Midwest)',
    type: 'Full-time',
    description: 'Bring our journalism to social platforms, build community and watch for breaking news.',
  },
];

export const careerBenefits: string[] = [
  'Competitive salary',
  'Health, dental and vision insurance',
  '401(k) with company match',
  'Paid time off',
  'Parental leave',
  'Professional development',
  'Flexible work arrangements',
];

export const careersCulture =
  'We are a small, collaborative team. We argue about ledes, share credit, celebrate scoops and look after each other. We value diverse backgrounds and perspectives, because a newsroom that looks like Chicago covers Chicago better.';

export const generalApplication =
  'Don’t see a role that fits? Send us your résumé and tell us what you would bring to our newsroom.';

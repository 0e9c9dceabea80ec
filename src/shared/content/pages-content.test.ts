import { describe, expect, it } from 'vitest';
import { navSections } from '../sections-nav.ts';
import { aboutValues } from './about.ts';
import { careerBenefits, careerValues, jobOpenings } from './careers.ts';
import { contactSections } from './contact.ts';
import { homeSections, leadArticle } from './home.ts';
import { privacyPolicy } from './privacy.ts';
import { termsOfService } from './terms.ts';

describe('home content', () => {
  it('has the 16 sections of the spec, in order, each with a few article cards', () => {
    expect(homeSections.map((s) => s.title)).toEqual([
      'Local News - Chicago',
      'National News',
      'World News',
      'Politics & Government',
      'Business & Finance',
      'Technology & Innovation',
      'Automotive & Energy',
      'Real Estate & Housing',
      'Health & Wellness',
      'Sports',
      'Arts & Culture',
      'Food & Dining',
      'Lifestyle & Fashion',
      'Opinion / Editorials',
      'From the Archives',
      'Local Events - Chicago',
    ]);
    for (const s of homeSections) {
      expect(s.articles.length).toBeGreaterThanOrEqual(2);
      for (const a of s.articles) {
        expect(a.title && a.excerpt && a.author && a.date && a.category).toBeTruthy();
        expect(a.featured ?? false).toBe(false);
      }
    }
  });

  it('gives every header anchor a section, and section ids are unique', () => {
    const ids = homeSections.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { anchor } of navSections) expect(ids).toContain(anchor);
  });

  it('has a featured lead article with a photo credit', () => {
    expect(leadArticle.featured).toBe(true);
    expect(leadArticle.photoCredit).toMatch(/\S/);
  });

  it('uses only local images (or none)', () => {
    for (const a of [leadArticle, ...homeSections.flatMap((s) => s.articles)]) {
      if (a.imageUrl !== null) expect(a.imageUrl).toMatch(/^\/images\/[\w-]+\.svg$/);
    }
  });
});

describe('about, contact and careers content', () => {
  it('about lists the five values', () => {
    expect(aboutValues.map((v) => v.title)).toEqual([
      'Integrity',
      'Independence',
      'Inclusivity',
      'Innovation',
      'Impact',
    ]);
  });

  it('contact has general, editorial (tips, corrections, opinion), advertising and subscriptions', () => {
    expect(contactSections.map((s) => s.key)).toEqual(['general', 'editorial', 'advertising', 'subscriptions']);
    const editorial = contactSections.find((s) => s.key === 'editorial');
    expect(editorial?.topics?.map((t) => t.title)).toEqual(['News Tips', 'Corrections', 'Opinion Submissions']);
  });

  it('careers has the five openings with the spec’s departments, locations and type', () => {
    expect(jobOpenings.map((j) => j.title)).toEqual([
      'City Beat Reporter',
      'Culture Editor',
      'Data Journalist',
      'Digital Subscription Manager',
      'Social Media Editor',
    ]);
    for (const j of jobOpenings) {
      expect(['Editorial', 'Business', 'Digital']).toContain(j.department);
      expect(['Chicago, IL', 'Remote (Midwest)']).toContain(j.location);
      expect(j.type).toBe('Full-time');
      expect(j.description.length).toBeGreaterThan(20);
    }
    expect(new Set(jobOpenings.map((j) => j.department))).toEqual(new Set(['Editorial', 'Business', 'Digital']));
  });

  it('careers has seven benefits and three value cards', () => {
    expect(careerBenefits).toHaveLength(7);
    for (const word of ['salary', 'dental', '401(k)', 'time off', 'Parental', 'development', 'Flexible']) {
      expect(careerBenefits.some((b) => b.includes(word))).toBe(true);
    }
    expect(careerValues).toHaveLength(3);
  });
});

describe('legal content', () => {
  it('privacy: ten sections, updated April 17, 2025, children under 13, a contact section', () => {
    expect(privacyPolicy.lastUpdated).toBe('April 17, 2025');
    expect(privacyPolicy.sections.map((s) => s.title)).toEqual([
      'Information We Collect',
      'How We Use Your Information',
      'Information Sharing',
      'Cookies and Tracking Technologies',
      'Your Choices',
      'Data Security',
      'International Data Transfers',
      'Children’s Privacy',
      'Changes to This Policy',
      'Contact Us',
    ]);
    expect(privacyPolicy.sections[7]?.paragraphs.join(' ')).toContain('under 13');
    expect(privacyPolicy.sections.at(-1)?.contact).toBeTruthy();
  });

  it('terms: eleven sections with the details the spec names', () => {
    const s = termsOfService.sections;
    expect(termsOfService.lastUpdated).toBe('April 17, 2025');
    expect(s.map((x) => x.title)).toEqual([
      'Acceptance of Terms',
      'Description of Service',
      'User Accounts',
      'Subscription and Payments',
      'User Conduct',
      'Intellectual Property',
      'User Content',
      'Disclaimers and Limitations',
      'Governing Law',
      'Changes to Terms',
      'Contact Information',
    ]);
    const text = (i: number) => [...s[i]!.paragraphs, ...(s[i]!.items ?? [])].join(' ');
    expect(text(1)).toMatch(/without notice/);
    expect(s[2]?.items).toHaveLength(3);
    expect(text(3)).toMatch(/paid subscription.*notice/s);
    expect(s[4]?.items).toHaveLength(6);
    expect(text(6)).toContain('non-exclusive, royalty-free, perpetual, irrevocable, worldwide license');
    expect(text(7)).toMatch(/as is.*indirect/s);
    expect(text(8)).toContain('State of Illinois');
    expect(text(9)).toMatch(/continued use/);
    expect(s[10]?.contact).toBeTruthy();
  });
});

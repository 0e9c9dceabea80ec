/**
 * What each page's server HTML carries (spec §2–§5, §8, §9): every heading, date,
 * list item, link and frame, with addresses from configuration. Browser tests
 * check layout and behaviour; these check the words and attributes.
 */
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { aboutValues } from '../src/shared/content/about.ts';
import { careerBenefits, careerValues, jobOpenings } from '../src/shared/content/careers.ts';
import { homeSections, leadArticle } from '../src/shared/content/home.ts';
import { privacyPolicy } from '../src/shared/content/privacy.ts';
import { termsAdBreaks, termsOfService } from '../src/shared/content/terms.ts';
import { navSections } from '../src/shared/sections-nav.ts';
import { testApp } from './support/test-app.ts';
import { BROWSER_UA, bodyOf } from './support/http.ts';

const env = {
  CONTACT_GENERAL_EMAIL: 'hello@ledger.test',
  CONTACT_GENERAL_PHONES: '(312) 555-0199',
  CONTACT_EDITORIAL_EMAIL: 'tips@ledger.test',
  CONTACT_EDITORIAL_PHONES: '(312) 555-0188; +1 312 555 0177',
  CONTACT_ADVERTISING_EMAIL: 'ads@ledger.test',
  CONTACT_SUBSCRIPTIONS_EMAIL: 'subs@ledger.test',
  CONTACT_LEGAL_EMAIL: 'counsel@ledger.test',
  DONATION_URL: 'https://give.ledger.test/now',
  IMAGEBOARD_URL: 'https://board.ledger.test/feed?city=chi',
  CONTACT_FORM_URL: 'https://forms.ledger.test/embed/123',
  CONTACT_FORM_SCRIPT_URL: 'https://forms.ledger.test/embed.js',
  AD_SCRIPT_URL: 'https://adnet.ledger.test/tag.js',
  SPONSOR_BUDDHATV_URL: 'https://buddha.ledger.test',
  SPONSOR_DUNAMIS_URL: 'https://dunamis.ledger.test',
  SPONSOR_GOOGLE_URL: 'https://search.ledger.test',
};
const app = testApp(env);

/** React escapes text like this and separates adjacent text with <!-- -->, which we drop. */
const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#x27;');

async function html(path: string, status = 200): Promise<string> {
  const res = await request(app).get(path).set('User-Agent', BROWSER_UA);
  expect(res.status).toBe(status);
  return res.text.replace(/<!-- -->/g, '');
}

const tags = (page: string, name: string) => page.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? [];
const count = (page: string, needle: string) => page.split(needle).length - 1;

describe('every page', () => {
  it.each(['/', '/about', '/contact', '/careers', '/privacy', '/terms', '/no-such-page'])(
    '%s has no inline script (the CSP forbids it) and no third-party script tag in its HTML',
    async (path) => {
      const page = await html(path, path === '/no-such-page' ? 404 : 200);
      const scripts = tags(page, 'script');
      expect(scripts.length).toBeGreaterThan(0);
      // Only our own modules and non-executable JSON; ad and form scripts are added by effects.
      for (const tag of scripts) expect(tag).toMatch(/\bsrc="\/assets\/|type="application\/(ld\+)?json"/);
    },
  );
});

describe('home', () => {
  it('leads with the featured article and its photo credit', async () => {
    const page = await html('/');
    expect(page).toContain('class="card card--featured"');
    expect(page).toContain(`<h2 class="card__title">${esc(leadArticle.title)}</h2>`);
    expect(page).toContain(`<figcaption class="card__credit">${esc(leadArticle.photoCredit)}</figcaption>`);
    // The featured image is eager (it is the largest paint); its box is sized before it loads.
    expect(page).toMatch(/<img src="\/images\/lakefront\.svg" alt="" width="640" height="360" loading="eager"/);
  });

  it('has the 16 sections in spec order, the header anchors land on them, each with its cards', async () => {
    const page = await html('/');
    const ids = [...page.matchAll(/<section id="([\w-]+)" class="home-section"/g)].map((m) => m[1]);
    expect(ids).toEqual(homeSections.map((s) => s.id));
    for (const { anchor } of navSections) expect(ids).toContain(anchor);
    for (const s of homeSections) {
      expect(page).toContain(`<h2 id="${s.id}-title" class="home-section__title">${esc(s.title)}</h2>`);
      for (const a of s.articles) {
        expect(page).toContain(`<h3 class="card__title">${esc(a.title)}</h3>`);
        expect(page).toContain(`By ${esc(a.author)} · ${a.date}`);
      }
    }
    // Section order: every title appears after the previous one.
    const positions = homeSections.map((s) => page.indexOf(`>${esc(s.title)}</h2>`));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it('follows the spec order: lead, search ad and ad row, sections, more ads, quote, imageboard, sponsor, support', async () => {
    const page = bodyOf(await html('/'));
    const at = (needle: string) => {
      const i = page.indexOf(needle);
      expect(i, needle).toBeGreaterThan(-1);
      return i;
    };
    const order = [
      at('card--featured'),
      at('ad-slot--google'),
      at('class="ad-row"'),
      at('class="section-grid"'),
      page.indexOf('class="ad-row"', at('id="events"')),
      at('class="pull-quote"'),
      at('class="imageboard__frame"'),
      at('ad-slot--h600'),
      at('Support Independent Journalism'),
    ];
    expect(order.every((v, i) => v > -1 && (i === 0 || v > order[i - 1]!))).toBe(true);
  });

  it('shows ad slots with labels, sponsor links from configuration and banner ids', async () => {
    const page = await html('/');
    expect(page).toContain(`href="${env.SPONSOR_GOOGLE_URL}" target="_blank" rel="noopener noreferrer sponsored"`);
    expect(page).toContain(`href="${env.SPONSOR_BUDDHATV_URL}" target="_blank" rel="noopener noreferrer sponsored"`);
    expect(page).toContain(`href="${env.SPONSOR_DUNAMIS_URL}" target="_blank" rel="noopener noreferrer sponsored"`);
    expect(page).toContain('<a class="ad-slot__link" href="#">Advertise with us</a>');
    expect(count(page, 'class="ad-slot__label"')).toBeGreaterThanOrEqual(7);
    for (const id of [6079445, 1452360, 6079446, 1452361, 6079448]) {
      expect(page).toContain(`<div class="ad-script" data-banner-id="${id}"></div>`);
    }
  });

  it("has the pull quote with attribution, the imageboard's note, link and reserved box, and the support panel", async () => {
    const page = await html('/');
    expect(page).toMatch(
      /<figure class="pull-quote"><blockquote><p>[^<]+<\/p><\/blockquote><figcaption>— The Editors<\/figcaption>/,
    );
    // The 1600 px frame itself arrives as it nears the screen (test/browser/pages.test.ts).
    expect(tags(page, 'iframe')).toEqual([]);
    expect(page).toContain(
      `<a href="${esc(env.IMAGEBOARD_URL)}">open the News Imageboard</a>.</p><div class="imageboard__frame"></div>`,
    );
    expect(page).toContain('>Subscribe for $1/week</button>');
    expect(page).toContain(
      `<a class="button button--ghost" href="${env.DONATION_URL}" target="_blank" rel="noopener noreferrer">Make a Donation`,
    );
  });
});

describe('about', () => {
  it('has the heading, the 2025 founding, mission, quote, five values, team and support', async () => {
    const page = await html('/about');
    expect(page).toContain('<h1>About Us</h1>');
    expect(page).toMatch(/founded in 2025/);
    for (const h of ['Our Mission', 'Our Values', 'Our Team', 'Support Our Work']) expect(page).toContain(`>${h}</h2>`);
    expect(page).toContain('class="pull-quote"');
    for (const v of aboutValues) expect(page).toContain(`<strong>${v.title}:</strong>`);
    expect(page).toContain('>Subscribe Today</button>');
    expect(page).toContain(`href="${env.DONATION_URL}" target="_blank" rel="noopener noreferrer">Make a Donation`);
  });
});

describe('contact', () => {
  it('links every channel by mailto and tel from configuration', async () => {
    const page = await html('/contact');
    for (const h of ['General Inquiries', 'Editorial Department', 'Advertising', 'Subscriptions']) {
      expect(page).toContain(`>${h}</h2>`);
    }
    for (const h of ['News Tips', 'Corrections', 'Opinion Submissions']) expect(page).toContain(`<h3>${h}</h3>`);
    for (const email of ['hello@ledger.test', 'tips@ledger.test', 'ads@ledger.test', 'subs@ledger.test']) {
      expect(page).toContain(`<a href="mailto:${email}">${email}</a>`);
    }
    expect(page).toContain('href="mailto:tips@ledger.test?subject=News%20tip"');
    expect(page).toContain('<a href="tel:3125550199">(312) 555-0199</a>');
    expect(page).toContain('<a href="tel:+13125550177">+1 312 555 0177</a>');
  });

  it("reserves the form frame's box and links the form (local news and community) until the frame loads", async () => {
    const page = await html('/contact');
    // The frame itself arrives as the form nears the screen (test/browser/pages.test.ts).
    expect(tags(page, 'iframe')).toEqual([]);
    expect(page).toContain(
      '<div class="contact-form__box"><p class="contact-form__fallback">' +
        '<a href="https://forms.ledger.test/embed/123?category=local-news-community">Open the contact form</a></p></div>',
    );
  });
});

describe('careers', () => {
  it('shows the intro, three value cards, five openings with their facts and Apply Now each', async () => {
    const page = await html('/careers');
    expect(page).toContain('<h1>Careers</h1>');
    for (const v of careerValues) expect(page).toContain(`<h3>${esc(v.title)}</h3>`);
    for (const [i, job] of jobOpenings.entries()) {
      expect(page).toContain(`<h3 id="job-${i}">${esc(job.title)}</h3>`);
      expect(page).toContain(
        `<span>${job.department}</span> · <span>${esc(job.location)}</span> · <span>${job.type}</span>`,
      );
      expect(page).toContain(esc(job.description));
    }
    expect(count(page, '>Apply Now</button>')).toBe(5);
  });

  it('lists the seven benefits, the culture text and a General Application button', async () => {
    const page = await html('/careers');
    for (const b of careerBenefits) expect(page).toContain(`<li>${esc(b)}</li>`);
    expect(page).toContain('>Our Culture</h2>');
    expect(page).toContain('>General Application</button>');
  });
});

describe('legal pages', () => {
  it('privacy: updated April 17, 2025, ten numbered sections, the legal contact', async () => {
    const page = await html('/privacy');
    expect(page).toContain('<h1>Privacy Policy</h1>');
    expect(page).toContain('Last updated: April 17, 2025');
    const headings = [...page.matchAll(/<h2 id="s\d+">([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(privacyPolicy.sections.map((s, i) => `${i + 1}. ${esc(s.title)}`));
    expect(page).toContain('under 13');
    expect(page).toContain('<a href="mailto:counsel@ledger.test">counsel@ledger.test</a>');
    expect(page).not.toContain('class="ad-row"');
  });

  it('terms: updated April 17, 2025, eleven numbered sections, Illinois, the legal contact', async () => {
    const page = await html('/terms');
    expect(page).toContain('<h1>Terms of Service</h1>');
    expect(page).toContain('Last updated: April 17, 2025');
    const headings = [...page.matchAll(/<h2 id="s\d+">([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(termsOfService.sections.map((s, i) => `${i + 1}. ${esc(s.title)}`));
    expect(page).toContain('State of Illinois');
    expect(page).toContain('non-exclusive, royalty-free, perpetual, irrevocable, worldwide license');
    for (const item of termsOfService.sections[4]!.items!) expect(page).toContain(`<li>${esc(item)}</li>`);
    expect(page).toContain('<a href="mailto:counsel@ledger.test">counsel@ledger.test</a>');
  });

  it('terms: ad rows sit between sections: banner, then desktop-only house widget and banner', async () => {
    const page = await html('/terms');
    const rows = page.match(/<div class="ad-row">.*?(?=<section)/g) ?? [];
    expect(rows).toHaveLength(termsAdBreaks.size);
    for (const [n] of termsAdBreaks) {
      // The row follows section n and precedes section n + 1.
      const rowAt = page.indexOf('class="ad-row"', page.indexOf(`<h2 id="s${n}">`));
      expect(rowAt).toBeLessThan(page.indexOf(`<h2 id="s${n + 1}">`));
    }
    for (const row of rows) {
      const items = [...row.matchAll(/<div class="(ad-slot [^"]*|ad-row__widget [^"]*)"/g)].map((m) => m[1]!);
      expect(items).toHaveLength(3);
      expect(items[0]).toMatch(/^ad-slot /);
      expect(items[0]).not.toContain('ad-row__item--desktop');
      expect(items[1]).toMatch(/^ad-row__widget .*ad-row__item--desktop/);
      expect(items[2]).toMatch(/^ad-slot .*ad-row__item--desktop/);
      expect(row).toContain('href="/radio"');
    }
  });
});

describe('not-found page', () => {
  it('keeps 404, the message and the way home, without header, and adds ad slots', async () => {
    const page = bodyOf(await html('/no/such/page', 404));
    expect(page).toContain('<p class="not-found__code">404</p>');
    expect(page).toContain('Oops! Page not found');
    expect(page).toMatch(/<a class="button button--primary" href="\/"[^>]*>Return to Home<\/a>/);
    expect(page).not.toContain('site-header');
    expect(count(page, 'class="ad-slot ')).toBe(3);
  });
});

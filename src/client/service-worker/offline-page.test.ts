import { describe, expect, it } from 'vitest';
import { mainHeading, OFFLINE_PAGE_CSP, OFFLINE_SCRIPT_PATH, offlinePage } from './offline-page.ts';

const site = { masthead: 'The <Ledger>', url: '/careers?x="1"' };

describe('offlinePage', () => {
  it('lists the pages kept, as links, with their headings escaped', () => {
    const html = offlinePage(
      [
        { path: '/', heading: 'Front page' },
        { path: '/about', heading: 'About <us> & "them"' },
      ],
      site,
    );
    expect(html).toContain('<h1>You are offline</h1>');
    expect(html).toContain('<li><a href="/">Front page</a></li>');
    expect(html).toContain('<li><a href="/about">About &#60;us&#62; &#38; &#34;them&#34;</a></li>');
  });

  it('carries the masthead, a Try again of the same URL, and its one script external', () => {
    const html = offlinePage([], site);
    expect(html).toContain('<a class="masthead" href="/">The &#60;Ledger&#62;</a>');
    expect(html).toContain('<a class="retry" href="/careers?x=&#34;1&#34;">Try again</a>');
    const scripts = [...html.matchAll(/<script\b([^>]*)>(.*?)<\/script>/g)];
    expect(scripts.map((m) => [m[1], m[2]])).toEqual([[` src="${OFFLINE_SCRIPT_PATH}" defer`, '']]);
    expect(OFFLINE_PAGE_CSP).toContain("script-src 'self'");
    expect(OFFLINE_PAGE_CSP).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('says so when no page is kept', () => {
    const html = offlinePage([], site);
    expect(html).toContain('No page is saved on this device yet.');
    expect(html).not.toContain('<ul>');
  });
});

describe('mainHeading', () => {
  it('reads the first h1 as text: tags dropped, references decoded', () => {
    expect(
      mainHeading('<main><h1 tabindex="-1" class="x">Today&#x27;s <em>front</em> &amp; page</h1><h1>Other</h1>'),
    ).toBe("Today's front & page");
    expect(mainHeading('<h1>A &#8217; B &#99999999; C</h1>')).toBe('A \u2019 B \ufffd C');
  });

  it('is undefined for a page without one, or an empty one', () => {
    expect(mainHeading('<main><h2>Not a title</h2></main>')).toBeUndefined();
    expect(mainHeading('<h1> <span></span> </h1>')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { offlinePage } from './offline-page.ts';

describe('offlinePage', () => {
  it('lists the pages kept, as links, with their titles escaped', () => {
    const html = offlinePage([
      { path: '/', title: 'Front page' },
      { path: '/about', title: 'About <us> & "them"' },
    ]);
    expect(html).toContain('<h1>You are offline</h1>');
    expect(html).toContain('<li><a href="/">Front page</a></li>');
    expect(html).toContain('<li><a href="/about">About &#60;us&#62; &#38; &#34;them&#34;</a></li>');
    expect(html).not.toMatch(/<script/i);
  });

  it('says so when no page is kept', () => {
    const html = offlinePage([]);
    expect(html).toContain('No page is saved on this device yet.');
    expect(html).not.toContain('<ul>');
  });
});

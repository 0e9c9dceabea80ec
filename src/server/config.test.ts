import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { ConfigError } from './config-error.ts';
import { defaultSite } from '../shared/site.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.trustProxy).toBe(false);
    expect(config.site.masthead).toBe(defaultSite.masthead);
    expect(config.site.url).toBe('http://localhost:3000');
    expect(config.sharedCache).toEqual({ sMaxAge: 60, staleWhileRevalidate: 60, staleIfError: 86_400 });
  });

  it('reads site identity and trust settings', () => {
    const config = loadConfig({
      PORT: '8080',
      TRUST_PROXY: '127.0.0.1, 10.0.0.0/8',
      SITE_URL: 'https://news.example.com/',
      SITE_MASTHEAD: 'The Test Gazette',
      SITE_SISTER_SITES: 'One|https://one.example, Two|https://two.example',
      CONTACT_EDITORIAL_EMAIL: 'tips@test.example',
      CONTACT_EDITORIAL_PHONES: '(312) 555-0199; +1 312 555 0198',
    });
    expect(config.port).toBe(8080);
    expect(config.trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(config.site.url).toBe('https://news.example.com');
    expect(config.site.masthead).toBe('The Test Gazette');
    expect(config.site.sisterSites).toEqual([
      { name: 'One', url: 'https://one.example' },
      { name: 'Two', url: 'https://two.example' },
    ]);
    expect(config.site.contacts.editorial).toEqual({
      email: 'tips@test.example',
      phones: ['(312) 555-0199', '+1 312 555 0198'],
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['TRUST_PROXY', 'maybe'],
    ['SITE_URL', 'ftp://example.com'],
    ['SITE_SISTER_SITES', 'just a name'],
    ['CONTACT_GENERAL_EMAIL', 'not-an-email'],
    ['CONTACT_LEGAL_PHONES', 'call us'],
    ['RENDER_TIMEOUT_MS', '0'],
    ['LOG_LEVEL', 'loud'],
    ['AD_SCRIPT_URL', 'javascript:alert(1)'],
    ['PAGE_S_MAXAGE', '-1'],
    ['PAGE_STALE_WHILE_REVALIDATE', '-30'],
    ['PAGE_STALE_IF_ERROR', '1.5'],
  ])('rejects %s=%s naming the variable', (variable, value) => {
    let thrown: unknown;
    try {
      loadConfig({ [variable]: value });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as ConfigError).variable).toBe(variable);
    expect((thrown as ConfigError).message).toContain(variable);
  });
});

import { describe, expect, it } from 'vitest';
import { type Config, loadConfig } from './config.ts';
import { ConfigError } from './config-error.ts';
import { defaultSite } from '../shared/site.ts';

/** Whether the configuration's compiled TRUST_PROXY trusts this address at this hop. */
function trusted(config: Config, address: string, hop = 0): boolean {
  const trust = config.trustProxy;
  return trust !== false && trust(address, hop);
}

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.host).toBe('127.0.0.1');
    expect(config.trustProxy).toBe(false);
    expect(config.site.masthead).toBe(defaultSite.masthead);
    expect(config.site.url).toBe('http://localhost:3000');
    expect(config.sharedCache).toEqual({ sMaxAge: 60, staleWhileRevalidate: 60, staleIfError: 86_400 });
    expect(config.timeouts).toEqual({
      renderMs: 5_000,
      requestMs: 30_000,
      headersMs: 10_000,
      keepAliveMs: 65_000,
      sendMs: 60_000,
      shutdownMs: 8_000,
    });
    expect(config.site).toEqual(defaultSite);
    expect(config.stream.allowedPorts).toEqual([8076]);
    expect(config.vitalsSampleRate).toBe(1);
    expect(config.rewind).toEqual({
      dir: 'var/rewind',
      windowS: 7_200,
      segmentS: 6,
      maxBytes: 256 * 1024 * 1024,
      minFreeBytes: 256 * 1024 * 1024,
      logPort: null,
    });
  });

  it('turns rewind off, and refuses a window shorter than two segments or a bad size', () => {
    expect(loadConfig({ REWIND: 'off' }).rewind).toBeNull();
    expect(loadConfig({ REWIND_WINDOW_S: '60', REWIND_SEGMENT_S: '2', REWIND_DIR: '/tmp/w' }).rewind).toMatchObject({
      dir: '/tmp/w',
      windowS: 60,
      segmentS: 2,
    });
    expect(() => loadConfig({ REWIND_WINDOW_S: '10', REWIND_SEGMENT_S: '6' })).toThrow(
      'Invalid configuration: REWIND_WINDOW_S must hold at least two segments (twice REWIND_SEGMENT_S) (got "10")',
    );
    expect(() => loadConfig({ REWIND: 'yes' })).toThrow(/^Invalid configuration: REWIND /);
    expect(() => loadConfig({ REWIND_MAX_BYTES: '100' })).toThrow(/REWIND_MAX_BYTES must be at least 1048576/);
    expect(() => loadConfig({ REWIND_SEGMENT_S: '0' })).toThrow(/REWIND_SEGMENT_S must be at least 1/);
  });

  it.each([
    ['0', 0],
    ['0.25', 0.25],
    ['.5', 0.5],
    ['1', 1],
    ['1.0', 1],
  ])('reads VITALS_SAMPLE_RATE=%s as %d', (value, rate) => {
    expect(loadConfig({ VITALS_SAMPLE_RATE: value }).vitalsSampleRate).toBe(rate);
  });

  it('compiles TRUST_PROXY once into the trust function Express and every lane use', () => {
    const trusts = (value: string, address: string, hop = 0) =>
      trusted(loadConfig({ TRUST_PROXY: value }), address, hop);
    for (const off of ['false', '0', '', ' ']) expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toBe(false);
    expect(trusts('true', '203.0.113.9', 5)).toBe(true);
    expect([0, 1, 2].map((hop) => trusts('2', '203.0.113.9', hop))).toEqual([true, true, false]);
    expect(trusts('loopback', '127.0.0.1')).toBe(true);
    expect(trusts('LOOPBACK', '::1')).toBe(true);
    expect(trusts('loopback', '10.0.0.1')).toBe(false);
    expect(trusts('uniquelocal, 192.0.2.0/24', '192.0.2.77')).toBe(true);
    expect(trusts('10.0.0.0/255.0.0.0', '10.9.8.7')).toBe(true);
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
    expect(trusted(config, '10.1.2.3')).toBe(true);
    expect(trusted(config, '203.0.113.9')).toBe(false);
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
});

describe("loadConfig: nginx's log of the rewind window", () => {
  it('is received on a port of 1024 or more, and on none unless told', () => {
    expect(loadConfig({}).rewind?.logPort).toBeNull();
    expect(loadConfig({ REWIND_LOG_PORT: '5140' }).rewind?.logPort).toBe(5140);
    expect(() => loadConfig({ REWIND_LOG_PORT: '514' })).toThrow(/^Invalid configuration: REWIND_LOG_PORT /);
    expect(() => loadConfig({ REWIND_LOG_PORT: 'syslog' })).toThrow(/^Invalid configuration: REWIND_LOG_PORT /);
  });
});

describe('loadConfig refuses a bad value', () => {
  it.each([
    ['PORT', 'abc', 'Invalid configuration: PORT must be a whole number from 1 to 65535 (got "abc")'],
    [
      'TRUST_PROXY',
      '10.0.0.0/40',
      'Invalid configuration: TRUST_PROXY must be true/false, a hop count, loopback/linklocal/uniquelocal, or IP addresses or subnets (got "10.0.0.0/40")',
    ],
    [
      'SITE_URL',
      'news.example.com',
      'Invalid configuration: SITE_URL must be an absolute http(s) URL (got "news.example.com")',
    ],
    [
      'CONTACT_CAREERS_EMAIL',
      'jobs at example',
      'Invalid configuration: CONTACT_CAREERS_EMAIL must be an email address (got "jobs at example")',
    ],
  ])('says what is wrong with %s=%s', (variable, value, message) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(message);
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
    ['TRUST_PROXY', 'loopback, maybe'],
    ['DONATION_URL', 'http:/half'],
    ['BOOK_COVER_ORIGIN', 'covers.example'],
    ['CONTACT_ADVERTISING_PHONES', ';'],
    ['METRICS_PORT', '0'],
    ['METRICS_PORT', '3000'],
    ['VITALS_SAMPLE_RATE', '1.5'],
    ['VITALS_SAMPLE_RATE', '-0.1'],
    ['VITALS_SAMPLE_RATE', '50%'],
    ['VITALS_SAMPLE_RATE', '1e-1'],
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

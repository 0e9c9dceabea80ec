import { describe, expect, it } from 'vitest';
import { clientKey } from './client-key.ts';

describe('clientKey', () => {
  it('keeps an IPv4 address whole, also when mapped into IPv6', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts an IPv4-mapped address written in hex as that IPv4 client', () => {
    expect(clientKey('::ffff:c633:6407')).toBe('198.51.100.7');
    expect(clientKey('::FFFF:C633:6407')).toBe('198.51.100.7');
    expect(clientKey('0:0:0:0:0:ffff:c633:6407')).toBe('198.51.100.7');
    expect(clientKey('0000::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientKey('::ffff:0:0')).toBe('0.0.0.0');
    // Not mapped: another /96, or ffff elsewhere.
    expect(clientKey('::fffe:c633:6407')).toBe('0:0:0:0::/64');
    expect(clientKey('ffff::c633:6407')).toBe('ffff:0:0:0::/64');
  });

  it('groups IPv6 addresses by their /64, however they are written', () => {
    const key = clientKey('2001:db8:0:1::1');
    expect(key).toBe('2001:db8:0:1::/64');
    expect(clientKey('2001:0db8:0000:0001:ffff:ffff:ffff:ffff')).toBe(key);
    expect(clientKey('2001:DB8:0:1:a:b:c:d')).toBe(key);
    expect(clientKey('2001:db8:0:2::1')).not.toBe(key);
    expect(clientKey('2001:db8::')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('leaves anything that is not an address as it is', () => {
    expect(clientKey('unknown')).toBe('unknown');
  });
});

import type { IncomingMessage } from 'node:http';
import proxyaddr from 'proxy-addr';
import { describe, expect, it } from 'vitest';
import { clientIpOf, REMEMBERED_MAX } from './client-ip.ts';
import type { ProxyTrust } from './config.ts';

const request = (peer: string, forwarded?: string) =>
  ({
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    socket: { remoteAddress: peer },
    connection: { remoteAddress: peer },
  }) as unknown as IncomingMessage;

const loopback = proxyaddr.compile(['loopback']) as ProxyTrust;
const twoHops: ProxyTrust = (_address, hop) => hop < 2;

describe('clientIpOf', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    const ip = clientIpOf(false);
    expect(ip(request('198.51.100.4', '203.0.113.9'))).toBe('198.51.100.4');
  });

  // Each pair twice: the second answer is the remembered one.
  const cases: Array<[string, ProxyTrust, string, string | undefined]> = [
    ['a trusted peer', loopback, '127.0.0.1', '203.0.113.9'],
    ['an untrusted peer sending the same header', loopback, '198.51.100.4', '203.0.113.9'],
    ['a chain through a trusted proxy', loopback, '127.0.0.1', '203.0.113.9, 127.0.0.2'],
    ['a chain with an untrusted hop', loopback, '127.0.0.1', '203.0.113.9, 198.51.100.7'],
    ['no header', loopback, '127.0.0.1', undefined],
    ['an IPv6 peer', loopback, '::1', '2001:db8::5'],
    ['a hop count', twoHops, '10.0.0.1', '203.0.113.1, 203.0.113.2, 203.0.113.3'],
    ['a header that is not an address', loopback, '127.0.0.1', 'unknown, nonsense'],
  ];
  it.each(cases)('answers as proxy-addr for %s, twice', (_name, trust, peer, forwarded) => {
    const ip = clientIpOf(trust);
    const expected = proxyaddr(request(peer, forwarded), trust);
    expect(ip(request(peer, forwarded))).toBe(expected);
    expect(ip(request(peer, forwarded))).toBe(expected);
  });

  it('keeps peers apart: the same header from a trusted and an untrusted peer', () => {
    const ip = clientIpOf(loopback);
    expect(ip(request('127.0.0.1', '203.0.113.9'))).toBe('203.0.113.9');
    expect(ip(request('198.51.100.4', '203.0.113.9'))).toBe('198.51.100.4');
    expect(ip(request('127.0.0.1', '203.0.113.9'))).toBe('203.0.113.9');
  });

  it('forgets what it remembered once full: its memory stays bounded', () => {
    let asked = 0;
    const counting: ProxyTrust = (address, hop) => {
      asked++;
      return loopback(address, hop);
    };
    const ip = clientIpOf(counting);
    ip(request('127.0.0.1', '203.0.113.9'));
    const first = asked;
    ip(request('127.0.0.1', '203.0.113.9'));
    expect(asked).toBe(first);
    for (let i = 0; i < REMEMBERED_MAX; i++) ip(request('127.0.0.1', `198.51.${i >> 8}.${i & 255}`));
    const before = asked;
    ip(request('127.0.0.1', '203.0.113.9'));
    expect(asked).toBeGreaterThan(before);
  });

  it('stays right past its bound (invented headers)', () => {
    const ip = clientIpOf(loopback);
    for (let i = 0; i < REMEMBERED_MAX * 2 + 3; i++) {
      const forwarded = `203.0.${(i >> 8) & 255}.${i & 255}`;
      expect(ip(request('127.0.0.1', forwarded))).toBe(forwarded);
    }
    expect(ip(request('198.51.100.4', '203.0.0.1'))).toBe('198.51.100.4');
  });
});

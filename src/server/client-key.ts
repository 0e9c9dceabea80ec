/**
 * Who a client is, for per-client caps (the stream's listeners, the now-playing push). An IPv4
 * address is one client; an IPv6 host is given a whole /64 (2^64 addresses, and nginx passes each
 * as it comes), so IPv6 clients are grouped by their /64 prefix.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, '::' expanded (an embedded IPv4 tail counts as two). */
function ipv6Groups(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const part = (text: string) => (text ? text.split(':') : []);
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  const groups = (list: string[]) => list.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const missing = 8 - groups(left) - groups(right);
  return [...left, ...Array<string>(Math.max(0, missing)).fill('0'), ...right];
}

/**
 * The IPv4 address an IPv4-mapped IPv6 address (::ffff:0:0/96) stands for, however it is written:
 * `::ffff:198.51.100.7`, `::ffff:c633:6407`, `0:0:0:0:0:FFFF:c633:6407` are one client.
 */
function mappedIpv4(groups: string[]): string | undefined {
  const dotted = groups.at(-1)!.includes('.') ? groups.at(-1)! : undefined;
  const words = groups.slice(0, 6).map((g) => Number.parseInt(g, 16));
  if (words.slice(0, 5).some((w) => w !== 0) || words[5] !== 0xffff) return undefined;
  if (dotted) return isIPv4(dotted) ? dotted : undefined;
  const [high, low] = groups.slice(6).map((g) => Number.parseInt(g, 16)) as [number, number];
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The key per-client caps count by: the IPv4 address, or an IPv6 address's /64 ("2001:db8:0:1::/64"). */
export function clientKey(address: string): string {
  const bare = address.split('%')[0]!; // a zone index (fe80::1%eth0) names an interface, not a host
  if (!isIPv6(bare)) return address;
  const groups = ipv6Groups(bare.toLowerCase());
  const mapped = mappedIpv4(groups);
  if (mapped) return mapped;
  const prefix = groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/64`;
}

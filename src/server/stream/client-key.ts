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

/** The key per-client caps count by: the IPv4 address, or an IPv6 address's /64 ("2001:db8:0:1::/64"). */
export function clientKey(address: string): string {
  const bare = address.split('%')[0]!; // a zone index (fe80::1%eth0) names an interface, not a host
  if (!isIPv6(bare)) return address;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  const prefix = ipv6Groups(bare.toLowerCase())
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''));
  return `${prefix.join(':')}::/64`;
}

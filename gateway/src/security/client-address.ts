import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (zone id dropped; an embedded IPv4 tail split in two), or null. */
function ipv6Groups(address: string): number[] | null {
  const bare = address.split('%', 1)[0];
  if (!isIPv6(bare)) return null;
  let text = bare.toLowerCase();
  // ::ffff:192.0.2.1 and friends: the dotted tail is two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  if (tail === undefined) return left;
  const right = parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The key a per-address rate limit counts: an IPv4 address as it is (an IPv4-mapped IPv6 address
 * too), and for IPv6 its /64 network. A single IPv6 subscriber is usually given a whole /64 (often
 * more), so counting each address would hand one client 2^64 fresh budgets.
 */
export function addressKey(ip: string): string {
  if (isIPv4(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (!groups || groups.length !== 8) return ip;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

import { isIPv4, isIPv6 } from 'node:net';

/** The IPv6 prefix length clients are keyed on unless configured (RATE_LIMIT_IPV6_PREFIX). */
export const DEFAULT_IPV6_PREFIX = 64;

/**
 * The key every per-client limit counts a client address under. An ISP hands an IPv6 customer a whole
 * /64 (or more), so each of its addresses is the same client: IPv6 addresses are keyed on their first
 * `ipv6Prefix` bits, written as the network (`2001:db8:1:2::/64`). An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, what a dual-stack socket reports for an IPv4 peer) is its IPv4 address, keyed
 * as itself; an IPv4 address is keyed as itself. Anything else (no socket in tests: `local`) is kept.
 */
export function clientKeyOf(address: string, ipv6Prefix: number = DEFAULT_IPV6_PREFIX): string {
  if (isIPv4(address)) return address;
  // A zone (`fe80::1%eth0`) names the interface, not the client.
  const bare = address.includes('%') ? address.slice(0, address.indexOf('%')) : address;
  if (!isIPv6(bare)) return address;
  const words = ipv6Words(bare);
  const mapped = words.slice(0, 5).every((word) => word === 0) && words[5] === 0xffff;
  if (mapped) return `${words[6]! >> 8}.${words[6]! & 0xff}.${words[7]! >> 8}.${words[7]! & 0xff}`;
  const prefix = Math.max(0, Math.min(128, Math.trunc(ipv6Prefix)));
  const masked = words.map((word, index) => {
    const bits = Math.max(0, Math.min(16, prefix - index * 16));
    return bits === 0 ? 0 : word & ((0xffff << (16 - bits)) & 0xffff);
  });
  return `${formatIPv6(masked)}/${prefix}`;
}

/** The eight 16-bit words of a valid IPv6 address (with `::` and a dotted IPv4 tail expanded). */
function ipv6Words(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headWords = head ? head.split(':') : [];
  const tailWords = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - headWords.length - tailWords.length).fill('0');
  return [...headWords, ...fill, ...tailWords].map((word) => Number.parseInt(word, 16));
}

/** The canonical text of eight words (RFC 5952: lower case, the longest run of zeros as `::`). */
function formatIPv6(words: number[]): string {
  let bestStart = -1;
  let bestLength = 0;
  for (let start = 0; start < 8; ) {
    if (words[start] !== 0) {
      start++;
      continue;
    }
    let end = start;
    while (end < 8 && words[end] === 0) end++;
    if (end - start > bestLength && end - start > 1) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = words.map((word) => word.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

import { clientKeyOf, DEFAULT_IPV6_PREFIX } from '@commerce/rate-limit';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import proxyAddr from 'proxy-addr';

/** What an in-process request (app.request without a socket, as in tests) reads as its socket address. */
const NO_SOCKET = 'local';

/**
 * The caller, as every per-client limit counts it (rate limits, the booking hold cap, checkout's held
 * units): its address as `createClientAddress` finds it, an IPv6 client keyed on its network of
 * `ipv6Prefix` bits and an IPv4-mapped address on its IPv4 address (`clientKeyOf`).
 */
export function createClientIp(
  trustProxy: number | string[],
  ipv6Prefix: number = DEFAULT_IPV6_PREFIX,
): (c: Context) => string {
  const address = createClientAddress(trustProxy);
  return (c) => clientKeyOf(address(c), ipv6Prefix);
}

/**
 * The caller's address, as Express's `trust proxy` finds it.
 * Without TRUST_PROXY, the socket's address. With a number of hops, the
 * X-Forwarded-For entry that many hops from the socket: each trusted proxy
 * appends the address it saw, so the entries to the left of those are written
 * by the client and never read. With proxy addresses or CIDRs, the first
 * address from the right (the socket first) that is not one of them.
 */
export function createClientAddress(trustProxy: number | string[]): (c: Context) => string {
  if (trustProxy === 0) return socketAddress;
  const trusted =
    typeof trustProxy === 'number'
      ? (_address: string, hop: number) => hop < trustProxy
      : proxyAddr.compile(trustProxy);
  return (c) => {
    const forwardedFor = c.req.header('x-forwarded-for');
    const remoteAddress = socketAddress(c);
    if (!forwardedFor) return remoteAddress;
    // proxy-addr reads a Node request; this is the part of one it reads.
    const request = { socket: { remoteAddress }, headers: { 'x-forwarded-for': forwardedFor } };
    return proxyAddr(request as unknown as Parameters<typeof proxyAddr>[0], trusted).slice(0, 64);
  };
}

function socketAddress(c: Context): string {
  if (!(c.env as { incoming?: unknown } | undefined)?.incoming) return NO_SOCKET;
  return getConnInfo(c).remote.address ?? 'unknown';
}

import type { Server } from 'node:net';
import { clientKeyOf } from '@commerce/rate-limit';
import proxyAddr from 'proxy-addr';

export interface ConnectionCapOptions {
  /** The most connections one client may hold open at once; the newest beyond it is closed. */
  maxPerClient: number;
  /** IPv6 peers are one client per network of this many bits (RATE_LIMIT_IPV6_PREFIX). */
  ipv6Prefix: number;
  /**
   * TRUST_PROXY: the sockets of trusted proxies carry many clients each and are not capped (a number
   * of hops means every peer is a proxy: the cap is then the proxy's to apply).
   */
  trustProxy: number | string[];
  /** Told of each connection closed for being over the cap, with the client's key. */
  onRefused?: (clientKey: string) => void;
}

/**
 * Caps the connections one client address holds open on `server`, so that one client (slow headers
 * from a thousand sockets) cannot take every connection of HTTP_MAX_CONNECTIONS from everyone else.
 * The client is the socket's peer, keyed as every per-client limit keys it (an IPv6 peer by its
 * network); a connection over the cap is closed as it arrives, before a byte of it is read, and the
 * ones already open are left alone. The headers timeout still closes slow ones.
 */
export function capConnectionsPerClient(server: Server, options: ConnectionCapOptions): void {
  const { trustProxy } = options;
  if (typeof trustProxy === 'number' && trustProxy > 0) return;
  const trusted = Array.isArray(trustProxy) ? proxyAddr.compile(trustProxy) : undefined;
  const open = new Map<string, number>();
  server.on('connection', (socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    if (trusted?.(address, 0)) return;
    const key = clientKeyOf(address, options.ipv6Prefix);
    const count = open.get(key) ?? 0;
    if (count >= options.maxPerClient) {
      socket.destroy();
      options.onRefused?.(key);
      return;
    }
    open.set(key, count + 1);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}

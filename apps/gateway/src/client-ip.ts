import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The caller's address for rate limiting. Behind a proxy (TRUST_PROXY) the
 * first X-Forwarded-For entry; otherwise the socket's address.
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded.slice(0, 64);
  }
  // In-process requests (app.request in tests) have no socket to ask.
  if (!(c.env as { incoming?: unknown } | undefined)?.incoming) return 'local';
  return getConnInfo(c).remote.address ?? 'unknown';
}

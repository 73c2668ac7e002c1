import type { Pool } from 'pg';

/** Where counters live; only a shared store (postgres, redis) limits across gateway processes. */
export type RateLimitStore =
  | { kind: 'memory' }
  /** Uses the migrated `rate_limits` table; the caller owns the pool. */
  | { kind: 'postgres'; pool: Pool }
  | { kind: 'redis'; url: string };

/** Reads RATE_LIMIT_STORE (docs/security.md "Rate limits"): `memory`, `postgres` or a `redis://` URL. */
export function parseRateLimitStore(setting: string, pool: Pool | undefined): RateLimitStore {
  if (setting === 'memory') return { kind: 'memory' };
  if (setting === 'postgres') {
    if (!pool) {
      throw new Error(
        'RATE_LIMIT_STORE=postgres needs a PostgreSQL DATABASE_URL; the embedded database cannot hold shared rate limits',
      );
    }
    return { kind: 'postgres', pool };
  }
  if (/^rediss?:\/\//.test(setting)) {
    // The URL may carry a password, so the message never repeats it.
    if (!URL.canParse(setting)) throw new Error('RATE_LIMIT_STORE is not a valid redis:// URL');
    return { kind: 'redis', url: setting };
  }
  throw new Error(`RATE_LIMIT_STORE must be memory, postgres or a redis:// URL, not "${setting}"`);
}

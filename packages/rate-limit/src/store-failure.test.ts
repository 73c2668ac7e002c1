import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { expectRateLimited, ruleFactory } from '../test/rate-limiter-behaviour.ts';
import { createRateLimiter } from './create-rate-limiter.ts';
import { rateLimitKey } from './rate-limit-key.ts';

// Port 1 refuses connections at once, so these stores fail on every call without a timeout.
const UNREACHABLE_REDIS_URL = 'redis://127.0.0.1:1';
const UNREACHABLE_POSTGRES_URL = 'postgres://postgres@127.0.0.1:1/postgres';

describe('rate limiter when the shared store is down', () => {
  const rule = ruleFactory();

  it('keeps limiting from process memory when redis is unreachable, and reports the failure', async () => {
    const onStoreError = vi.fn();
    const limiter = createRateLimiter({ kind: 'redis', url: UNREACHABLE_REDIS_URL }, { onStoreError });
    try {
      const signInByEmail = rule('signin-request-email', 5, 900);
      const key = rateLimitKey(['org_1', 'ada@example.com']);
      for (let attempt = 0; attempt < 5; attempt++) await limiter.consume(signInByEmail, key);

      await expectRateLimited(limiter.consume(signInByEmail, key), 900);
      expect(onStoreError).toHaveBeenCalled();
    } finally {
      await limiter.close();
    }
  });

  describe('on postgres', () => {
    const pool = new pg.Pool({ connectionString: UNREACHABLE_POSTGRES_URL });
    afterAll(() => pool.end());

    it('keeps limiting from process memory when postgres is unreachable, and reports the failure', async () => {
      const onStoreError = vi.fn();
      const limiter = createRateLimiter({ kind: 'postgres', pool }, { onStoreError });
      const publicRead = rule('public-read', 3);
      const key = rateLimitKey(['org_1', '203.0.113.7']);
      for (let attempt = 0; attempt < 3; attempt++) await limiter.consume(publicRead, key);

      await expectRateLimited(limiter.consume(publicRead, key), 60);
      expect(onStoreError).toHaveBeenCalledTimes(4);
      await limiter.close();
    });
  });

  it('gives leases from process memory while redis or postgres is unreachable, and reports the failure', async () => {
    const pool = new pg.Pool({ connectionString: UNREACHABLE_POSTGRES_URL });
    for (const store of [
      { kind: 'redis' as const, url: UNREACHABLE_REDIS_URL },
      { kind: 'postgres' as const, pool },
    ]) {
      const onStoreError = vi.fn();
      const limiter = createRateLimiter(store, { onStoreError });
      try {
        const batch = rule(`lease-${store.kind}`, 1, 120);
        const key = rateLimitKey(['org_lease_down']);
        const release = await limiter.lease(batch, key);
        await expectRateLimited(
          limiter.lease(batch, key).then(() => undefined),
          120,
        );
        await release();
        const next = await limiter.lease(batch, key);
        await next();
        expect(onStoreError).toHaveBeenCalled();
      } finally {
        await limiter.close();
      }
    }
    await pool.end();
  });

  it('closes a redis limiter that never connected', async () => {
    const limiter = createRateLimiter({ kind: 'redis', url: UNREACHABLE_REDIS_URL });
    await expect(limiter.close()).resolves.toBeUndefined();
  });
});

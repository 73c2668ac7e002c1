import { createTestDatabase } from '@commerce/db/testing';
import { describe, expect, it } from 'vitest';
import { describeRateLimiterBehaviour, ruleFactory } from '../test/rate-limiter-behaviour.ts';
import { createRateLimiter } from './create-rate-limiter.ts';
import { rateLimitKey } from './rate-limit-key.ts';

const hasPostgres = Boolean(process.env.TEST_DATABASE_URL);

describeRateLimiterBehaviour('postgres', {
  skip: !hasPostgres,
  isShared: true,
  open: async () => {
    const database = await createTestDatabase();
    if (!database.pool) throw new Error('TEST_DATABASE_URL did not give a PostgreSQL pool');
    return { store: { kind: 'postgres', pool: database.pool }, close: () => database.close() };
  },
});

describe.skipIf(!hasPostgres)('rate limiter on the postgres store, storage', () => {
  it('counts in the migrated rate_limits table under the rule name', async () => {
    const database = await createTestDatabase();
    const pool = database.pool!;
    const limiter = createRateLimiter({ kind: 'postgres', pool });
    try {
      const publicRead = ruleFactory()('public-read', 10);
      const key = rateLimitKey(['org_1', '203.0.113.7']);
      await limiter.consume(publicRead, key);
      await limiter.consume(publicRead, key);

      const stored = await pool.query<{ points: number }>('select points from rate_limits where key = $1', [
        `${publicRead.name}:${key}`,
      ]);
      expect(stored.rows).toEqual([{ points: 2 }]);
    } finally {
      await limiter.close();
      await database.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { ruleFactory } from '../test/rate-limiter-behaviour.ts';
import { createRateLimiter } from './create-rate-limiter.ts';

describe('createRateLimiter rules', () => {
  const rule = ruleFactory();

  it('refuses one rule name declared with two different limits', async () => {
    const limiter = createRateLimiter({ kind: 'memory' });
    await limiter.consume(rule('public-read', 10), 'client');

    await expect(limiter.consume(rule('public-read', 20), 'client')).rejects.toThrow(/different limits/);
  });

  it('accepts the same rule rebuilt on every request', async () => {
    const limiter = createRateLimiter({ kind: 'memory' });
    await limiter.consume(rule('public-read', 2), 'client');

    await expect(limiter.consume(rule('public-read', 2), 'client')).resolves.toBeUndefined();
  });

  it('refuses rules without positive whole points and seconds', async () => {
    const limiter = createRateLimiter({ kind: 'memory' });

    await expect(limiter.consume(rule('no-points', 0), 'client')).rejects.toThrow(/points/);
    await expect(limiter.consume(rule('fractional-duration', 5, 0.5), 'client')).rejects.toThrow(/seconds/);
  });

  it('refuses a key the postgres store could not hold', async () => {
    const limiter = createRateLimiter({ kind: 'memory' });

    await expect(limiter.consume(rule('public-read-long', 5), 'x'.repeat(255))).rejects.toThrow(
      /rateLimitKey/,
    );
  });

  it('consumes a cost of several points at once; a cost above the rule counts as all of it', async () => {
    const limiter = createRateLimiter({ kind: 'memory' });
    const budget = rule('search-units', 100);
    await limiter.consume(budget, 'client', 60);
    await limiter.consume(budget, 'client', 40);
    await expect(limiter.consume(budget, 'client', 1)).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
    // Larger than the whole budget: admitted on a fresh key (never refused for ever), then nothing more.
    await limiter.consume(budget, 'other', 5000);
    await expect(limiter.consume(budget, 'other')).rejects.toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
  });
});

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
});

import { randomBytes } from 'node:crypto';
import { AppError } from '@commerce/core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createRateLimiter,
  type RateLimiter,
  type RateLimitRule,
  type RateLimitStore,
} from '../src/index.ts';
import { rateLimitKey } from '../src/rate-limit-key.ts';

export interface OpenedStore {
  store: RateLimitStore;
  close(): Promise<void>;
}

/** Rule names carry a per-run prefix so runs against a long-lived Redis never meet each other's counters. */
export function ruleFactory(): (name: string, points: number, durationSeconds?: number) => RateLimitRule {
  const runPrefix = `test-${randomBytes(6).toString('hex')}`;
  return (name, points, durationSeconds = 60) => ({ name: `${runPrefix}-${name}`, points, durationSeconds });
}

/** Settles every consume and sorts the outcomes; anything but a rate-limit rejection fails the test. */
export async function consumeAll(
  limiter: RateLimiter,
  rule: RateLimitRule,
  key: string,
  count: number,
): Promise<{ allowed: number; rejected: AppError[] }> {
  const outcomes = await Promise.allSettled(Array.from({ length: count }, () => limiter.consume(rule, key)));
  const rejected = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
  for (const reason of rejected) {
    expect(reason).toBeInstanceOf(AppError);
    expect(reason).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', status: 429 });
  }
  return { allowed: outcomes.length - rejected.length, rejected: rejected as AppError[] };
}

export async function expectRateLimited(attempt: Promise<void>, durationSeconds: number): Promise<AppError> {
  const error = await attempt.then(
    () => expect.fail('expected RATE_LIMIT_EXCEEDED'),
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.code).toBe('RATE_LIMIT_EXCEEDED');
  expect(Number.isInteger(appError.retryAfterSeconds)).toBe(true);
  expect(appError.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  expect(appError.retryAfterSeconds).toBeLessThanOrEqual(durationSeconds);
  return appError;
}

/**
 * The behaviour every store must show. `isShared` stores hold counters outside the
 * process, so two limiters on them (two gateway processes) draw from one budget.
 */
export function describeRateLimiterBehaviour(
  storeName: string,
  options: { skip: boolean; isShared: boolean; open: () => Promise<OpenedStore> },
): void {
  describe.skipIf(options.skip)(`rate limiter on the ${storeName} store`, () => {
    const rule = ruleFactory();
    const onStoreError = vi.fn();
    let opened: OpenedStore;
    let limiter: RateLimiter;

    beforeAll(async () => {
      opened = await options.open();
      limiter = createRateLimiter(opened.store, { onStoreError });
    });

    afterAll(async () => {
      await limiter?.close();
      await opened?.close();
    });

    // A store error would fall back to memory and still pass the limits; this proves the store decided.
    afterEach(() => {
      expect(onStoreError).not.toHaveBeenCalled();
    });

    it('allows consumes up to the rule points', async () => {
      const signInByEmail = rule('signin-request-email', 5);
      const key = rateLimitKey(['org_1', 'ada@example.com']);
      for (let attempt = 0; attempt < 5; attempt++) {
        await expect(limiter.consume(signInByEmail, key)).resolves.toBeUndefined();
      }
    });

    it('rejects the call past the points with RATE_LIMIT_EXCEEDED and a whole Retry-After within the duration', async () => {
      const publicRead = rule('public-read', 3, 60);
      const key = rateLimitKey(['org_1', '203.0.113.7']);
      for (let attempt = 0; attempt < 3; attempt++) await limiter.consume(publicRead, key);

      await expectRateLimited(limiter.consume(publicRead, key), 60);
      await expectRateLimited(limiter.consume(publicRead, key), 60);
    });

    it('counts different keys separately', async () => {
      const publicRead = rule('public-read-keys', 2);
      const firstClient = rateLimitKey(['org_1', '203.0.113.7']);
      const secondClient = rateLimitKey(['org_1', '203.0.113.8']);
      await limiter.consume(publicRead, firstClient);
      await limiter.consume(publicRead, firstClient);
      await expectRateLimited(limiter.consume(publicRead, firstClient), 60);

      await expect(limiter.consume(publicRead, secondClient)).resolves.toBeUndefined();
    });

    it('counts different rule names separately for the same key', async () => {
      const requestEmail = rule('signin-request-email-rules', 1);
      const verify = rule('signin-verify-rules', 1);
      const key = rateLimitKey(['org_1', 'ada@example.com']);
      await limiter.consume(requestEmail, key);
      await expectRateLimited(limiter.consume(requestEmail, key), 60);

      await expect(limiter.consume(verify, key)).resolves.toBeUndefined();
    });

    it('lets exactly 5 of 25 concurrent consumes through a 5-point rule', async () => {
      const burst = rule('burst', 5);
      const { allowed, rejected } = await consumeAll(limiter, burst, rateLimitKey(['org_1', 'burst']), 25);

      expect(allowed).toBe(5);
      expect(rejected).toHaveLength(20);
    });

    it.skipIf(!options.isShared)('shares one budget between limiters on the same store', async () => {
      const secondProcess = createRateLimiter(opened.store, { onStoreError });
      try {
        const publicRead = rule('public-read-shared', 4);
        const key = rateLimitKey(['org_1', '198.51.100.4']);
        const [first, second] = await Promise.all([
          consumeAll(limiter, publicRead, key, 10),
          consumeAll(secondProcess, publicRead, key, 10),
        ]);

        expect(first.allowed + second.allowed).toBe(4);
      } finally {
        await secondProcess.close();
      }
    });

    it('gives one lease of a 1-point rule at a time, and the next once it is given back', async () => {
      const batch = rule('lease', 1, 120);
      const key = rateLimitKey(['org_lease']);
      const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => limiter.lease(batch, key)));
      const held = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      expect(held).toHaveLength(1);
      await expectRateLimited(
        limiter.lease(batch, key).then(() => undefined),
        120,
      );
      // Another key has its own.
      const other = await limiter.lease(batch, rateLimitKey(['org_lease_other']));
      await held[0]!();
      await held[0]!(); // Twice is once.
      const next = await limiter.lease(batch, key);
      await expectRateLimited(
        limiter.lease(batch, key).then(() => undefined),
        120,
      );
      await next();
      await other();
    });

    it('never lets a lapsed lease give back the lease another holder took after it', async () => {
      const batch = rule('lease-lapsed', 1, 1);
      const key = rateLimitKey(['org_lease_lapsed']);
      const slow = await limiter.lease(batch, key);
      // The slow holder keeps it past its duration; the lease lapses and the next batch takes it.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      const next = await limiter.lease(batch, key);
      await slow();
      // The slow holder's late release left the next holder's lease alone.
      await expectRateLimited(
        limiter.lease(batch, key).then(() => undefined),
        1,
      );
      await next();
      const after = await limiter.lease(batch, key);
      await after();
    });

    it.skipIf(!options.isShared)('shares a lease between limiters on the same store', async () => {
      const secondProcess = createRateLimiter(opened.store, { onStoreError });
      try {
        const batch = rule('lease-shared', 1, 120);
        const key = rateLimitKey(['org_lease_shared']);
        const release = await limiter.lease(batch, key);
        await expectRateLimited(
          secondProcess.lease(batch, key).then(() => undefined),
          120,
        );
        await release();
        const again = await secondProcess.lease(batch, key);
        await again();
      } finally {
        await secondProcess.close();
      }
    });
  });
}

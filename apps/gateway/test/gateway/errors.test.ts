import { AppError } from '@commerce/core';
import { fromDatabaseClient } from '@commerce/db';
import { TRPCError } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { toAppError } from '../../src/errors.ts';

/** An error as pg and PGlite raise it: the SQLSTATE in `code`. */
function databaseError(code: string): Error {
  return Object.assign(new Error(`database said ${code}`), { code });
}

describe('toAppError', () => {
  it('keeps an AppError as it is', () => {
    const error = new AppError('LAST_OWNER');
    expect(toAppError(error)).toEqual({ appError: error, unexpected: false });
  });

  it("answers the booking capacity trigger's refusal (BK001) with 409 CAPACITY_UNAVAILABLE, thrown directly or inside tRPC", () => {
    for (const thrown of [
      databaseError('BK001'),
      new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: databaseError('BK001') }),
    ]) {
      const { appError, unexpected } = toAppError(thrown);
      expect(appError.code).toBe('CAPACITY_UNAVAILABLE');
      expect(appError.status).toBe(409);
      expect(appError.message).not.toContain('BK001');
      expect(unexpected).toBe(false);
    }
  });

  for (const code of ['40P01', '40001', 'BK002']) {
    it(`answers a transaction aborted by PostgreSQL (${code}) with 409 STALE_STATE, thrown directly or inside tRPC`, () => {
      for (const thrown of [
        databaseError(code),
        new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: databaseError(code) }),
      ]) {
        const { appError, unexpected } = toAppError(thrown);
        expect(appError.code).toBe('STALE_STATE');
        expect(appError.status).toBe(409);
        expect(appError.message).not.toContain(code);
        expect(unexpected).toBe(false);
      }
    });
  }

  it('answers any other database error with 500 INTERNAL_ERROR and marks it unexpected', () => {
    const { appError, unexpected } = toAppError(databaseError('23505'));
    expect(appError.code).toBe('INTERNAL_ERROR');
    expect(unexpected).toBe(true);
  });

  for (const thrown of [
    databaseError('57P01'),
    databaseError('08006'),
    databaseError('25006'),
    fromDatabaseClient(databaseError('ECONNRESET')),
    fromDatabaseClient(new Error('Connection terminated unexpectedly')),
  ]) {
    it(`answers a database that went away (${thrown.message}) with 503 SERVICE_UNAVAILABLE and Retry-After, thrown directly or inside tRPC`, () => {
      for (const error of [thrown, new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: thrown })]) {
        const { appError, unexpected } = toAppError(error);
        expect(appError.code).toBe('SERVICE_UNAVAILABLE');
        expect(appError.status).toBe(503);
        expect(appError.retryAfterSeconds).toBeGreaterThanOrEqual(1);
        expect(appError.details).toEqual({ retryAfterSeconds: appError.retryAfterSeconds });
        expect(appError.message).not.toContain(thrown.message);
        expect(unexpected).toBe(false);
      }
    });
  }

  for (const thrown of [
    new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }),
    }),
    Object.assign(new Error('request to the provider timed out'), { code: 'ETIMEDOUT' }),
    new Error('Connection closed'),
  ]) {
    it(`does not answer a provider's failure (${thrown.message}) as an unavailable database`, () => {
      for (const error of [thrown, new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: thrown })]) {
        const { appError, unexpected } = toAppError(error);
        expect(appError.code).toBe('INTERNAL_ERROR');
        expect(appError.status).toBe(500);
        expect(unexpected).toBe(true);
      }
    });
  }
});

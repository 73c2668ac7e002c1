import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseRateLimitStore } from './rate-limit-store.ts';

describe('parseRateLimitStore', () => {
  const pool = new pg.Pool();

  it('reads memory, postgres and redis URLs', () => {
    expect(parseRateLimitStore('memory', undefined)).toEqual({ kind: 'memory' });
    expect(parseRateLimitStore('postgres', pool)).toEqual({ kind: 'postgres', pool });
    expect(parseRateLimitStore('redis://127.0.0.1:6379', undefined)).toEqual({
      kind: 'redis',
      url: 'redis://127.0.0.1:6379',
    });
    expect(parseRateLimitStore('rediss://cache.internal:6380/0', undefined)).toEqual({
      kind: 'redis',
      url: 'rediss://cache.internal:6380/0',
    });
  });

  it('refuses postgres without a PostgreSQL pool', () => {
    expect(() => parseRateLimitStore('postgres', undefined)).toThrow(/DATABASE_URL/);
  });

  it('refuses anything else without echoing a redis password', () => {
    expect(() => parseRateLimitStore('memcached', undefined)).toThrow(/memory, postgres or a redis:\/\/ URL/);
    expect(() => parseRateLimitStore('redis://:secret@[bad', undefined)).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('secret') }),
    );
  });
});

import { randomUUID } from 'node:crypto';
import { AppError } from '@commerce/core';
import { Redis } from 'ioredis';
import type { Pool } from 'pg';
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import type { RateLimitStore } from './rate-limit-store.ts';

export interface RateLimitRule {
  /** Stable name such as 'public-read'; rules with different names never share counters. */
  name: string;
  points: number;
  durationSeconds: number;
}

export interface RateLimiter {
  /**
   * Consumes `points` (default 1; a cost above the rule's points counts as all of them) of `rule`
   * for `key`; throws AppError.rateLimited(retryAfterSeconds) when exhausted.
   */
  consume(rule: RateLimitRule, key: string, points?: number): Promise<void>;
  /**
   * Takes the one lease of `key` under `rule` (whose `points` must be 1) for at most
   * `rule.durationSeconds`, in the shared store, so every process sees it; throws
   * AppError.rateLimited (the lease's time left) while another holds it. The answer gives it back
   * early; a lease never given back (a process that died) lapses with its duration.
   */
  lease(rule: RateLimitRule, key: string): Promise<() => Promise<void>>;
  /** Disconnects the redis client this limiter opened; a postgres pool stays with its owner. */
  close(): Promise<void>;
}

export interface CreateRateLimiterOptions {
  /** Called when the shared store fails and the decision falls back to this process's memory. */
  onStoreError?: (error: unknown) => void;
}

// The length of the postgres store's `key varchar(255)`, which holds `<rule name>:<key>`.
const MAX_STORED_KEY_LENGTH = 255;
// A hung store must not hang the requests waiting on it; past these the fallback decides.
const REDIS_COMMAND_TIMEOUT_MS = 1_000;
const REDIS_CONNECT_TIMEOUT_MS = 2_000;

interface RuleLimiters {
  rule: RateLimitRule;
  store: RateLimiterAbstract;
  /** Decides while the shared store is unreachable; see `consume`. */
  fallback: RateLimiterMemory | undefined;
}

export function createRateLimiter(
  store: RateLimitStore,
  options: CreateRateLimiterOptions = {},
): RateLimiter {
  const reportStoreError = options.onStoreError ?? (() => {});
  const limitersByRuleName = new Map<string, RuleLimiters>();

  const redis =
    store.kind === 'redis'
      ? new Redis(store.url, {
          enableOfflineQueue: false,
          commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
          connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
          // A command cut off by a lost connection was already decided from memory (see `consume`);
          // sent again after the reconnect, it would count that request a second time.
          autoResendUnfulfilledCommands: false,
        })
      : undefined;
  // Without a listener ioredis prints every failed reconnect; the owner's logger should see them instead.
  redis?.on('error', reportStoreError);
  // Without an offline queue, commands sent before the first connection fail; requests arriving
  // at start-up wait for that first attempt rather than all being decided by the fallback.
  const firstRedisConnection = redis
    ? new Promise<void>((resolve) => {
        redis.once('ready', resolve);
        redis.once('error', resolve);
        redis.once('end', resolve);
      })
    : Promise.resolve();

  // One sweep of expired rows serves every rule, since they all share the table.
  let isPostgresSweepScheduled = false;

  // Leases: in the shared store, or this process's memory (the memory store, and the fallback).
  const memoryLeases = createMemoryLeases();
  const storeLeases =
    store.kind === 'postgres'
      ? createPostgresLeases(store.pool)
      : redis
        ? createRedisLeases(redis)
        : memoryLeases;

  function createStoreLimiter(rule: RateLimitRule): RateLimiterAbstract {
    const limits = { keyPrefix: rule.name, points: rule.points, duration: rule.durationSeconds };
    switch (store.kind) {
      case 'memory':
        return new RateLimiterMemory(limits);
      case 'postgres': {
        const clearExpiredByTimeout = !isPostgresSweepScheduled;
        isPostgresSweepScheduled = true;
        return new RateLimiterPostgres({
          ...limits,
          storeClient: store.pool,
          storeType: 'pool',
          tableName: 'rate_limits',
          tableCreated: true,
          clearExpiredByTimeout,
        });
      }
      case 'redis':
        return new RateLimiterRedis({ ...limits, storeClient: redis });
    }
  }

  function limitersFor(rule: RateLimitRule): RuleLimiters {
    const cached = limitersByRuleName.get(rule.name);
    if (cached) {
      if (cached.rule.points !== rule.points || cached.rule.durationSeconds !== rule.durationSeconds) {
        throw new Error(`Rate limit rule "${rule.name}" is declared twice with different limits`);
      }
      return cached;
    }
    if (!Number.isInteger(rule.points) || rule.points < 1) {
      throw new Error(`Rate limit rule "${rule.name}" needs a positive whole number of points`);
    }
    if (!Number.isInteger(rule.durationSeconds) || rule.durationSeconds < 1) {
      throw new Error(`Rate limit rule "${rule.name}" needs a positive whole number of seconds`);
    }
    const created: RuleLimiters = {
      rule: { ...rule },
      store: createStoreLimiter(rule),
      fallback:
        store.kind === 'memory'
          ? undefined
          : new RateLimiterMemory({
              keyPrefix: rule.name,
              points: rule.points,
              duration: rule.durationSeconds,
            }),
    };
    limitersByRuleName.set(rule.name, created);
    return created;
  }

  /**
   * Consumes `points` of `rule` for `key` (at least 1, at most the rule's points), answering the
   * limiter that counted it (the store, or the fallback).
   */
  async function take(rule: RateLimitRule, key: string, points = 1): Promise<RateLimiterAbstract> {
    if (rule.name.length + 1 + key.length > MAX_STORED_KEY_LENGTH) {
      throw new Error(`Rate limit key for "${rule.name}" is too long; build it with rateLimitKey()`);
    }
    const limiters = limitersFor(rule);
    const cost = Math.min(Math.max(1, Math.ceil(points)), rule.points);
    await firstRedisConnection;
    try {
      await consumeOrThrowRateLimited(limiters.store, key, cost);
      return limiters.store;
    } catch (error) {
      if (error instanceof AppError || !limiters.fallback) throw error;
      // Fail soft, not open or closed: a store outage must neither take the API down nor
      // lift the limits on sign-in, so each process keeps limiting from its own memory
      // (limits then count per process). This is rate-limiter-flexible's insuranceLimiter,
      // done here so the outage reaches `onStoreError` instead of passing unseen.
      reportStoreError(error);
      await consumeOrThrowRateLimited(limiters.fallback, key, cost);
      return limiters.fallback;
    }
  }

  return {
    async consume(rule, key, points = 1) {
      await take(rule, key, points);
    },

    async lease(rule, key) {
      if (rule.points !== 1) throw new Error(`Lease rule "${rule.name}" must have 1 point`);
      if (rule.name.length + 1 + key.length > MAX_STORED_KEY_LENGTH) {
        throw new Error(`Rate limit key for "${rule.name}" is too long; build it with rateLimitKey()`);
      }
      limitersFor(rule);
      const storedKey = `${rule.name}:${key}`;
      const durationMs = rule.durationSeconds * 1000;
      await firstRedisConnection;
      let leases = storeLeases;
      let taken: TakenLease;
      try {
        taken = await leases.take(storedKey, durationMs);
      } catch (error) {
        if (leases === memoryLeases) throw error;
        // As for `consume`: while the store is unreachable, this process's memory decides.
        reportStoreError(error);
        leases = memoryLeases;
        taken = await leases.take(storedKey, durationMs);
      }
      if (taken.token === undefined) throw AppError.rateLimited(Math.max(1, Math.ceil(taken.msLeft / 1000)));
      const token = taken.token;
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        // Only this lease is given back: one that lapsed and was taken again is the new holder's. A
        // store that fails meanwhile lets the lease lapse with its duration.
        await leases.give(storedKey, token).catch((error: unknown) => reportStoreError(error));
      };
    },

    async close() {
      if (!redis) return;
      // quit() waits for replies in flight, but only a connected client can send it.
      if (redis.status === 'ready') await redis.quit();
      else redis.disconnect();
    },
  };
}

async function consumeOrThrowRateLimited(
  limiter: RateLimiterAbstract,
  key: string,
  points: number,
): Promise<void> {
  try {
    await limiter.consume(key, points);
  } catch (rejection) {
    // The library rejects with its result when the points are spent, and with an Error when the store fails.
    if (rejection instanceof RateLimiterRes) {
      throw AppError.rateLimited(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
    }
    throw rejection;
  }
}

/** A lease taken (its token), or the milliseconds left of the one that stands. */
type TakenLease = { token: string; msLeft?: undefined } | { token?: undefined; msLeft: number };

/**
 * One lease per key, each taken under a token of its own and given back only with it:
 * rate-limiter-flexible's `delete` removes a key whoever holds it, and the library has no
 * compare-and-delete, so leases are kept in each store directly.
 */
interface LeaseStore {
  take(key: string, durationMs: number): Promise<TakenLease>;
  /** Removes the lease of `key` if it is still the one `token` took. */
  give(key: string, token: string): Promise<void>;
}

function createMemoryLeases(): LeaseStore {
  const leases = new Map<string, { token: string; expiresAt: number }>();
  return {
    async take(key, durationMs) {
      const now = Date.now();
      const held = leases.get(key);
      if (held && held.expiresAt > now) return { msLeft: held.expiresAt - now };
      const token = randomUUID();
      leases.set(key, { token, expiresAt: now + durationMs });
      return { token };
    },
    async give(key, token) {
      if (leases.get(key)?.token === token) leases.delete(key);
    },
  };
}

// Deletes the key only while it holds the caller's token, in one step on the server.
const GIVE_BACK_SCRIPT =
  "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

function createRedisLeases(redis: Redis): LeaseStore {
  return {
    async take(key, durationMs) {
      const token = randomUUID();
      if ((await redis.set(key, token, 'PX', durationMs, 'NX')) === 'OK') return { token };
      // Gone in between (-2), it is free again: the caller retries after a second.
      return { msLeft: Math.max(1, await redis.pttl(key)) };
    },
    async give(key, token) {
      await redis.eval(GIVE_BACK_SCRIPT, 1, key, token);
    },
  };
}

/**
 * Leases in the `rate_limits` table. The token is the row's `expire` (milliseconds): a lease is taken
 * only after the one before it expired, so each has a later one than any before it.
 */
function createPostgresLeases(pool: Pool): LeaseStore {
  return {
    async take(key, durationMs) {
      const now = Date.now();
      const taken = await pool.query<{ expire: string }>(
        `insert into rate_limits (key, points, expire) values ($1, 1, $2)
         on conflict (key) do update set points = 1, expire = excluded.expire
           where rate_limits.expire is not null and rate_limits.expire <= $3
         returning expire`,
        [key, now + durationMs, now],
      );
      if (taken.rows[0]) return { token: String(taken.rows[0].expire) };
      const held = await pool.query<{ expire: string | null }>(
        'select expire from rate_limits where key = $1',
        [key],
      );
      const expire = held.rows[0]?.expire;
      return { msLeft: Math.max(1, expire == null ? 1 : Number(expire) - Date.now()) };
    },
    async give(key, token) {
      await pool.query('delete from rate_limits where key = $1 and expire = $2', [key, token]);
    },
  };
}

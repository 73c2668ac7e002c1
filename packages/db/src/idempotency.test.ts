import { createHash } from 'node:crypto';
import { AppError } from '@commerce/core';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKind } from '../test/database.ts';
import {
  claimPaymentWebhookEvent,
  type IdempotencyRequest,
  type IdempotentResponse,
  isIdempotencyKeyRecorded,
  PAYMENT_WEBHOOK_EVENT_RETENTION_MS,
  pruneIdempotencyKeys,
  prunePaymentWebhookEvents,
  readIdempotencyKey,
  withIdempotency,
} from './idempotency.ts';
import type { DatabaseHandle } from './open-database.ts';
import type { Database } from './schema.ts';

let handle: DatabaseHandle;
let db: Kysely<Database>;
const NOW = new Date('2026-11-23T18:00:00.000Z');
const HOUR = 60 * 60 * 1000;
let keySequence = 0;

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
  await db
    .insertInto('organizations')
    .values([
      { id: 'org_A', slug: 'a', name: 'A' },
      { id: 'org_B', slug: 'b', name: 'B' },
    ])
    .execute();
  await sql`create table effects (id text primary key, organization_id text not null)`.execute(db);
});

afterAll(async () => {
  await handle.close();
});

/** A fresh, well-formed key per test, so tests never see each other's records. */
const newKey = () => `test-key-${String(++keySequence).padStart(8, '0')}`;

function request(overrides: Partial<IdempotencyRequest> = {}): IdempotencyRequest {
  return {
    organizationId: 'org_A',
    operation: 'POST /merchant/things/:thingId/actions',
    key: 'unset-key-000000',
    intent: { params: { thingId: 'thg_1' }, body: { amount: 100, currency: 'USD', note: 'hi' } },
    retention: 'standard',
    now: NOW,
    ...overrides,
  };
}

/** An operation with a visible effect: one row in `effects` per run. */
function effect(
  id: string,
  status = 201,
): (trx: Kysely<Database>) => Promise<IdempotentResponse<{ id: string }>> {
  return async (trx) => {
    await sql`insert into effects (id, organization_id) values (${id}, 'org_A')`.execute(trx);
    return { status, body: { id } };
  };
}

async function effectCount(prefix: string): Promise<number> {
  const { rows } = await sql<{
    count: string;
  }>`select count(*) as count from effects where id like ${`${prefix}%`}`.execute(db);
  return Number(rows[0]!.count);
}

async function recordOf(key: string, operation = request().operation, organizationId = 'org_A') {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('operation', '=', operation)
    .where('key_hash', '=', createHash('sha256').update(key).digest('hex'))
    .executeTakeFirst();
}

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('readIdempotencyKey', () => {
  const headers = (entries: Record<string, string>) => new Headers(entries);
  const issuesOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('VALIDATION_FAILED');
      return (error as AppError).details?.issues;
    }
    throw new Error('accepted');
  };

  it('reads x-idempotency-key, or the Idempotency-Key alias (bare or as a quoted string)', () => {
    const key = '4f1c2a7e-9b3d-4e8a-a1b2-c3d4e5f60718';
    expect(readIdempotencyKey(headers({ 'x-idempotency-key': key }))).toBe(key);
    expect(readIdempotencyKey(headers({ 'Idempotency-Key': key }))).toBe(key);
    expect(readIdempotencyKey(headers({ 'Idempotency-Key': `"${key}"` }))).toBe(key);
    expect(readIdempotencyKey(headers({ 'x-idempotency-key': key, 'idempotency-key': key }))).toBe(key);
  });

  it('accepts 16 and 255 characters of [A-Za-z0-9_.:-]', () => {
    expect(readIdempotencyKey(headers({ 'x-idempotency-key': 'aA0_.:-aA0_.:-aA' }))).toHaveLength(16);
    expect(readIdempotencyKey(headers({ 'x-idempotency-key': 'k'.repeat(255) }))).toHaveLength(255);
  });

  it('answers undefined for a missing optional key and 400 at headers.x-idempotency-key for a required one', () => {
    expect(readIdempotencyKey(headers({}))).toBeUndefined();
    expect(issuesOf(() => readIdempotencyKey(headers({}), { required: true }))).toEqual([
      { path: 'headers.x-idempotency-key', message: 'is required' },
    ]);
  });

  it.each([
    ['15 characters', 'k'.repeat(15)],
    ['256 characters', 'k'.repeat(256)],
    ['a space', 'key with a space!'],
    ['a slash', 'key/with/slashes/'],
    ['non-ASCII', 'clé-idempotence-0001'],
    ['two values joined by the Headers API', 'aaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbb'],
  ])('refuses %s with 400 at headers.x-idempotency-key', (_case, value) => {
    const issues = issuesOf(() => readIdempotencyKey(headers({ 'x-idempotency-key': value })));
    expect(issues).toEqual([{ path: 'headers.x-idempotency-key', message: expect.any(String) }]);
  });

  it('refuses an alias that disagrees with x-idempotency-key', () => {
    const issues = issuesOf(() =>
      readIdempotencyKey(headers({ 'x-idempotency-key': 'a'.repeat(16), 'idempotency-key': 'b'.repeat(16) })),
    );
    expect(issues).toEqual([
      { path: 'headers.x-idempotency-key', message: expect.stringContaining('different') },
    ]);
  });
});

describe('withIdempotency', () => {
  it('runs once, records only hashes and the response, and replays it for the same intent', async () => {
    const key = newKey();
    const first = await withIdempotency(db, request({ key }), effect(`${key}-1`));
    expect(first).toEqual({ status: 201, body: { id: `${key}-1` }, replayed: false });

    // The same intent, its body keys in another order.
    const again = await withIdempotency(
      db,
      request({
        key,
        intent: { params: { thingId: 'thg_1' }, body: { note: 'hi', currency: 'USD', amount: 100 } },
      }),
      effect(`${key}-2`),
    );
    expect(again).toEqual({ status: 201, body: { id: `${key}-1` }, replayed: true });
    expect(await effectCount(key)).toBe(1);

    const record = await recordOf(key);
    expect(record).toMatchObject({ response_status: 201, response_body: { id: `${key}-1` } });
    const { response_body: _body, ...stored } = record!;
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(record!.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(Object.keys(record!.intent_fields).sort()).toEqual(['amount', 'currency', 'note', 'thingId']);
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED naming the top-level fields that differ, and changes nothing', async () => {
    const key = newKey();
    await withIdempotency(db, request({ key }), effect(`${key}-1`));
    const error = await failureOf(
      withIdempotency(
        db,
        request({
          key,
          intent: { params: { thingId: 'thg_1' }, body: { amount: 200, currency: 'USD', memo: 'x' } },
        }),
        effect(`${key}-2`),
      ),
    );
    expect(error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(error.status).toBe(409);
    expect(error.details).toEqual({ fields: ['amount', 'memo', 'note'] });

    const otherResource = await failureOf(
      withIdempotency(
        db,
        request({ key, intent: { ...request().intent, params: { thingId: 'thg_2' } } }),
        effect(`${key}-3`),
      ),
    );
    expect(otherResource.details).toEqual({ fields: ['thingId'] });
    expect(await effectCount(key)).toBe(1);
  });

  it('scopes keys by tenant and operation', async () => {
    const key = newKey();
    await withIdempotency(db, request({ key }), effect(`${key}-1`));
    const otherTenant = await withIdempotency(
      db,
      request({ key, organizationId: 'org_B' }),
      effect(`${key}-2`),
    );
    const otherOperation = await withIdempotency(
      db,
      request({ key, operation: 'POST /other' }),
      effect(`${key}-3`),
    );
    expect([otherTenant.replayed, otherOperation.replayed]).toEqual([false, false]);
    expect(await effectCount(key)).toBe(3);
  });

  it('records nothing when the operation fails, so a retry runs again', async () => {
    const key = newKey();
    const refusal = new AppError('STALE_STATE');
    await expect(
      withIdempotency(db, request({ key }), async (trx) => {
        await effect(`${key}-1`)(trx);
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(await recordOf(key)).toBeUndefined();
    expect(await effectCount(key)).toBe(0);

    const retry = await withIdempotency(db, request({ key }), effect(`${key}-2`));
    expect(retry.replayed).toBe(false);
    expect(await effectCount(key)).toBe(1);
  });

  it('takes its claim back when a caller catches the failure and commits its transaction anyway', async () => {
    const key = newKey();
    await db.transaction().execute(async (trx) => {
      await withIdempotency(trx, request({ key }), async () => {
        throw new AppError('STALE_STATE');
      }).catch(() => undefined);
    });
    expect(await recordOf(key)).toBeUndefined();
  });

  it('records nothing when the caller’s transaction rolls back after the operation', async () => {
    const key = newKey();
    await expect(
      db.transaction().execute(async (trx) => {
        await withIdempotency(trx, request({ key }), effect(`${key}-1`));
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await recordOf(key)).toBeUndefined();
    expect(await effectCount(key)).toBe(0);
  });

  it('does not record a response outside 2xx', async () => {
    const key = newKey();
    const outcome = await withIdempotency(db, request({ key }), async () => ({ status: 202, body: null }));
    expect(outcome.replayed).toBe(false);
    const notSuccess = await withIdempotency(db, request({ key: newKey() }), async () => ({
      status: 302,
      body: null,
    }));
    expect(notSuccess).toEqual({ status: 302, body: null, replayed: false });
    expect(await recordOf(key)).toMatchObject({ response_status: 202, response_body: null });
  });

  it('keeps records 24 hours, or 30 days for money, and treats an expired one as absent', async () => {
    const key = newKey();
    await withIdempotency(db, request({ key }), effect(`${key}-1`));
    expect((await recordOf(key))!.expires_at).toEqual(new Date(NOW.getTime() + 24 * HOUR));
    const moneyKey = newKey();
    await withIdempotency(db, request({ key: moneyKey, retention: 'money' }), effect(`${moneyKey}-1`));
    expect((await recordOf(moneyKey))!.expires_at).toEqual(new Date(NOW.getTime() + 30 * 24 * HOUR));

    const justBefore = new Date(NOW.getTime() + 24 * HOUR - 1);
    expect((await withIdempotency(db, request({ key, now: justBefore }), effect(`${key}-2`))).replayed).toBe(
      true,
    );
    const expired = new Date(NOW.getTime() + 24 * HOUR);
    const rerun = await withIdempotency(
      db,
      request({ key, now: expired, intent: { body: { other: true } } }),
      effect(`${key}-3`),
    );
    expect(rerun).toEqual({ status: 201, body: { id: `${key}-3` }, replayed: false });
    expect((await recordOf(key))!.expires_at).toEqual(new Date(expired.getTime() + 24 * HOUR));
  });

  it('says a key is recorded once its outcome is committed, in its tenant and operation, until it expires', async () => {
    const key = newKey();
    const recorded = (overrides: Partial<IdempotencyRequest> = {}) =>
      isIdempotencyKeyRecorded(db, request({ key, ...overrides }));
    expect(await recorded()).toBe(false);
    await expect(
      withIdempotency(db, request({ key }), async () => {
        throw new AppError('STALE_STATE');
      }),
    ).rejects.toThrow();
    expect(await recorded()).toBe(false);
    await withIdempotency(db, request({ key }), async (trx) => {
      // The claim in flight is not a record yet, even to its own transaction.
      expect(await isIdempotencyKeyRecorded(trx, request({ key }))).toBe(false);
      return effect(`${key}-1`)(trx);
    });
    expect(await recorded()).toBe(true);
    expect(await recorded({ organizationId: 'org_B' })).toBe(false);
    expect(await recorded({ operation: 'POST /other' })).toBe(false);
    expect(await recorded({ now: new Date(NOW.getTime() + 24 * HOUR - 1) })).toBe(true);
    expect(await recorded({ now: new Date(NOW.getTime() + 24 * HOUR) })).toBe(false);
  });

  it('stores what toRecord keeps and replays through fromRecord', async () => {
    const key = newKey();
    const run = async () => ({
      status: 201,
      body: { id: 'pay_1', clientSecret: 'raw-secret', serverTime: 'then' },
    });
    const options = {
      toRecord: ({ id }: { id: string }) => ({ id }),
      fromRecord: async (_trx: Kysely<Database>, recorded: IdempotentResponse<unknown>) => ({
        ...(recorded.body as { id: string }),
        clientSecret: 'reissued',
        serverTime: 'now',
      }),
    };
    await withIdempotency(db, request({ key }), run, options);
    expect(JSON.stringify(await recordOf(key))).not.toContain('raw-secret');
    expect(await withIdempotency(db, request({ key }), run, options)).toEqual({
      status: 201,
      body: { id: 'pay_1', clientSecret: 'reissued', serverTime: 'now' },
      replayed: true,
    });
  });

  it('lets exactly one of many simultaneous duplicates run; the others replay it', async () => {
    const key = newKey();
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        withIdempotency(db, request({ key }), effect(`${key}-${index}`)),
      ),
    );
    expect(await effectCount(key)).toBe(1);
    expect(outcomes.filter((outcome) => !outcome.replayed)).toHaveLength(1);
    const winner = outcomes.find((outcome) => !outcome.replayed)!;
    for (const outcome of outcomes) expect(outcome.body).toEqual(winner.body);
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')(
  'withIdempotency on PostgreSQL: a duplicate waits for the first',
  () => {
    /** Starts an idempotent call whose operation waits for `release`; resolves `entered` once it holds the claim. */
    function holdClaim(key: string, body: unknown, outcome: 'commit' | 'fail') {
      let release!: () => void;
      let entered!: () => void;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const inside = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const done = withIdempotency(db, request({ key, intent: { body } }), async (trx) => {
        entered();
        await released;
        await effect(`${key}-first`)(trx);
        if (outcome === 'fail') throw new AppError('STALE_STATE');
        return { status: 201, body: { id: `${key}-first` } };
      });
      return { inside, release, done };
    }

    /** Runs a duplicate on its own connection and resolves once PostgreSQL has it waiting on a lock. */
    async function blockedDuplicate(key: string, body: unknown): Promise<{ done: Promise<unknown> }> {
      let pid!: number;
      let started!: () => void;
      const hasPid = new Promise<void>((resolve) => {
        started = resolve;
      });
      const done = db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        pid = rows[0]!.pid;
        started();
        return withIdempotency(trx, request({ key, intent: { body } }), effect(`${key}-second`));
      });
      // Observed later by the test; marked handled now so an early rejection is not reported as unhandled.
      done.catch(() => undefined);
      await hasPid;
      for (let attempt = 0; attempt < 500; attempt++) {
        const { rows } = await sql<{ wait: string | null }>`
        select wait_event_type as wait from pg_stat_activity where pid = ${pid}`.execute(db);
        // Wrapped: an async function returning the promise itself would wait for it.
        if (rows[0]?.wait === 'Lock') return { done };
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('the duplicate never waited on the claim');
    }

    it('replays the first outcome once it commits: never a second effect', async () => {
      const key = newKey();
      const first = holdClaim(key, { a: 1 }, 'commit');
      await first.inside;
      const second = await blockedDuplicate(key, { a: 1 });
      first.release();
      expect(await first.done).toMatchObject({ replayed: false });
      expect(await second.done).toEqual({ status: 201, body: { id: `${key}-first` }, replayed: true });
      expect(await effectCount(key)).toBe(1);
    });

    it('answers 409 to a waiting duplicate with another intent', async () => {
      const key = newKey();
      const first = holdClaim(key, { a: 1 }, 'commit');
      await first.inside;
      const second = await blockedDuplicate(key, { a: 2 });
      first.release();
      await first.done;
      expect((await failureOf(second.done)).code).toBe('IDEMPOTENCY_KEY_REUSED');
      expect(await effectCount(key)).toBe(1);
    });

    it('runs the waiting duplicate when the first fails and rolls back', async () => {
      const key = newKey();
      const first = holdClaim(key, { a: 1 }, 'fail');
      await first.inside;
      const second = await blockedDuplicate(key, { a: 1 });
      first.release();
      await expect(first.done).rejects.toMatchObject({ code: 'STALE_STATE' });
      expect(await second.done).toEqual({ status: 201, body: { id: `${key}-second` }, replayed: false });
      expect(await effectCount(key)).toBe(1);
    });
  },
);

describe('pruning', () => {
  it('deletes expired idempotency records in batches and keeps live ones', async () => {
    await db.deleteFrom('idempotency_keys').execute();
    const keys = Array.from({ length: 5 }, newKey);
    for (const key of keys)
      await withIdempotency(db, request({ key }), async () => ({ status: 200, body: {} }));
    const live = newKey();
    await withIdempotency(db, request({ key: live, retention: 'money' }), async () => ({
      status: 200,
      body: {},
    }));

    expect(await pruneIdempotencyKeys(db, new Date(NOW.getTime() + 24 * HOUR - 1))).toBe(0);
    expect(await pruneIdempotencyKeys(db, new Date(NOW.getTime() + 24 * HOUR), { batchSize: 2 })).toBe(5);
    expect(await recordOf(live)).toBeDefined();
    expect(await pruneIdempotencyKeys(db, new Date(NOW.getTime() + 30 * 24 * HOUR))).toBe(1);
  });

  it('records a payment event id once and prunes ids past their retention', async () => {
    const event = { id: 'evt_prune_1', type: 'payment_intent.succeeded', intentId: 'pi_1' };
    expect(await claimPaymentWebhookEvent(db, event, NOW)).toBe(true);
    expect(await claimPaymentWebhookEvent(db, event, NOW)).toBe(false);
    expect(
      await prunePaymentWebhookEvents(db, new Date(NOW.getTime() + PAYMENT_WEBHOOK_EVENT_RETENTION_MS)),
    ).toBe(0);
    expect(
      await prunePaymentWebhookEvents(db, new Date(NOW.getTime() + PAYMENT_WEBHOOK_EVENT_RETENTION_MS + 1)),
    ).toBe(1);
    expect(await claimPaymentWebhookEvent(db, event, NOW)).toBe(true);
  });
});

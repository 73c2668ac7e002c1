import { AppError } from '@commerce/core';
import { type Database, type DatabaseHandle, sqlState } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureOwnerBookings,
  insertOrganization,
  insertResource,
  minutesAfter,
} from '../../test/factories.ts';
import { freeUnits, resourceLoad } from '../availability/capacity.ts';
import { CAPACITY_RETRIES, retryOnAbort, setClaimClock, withCapacityLock } from './capacity-lock.ts';
import { insertClaims, moveClaims, type NewClaim, releaseClaims } from './claims.ts';
import { findConflictingClaims, readFreeUnits, readLiveClaims } from './live-claims.ts';

let handle: DatabaseHandle;
let db: Kysely<Database>;

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 16 });
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
});

const BASE = new Date('2026-07-01T09:00:00.000Z');
const NOW = new Date('2026-06-01T00:00:00.000Z');

let owners = 0;
function claim(
  resourceId: string,
  from: number,
  until: number,
  quantity = 1,
  expiresAt: Date | null = null,
): NewClaim {
  owners += 1;
  return {
    resourceId,
    quantity,
    startsAt: minutesAfter(BASE, from),
    endsAt: minutesAfter(BASE, until),
    expiresAt,
    owner: { kind: 'BOOKING', id: `bkg_test_${owners}` },
  };
}

/** Claims through the module: lock, insert (checked by the trigger), commit. */
/** The booking ids that own these claims (each a row, for the claims' foreign key). */
function ownersOf(claims: readonly NewClaim[]): string[] {
  return claims.flatMap((c) => (c.owner.kind === 'BOOKING' ? [c.owner.id] : []));
}

async function claimNow(organizationId: string, claims: NewClaim[], at = NOW) {
  await ensureOwnerBookings(db, organizationId, ownersOf(claims));
  return withCapacityLock(
    db,
    { organizationId, at },
    claims.map((c) => c.resourceId),
    (trx) => insertClaims(trx, { organizationId, at }, claims),
  );
}

/**
 * Claims as a hot-slot hold does: no explicit lock, the check asked for at COMMIT
 * (`setClaimClock(…, { checkAtCommit: true })`); `then` runs after the insert, in the transaction.
 */
async function claimAtCommit(
  organizationId: string,
  claims: NewClaim[],
  then: (trx: Kysely<Database>) => Promise<unknown> = async () => undefined,
) {
  await ensureOwnerBookings(db, organizationId, ownersOf(claims));
  return db.transaction().execute(async (trx) => {
    await setClaimClock(trx, NOW, { checkAtCommit: true });
    const ids = await insertClaims(trx, { organizationId, at: NOW }, claims);
    await then(trx);
    return ids;
  });
}

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return sqlState(error) ?? (error instanceof AppError ? error.code : String(error));
  }
}

/**
 * The checker: reads every live claim back from the database and sweeps it
 * (+units at starts, -units at ends, ends first) for each resource's peak.
 */
async function peaksByResource(
  organizationId: string,
): Promise<Map<string, { peak: number; capacity: number }>> {
  const result = await sql<{ resource_id: string; capacity: number; peak: number }>`
    with live as (
      select c.resource_id, c.during, case when c.blackout_id is null then c.quantity else r.capacity end as units
      from booking_capacity_claims c
      join booking_resources r on r.organization_id = c.organization_id and r.id = c.resource_id
      where c.organization_id = ${organizationId} and c.released_at is null
        and (c.expires_at is null or c.expires_at > ${NOW.toISOString()}::timestamptz)
    ),
    events as (
      select resource_id, lower(during) as at, units as delta from live
      union all select resource_id, upper(during), -units from live
    ),
    sweep as (
      select resource_id, sum(delta) over (partition by resource_id order by at, delta) as running from events
    )
    select r.id as resource_id, r.capacity, coalesce(max(s.running), 0)::int as peak
    from booking_resources r left join sweep s on s.resource_id = r.id
    where r.organization_id = ${organizationId}
    group by r.id, r.capacity
  `.execute(db);
  return new Map(result.rows.map((row) => [row.resource_id, { peak: row.peak, capacity: row.capacity }]));
}

describe(`capacity claims (${testDatabaseKind})`, () => {
  it('refuses a hand-written INSERT over capacity with SQLSTATE BK001', async () => {
    const organizationId = await insertOrganization(db, 'raw');
    const resourceId = await insertResource(db, organizationId, { capacity: 2 });
    const insert = (id: string, quantity: number) =>
      sql`insert into booking_capacity_claims (organization_id, id, resource_id, quantity, during, booking_id)
          values (${organizationId}, ${id}, ${resourceId}, ${quantity},
                  tstzrange('2026-07-01T09:00Z', '2026-07-01T10:00Z', '[)'), ${`bkg_${id}`})`.execute(db);
    await ensureOwnerBookings(db, organizationId, ['bkg_bcl_raw_1', 'bkg_bcl_raw_2']);
    await insert('bcl_raw_1', 2);
    expect(await refusal(insert('bcl_raw_2', 1))).toBe('BK001');
    const rows = await db
      .selectFrom('booking_capacity_claims')
      .select(['id', 'start_minute', 'end_minute'])
      .where('organization_id', '=', organizationId)
      .execute();
    // The trigger mirrored the range as epoch minutes.
    expect(rows).toEqual([
      {
        id: 'bcl_raw_1',
        start_minute: Date.parse('2026-07-01T09:00Z') / 60_000,
        end_minute: Date.parse('2026-07-01T10:00Z') / 60_000,
      },
    ]);
  });

  it('refuses an UPDATE that makes a released claim live again over capacity, and any edit of a claim', async () => {
    const organizationId = await insertOrganization(db, 'revive');
    const resourceId = await insertResource(db, organizationId, { capacity: 1 });
    const [first] = await claimNow(organizationId, [claim(resourceId, 0, 60)]);
    await releaseClaims(db, { organizationId, at: NOW }, { kind: 'BOOKING', id: `bkg_test_${owners}` });
    await claimNow(organizationId, [claim(resourceId, 30, 90)]);
    const revive = db
      .updateTable('booking_capacity_claims')
      .set({ released_at: null })
      .where('organization_id', '=', organizationId)
      .where('id', '=', first!)
      .execute();
    expect(await refusal(revive)).toBe('BK001');
    const edit =
      sql`update booking_capacity_claims set quantity = 1, during = tstzrange('2026-08-01T09:00Z', '2026-08-01T10:00Z', '[)')
      where organization_id = ${organizationId} and id = ${first!}`.execute(db);
    expect(await refusal(edit)).toBe('55000');
  });

  it('decides by peak, not by sum: staggered claims that fit at every instant are all accepted', async () => {
    const organizationId = await insertOrganization(db, 'peak');
    const resourceId = await insertResource(db, organizationId, { capacity: 5 });
    await claimNow(organizationId, [claim(resourceId, 0, 60, 3)]);
    await claimNow(organizationId, [claim(resourceId, 60, 120, 3)]);
    // Overlaps both (sum 8) but the peak over [30, 90) is 3 + 2 = 5: ends come first at 60.
    await claimNow(organizationId, [claim(resourceId, 30, 90, 2)]);
    expect(await refusal(claimNow(organizationId, [claim(resourceId, 45, 50, 1)]))).toBe('BK001');
    // Outside the busy span there is room for all five units.
    await claimNow(organizationId, [claim(resourceId, 120, 180, 5)]);
    expect((await peaksByResource(organizationId)).get(resourceId)).toEqual({ peak: 5, capacity: 5 });
  });

  it('takes the sum as the peak only when every overlapping claim covers the interval', async () => {
    const organizationId = await insertOrganization(db, 'covering');
    const resourceId = await insertResource(db, organizationId, { capacity: 8 });
    await claimNow(organizationId, [claim(resourceId, 0, 60, 3), claim(resourceId, 0, 60, 2)]);
    await claimNow(organizationId, [claim(resourceId, 60, 120, 2)]);
    const ctx = { organizationId, at: NOW };
    const start = BASE.getTime() / 60_000;
    const free = async (from: number, until: number) =>
      (
        await readFreeUnits(db, ctx, [resourceId], { startMinute: start + from, endMinute: start + until })
      ).get(resourceId);
    // The two claims of [0, 60) cover [0, 30) whole: their sum, 5, is the peak.
    expect(await free(0, 30)).toBe(3);
    // Over [0, 120) and [30, 90) the claims add up to 7 but never meet: swept, the peak is 5.
    expect(await free(0, 120)).toBe(3);
    expect(await free(30, 90)).toBe(3);
    // The trigger agrees: 3 more units over [0, 120) fit by the peak (5 + 3), not by the sum (10).
    await claimNow(organizationId, [claim(resourceId, 0, 120, 3)]);
    // Inside [0, 60) every claim covers [10, 20): the sum, 8, is the peak and nothing fits.
    expect(await refusal(claimNow(organizationId, [claim(resourceId, 10, 20, 1)]))).toBe('BK001');
    // Over [60, 120) the sum of what overlaps, 5, leaves room for 3.
    await claimNow(organizationId, [claim(resourceId, 60, 120, 3)]);
    expect(await free(0, 120)).toBe(0);
    expect((await peaksByResource(organizationId)).get(resourceId)).toEqual({ peak: 8, capacity: 8 });
  });

  it('stops counting an expired claim at the instant of bookings.now', async () => {
    const organizationId = await insertOrganization(db, 'expiry');
    const resourceId = await insertResource(db, organizationId, { capacity: 1 });
    const expiresAt = minutesAfter(NOW, 30);
    await claimNow(organizationId, [claim(resourceId, 0, 60, 1, expiresAt)]);
    const justBefore = new Date(expiresAt.getTime() - 1000);
    expect(await refusal(claimNow(organizationId, [claim(resourceId, 0, 60)], justBefore))).toBe('BK001');
    await claimNow(organizationId, [claim(resourceId, 0, 60)], expiresAt);

    // A raw statement with bookings.now set in its transaction sees the same.
    const other = await insertResource(db, organizationId, { capacity: 1 });
    await claimNow(organizationId, [claim(other, 0, 60, 1, expiresAt)]);
    await ensureOwnerBookings(db, organizationId, ['bkg_raw']);
    const rawAt = (at: Date) =>
      db.transaction().execute(async (trx) => {
        await sql`select set_config('bookings.now', ${at.toISOString()}, true)`.execute(trx);
        await sql`insert into booking_capacity_claims (organization_id, id, resource_id, quantity, during, booking_id)
          values (${organizationId}, ${`bcl_expiry_${at.getTime()}`}, ${other}, 1,
                  tstzrange('2026-07-01T09:00Z', '2026-07-01T10:00Z', '[)'), 'bkg_raw')`.execute(trx);
      });
    expect(await refusal(rawAt(justBefore))).toBe('BK001');
    await rawAt(expiresAt);
  });

  it('checks at COMMIT when the transaction asks: the insert passes, the commit refuses and keeps nothing', async () => {
    const organizationId = await insertOrganization(db, 'at-commit');
    const resourceId = await insertResource(db, organizationId, { capacity: 2 });
    await claimAtCommit(organizationId, [claim(resourceId, 0, 60, 2)]);
    let inserted = false;
    const over = claimAtCommit(organizationId, [claim(resourceId, 30, 90, 1)], async () => {
      inserted = true;
    });
    expect(await refusal(over)).toBe('BK001');
    expect(inserted).toBe(true);
    // Two claims of one transaction count each other at commit.
    expect(
      await refusal(
        claimAtCommit(organizationId, [claim(resourceId, 60, 90, 2), claim(resourceId, 80, 120, 1)]),
      ),
    ).toBe('BK001');
    // A claim released before the commit takes nothing.
    const released = claim(resourceId, 10, 20, 1);
    await claimAtCommit(organizationId, [released], (trx) =>
      releaseClaims(trx, { organizationId, at: NOW }, released.owner),
    );
    expect((await peaksByResource(organizationId)).get(resourceId)).toEqual({ peak: 2, capacity: 2 });
    // Making a claim live again is checked at once whatever the transaction asks.
    const [first] = await claimNow(organizationId, [claim(resourceId, 200, 260, 1)]);
    await releaseClaims(db, { organizationId, at: NOW }, { kind: 'BOOKING', id: `bkg_test_${owners}` });
    await claimNow(organizationId, [claim(resourceId, 200, 260, 2)]);
    const revive = db.transaction().execute(async (trx) => {
      await setClaimClock(trx, NOW, { checkAtCommit: true });
      await trx
        .updateTable('booking_capacity_claims')
        .set({ released_at: null })
        .where('organization_id', '=', organizationId)
        .where('id', '=', first!)
        .execute()
        .catch((error: unknown) => {
          throw Object.assign(new Error('at the update'), { cause: error, code: sqlState(error) });
        });
    });
    await expect(revive).rejects.toMatchObject({ message: 'at the update', code: 'BK001' });
  });

  it('refuses claims written at an isolation level other than READ COMMITTED with BK002', async () => {
    const organizationId = await insertOrganization(db, 'isolation');
    const resourceId = await insertResource(db, organizationId, { capacity: 3 });
    for (const level of ['repeatable read', 'serializable'] as const) {
      const refused = claim(resourceId, 0, 60);
      await ensureOwnerBookings(db, organizationId, ownersOf([refused]));
      const attempt = db
        .transaction()
        .setIsolationLevel(level)
        .execute((trx) => insertClaims(trx, { organizationId, at: NOW }, [refused]));
      expect(await refusal(attempt)).toBe('BK002');
    }
    await claimNow(organizationId, [claim(resourceId, 0, 60)]);
  });

  it('moves a claim in one transaction: capacity 1, moved by 30 minutes, not blocked by its old interval', async () => {
    const organizationId = await insertOrganization(db, 'move');
    const resourceId = await insertResource(db, organizationId, { capacity: 1 });
    const original = claim(resourceId, 0, 60);
    await claimNow(organizationId, [original]);
    const moved = { ...claim(resourceId, 30, 90), owner: { kind: 'BOOKING' as const, id: 'bkg_moved' } };
    await ensureOwnerBookings(db, organizationId, ['bkg_moved', 'bkg_blocked']);
    await moveClaims(db, { organizationId, at: NOW }, { from: original.owner, to: [moved] });
    const live = await readLiveClaims(db, { organizationId, at: NOW }, [resourceId], {
      startsAt: BASE,
      endsAt: minutesAfter(BASE, 120),
    });
    const start = BASE.getTime() / 60_000;
    expect(live[0]).toMatchObject({ startMinutes: [start + 30], endMinutes: [start + 90], quantities: [1] });

    // A move that fails its check rolls the release back: the old claim still counts.
    const blocker = claim(resourceId, 200, 260);
    await claimNow(organizationId, [blocker]);
    const into = { ...claim(resourceId, 230, 290), owner: { kind: 'BOOKING' as const, id: 'bkg_blocked' } };
    expect(
      await refusal(moveClaims(db, { organizationId, at: NOW }, { from: moved.owner, to: [into] })),
    ).toBe('BK001');
    const after = await readLiveClaims(db, { organizationId, at: NOW }, [resourceId], {
      startsAt: BASE,
      endsAt: minutesAfter(BASE, 120),
    });
    expect(after[0]!.startMinutes).toEqual([start + 30]);
  });

  it('reads every candidate resource in one statement as integer arrays, blackouts as the whole capacity', async () => {
    const organizationId = await insertOrganization(db, 'compact');
    const busy = await insertResource(db, organizationId, { capacity: 4, id: 'brs_compact_a' });
    const idle = await insertResource(db, organizationId, { capacity: 2, id: 'brs_compact_b' });
    const expired = minutesAfter(NOW, -1);
    await claimNow(organizationId, [
      claim(busy, 60, 120, 2),
      claim(busy, 0, 30, 1),
      claim(busy, 10, 20, 1, expired),
    ]);
    await claimNow(organizationId, [claim(busy, 500, 560, 1)]);
    await db
      .insertInto('booking_blackouts')
      .values({
        organization_id: organizationId,
        id: 'bbo_compact',
        resource_id: idle,
        starts_at: minutesAfter(BASE, 0),
        ends_at: minutesAfter(BASE, 15),
        reason: null,
        created_at: NOW,
        removed_at: null,
      })
      .execute();
    await claimNow(organizationId, [
      { ...claim(idle, 0, 15, 2), owner: { kind: 'BLACKOUT', id: 'bbo_compact' } },
    ]);
    const rows = await readLiveClaims(db, { organizationId, at: NOW }, [idle, busy, 'brs_unknown'], {
      startsAt: BASE,
      endsAt: minutesAfter(BASE, 240),
    });
    const start = BASE.getTime() / 60_000;
    expect(rows).toEqual([
      {
        resourceId: busy,
        capacity: 4,
        status: 'ACTIVE',
        startMinutes: [start, start + 60],
        endMinutes: [start + 30, start + 120],
        quantities: [1, 2],
      },
      {
        resourceId: idle,
        capacity: 2,
        status: 'ACTIVE',
        startMinutes: [start],
        endMinutes: [start + 15],
        quantities: [2],
      },
    ]);
  });

  it('sweeps the peak over one interval in the database exactly as the search’s step function does', async () => {
    const organizationId = await insertOrganization(db, 'peaks');
    const boat = await insertResource(db, organizationId, { capacity: 40, id: 'brs_peaks_a' });
    const quiet = await insertResource(db, organizationId, { capacity: 3, id: 'brs_peaks_b' });
    // Staggered, touching, nested and expired claims; a fixed pseudo-random sequence.
    let seed = 7;
    const next = (limit: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % limit;
    };
    const claims: NewClaim[] = [];
    for (let index = 0; index < 60; index++) {
      const from = next(600);
      claims.push(
        claim(boat, from, from + 15 + next(90), 1 + next(3), index % 7 === 0 ? minutesAfter(NOW, -1) : null),
      );
    }
    // Touching claims on the small resource: 2 units each, never together (capacity 3 takes both).
    claims.push(claim(quiet, 100, 200, 2), claim(quiet, 200, 300, 2), claim(quiet, 250, 260, 1));
    for (const chunk of [claims.slice(0, 31), claims.slice(31)]) await claimNow(organizationId, chunk);
    const ctx = { organizationId, at: NOW };
    const start = BASE.getTime() / 60_000;
    const intervals = [
      [0, 600],
      [100, 200],
      [200, 201],
      [199, 200],
      [250, 260],
      [590, 700],
      [700, 800],
      ...Array.from({ length: 20 }, () => {
        const from = next(650);
        return [from, from + 1 + next(120)];
      }),
    ];
    const all = await readLiveClaims(db, ctx, [boat, quiet], {
      startsAt: minutesAfter(BASE, -1_000),
      endsAt: minutesAfter(BASE, 2_000),
    });
    let constrained = 0;
    for (const [from, until] of intervals as [number, number][]) {
      const free = await readFreeUnits(db, ctx, [boat, quiet, 'brs_unknown'], {
        startMinute: start + from,
        endMinute: start + until,
      });
      const expected = new Map(
        all.map((row) => [row.resourceId, freeUnits(resourceLoad(row), start + from, start + until)]),
      );
      expect({ interval: [from, until], free: Object.fromEntries(free) }).toEqual({
        interval: [from, until],
        free: Object.fromEntries(expected),
      });
      if ([...expected.values()].some((units) => units > 0 && units < 40)) constrained += 1;
    }
    // The intervals meet claims: the comparison is not one of empty resources.
    expect(constrained).toBeGreaterThan(10);
    expect(
      await readFreeUnits(db, ctx, [quiet], { startMinute: start + 150, endMinute: start + 255 }),
    ).toEqual(new Map([[quiet, 0]]));
    expect(
      await readFreeUnits(db, ctx, [quiet], { startMinute: start + 150, endMinute: start + 250 }),
    ).toEqual(new Map([[quiet, 1]]));
  });

  it('names the claims in the way of a lower capacity', async () => {
    const organizationId = await insertOrganization(db, 'conflicts');
    const resourceId = await insertResource(db, organizationId, { capacity: 3 });
    const early = claim(resourceId, 0, 60, 2);
    const late = claim(resourceId, 30, 90, 1);
    const apart = claim(resourceId, 300, 360, 1);
    await claimNow(organizationId, [early, late, apart]);
    const ask = (capacity: number) =>
      findConflictingClaims(
        db,
        { organizationId, at: NOW },
        { resourceId, capacity, extraUnits: 0, from: NOW, until: null },
      );
    expect(await ask(3)).toEqual([]);
    const conflicts = await ask(2);
    expect(conflicts.map((c) => c.id)).toEqual([early.owner.id, late.owner.id]);
    expect(conflicts[0]).toEqual({
      kind: 'BOOKING',
      id: early.owner.id,
      startsAt: BASE.toISOString(),
      endsAt: minutesAfter(BASE, 60).toISOString(),
      quantity: 2,
    });
    expect((await ask(1)).map((c) => c.id)).toEqual([early.owner.id, late.owner.id]);
  });
});

describe('retries', () => {
  const abort = (code: string) => Object.assign(new Error(code), { code });

  it('reruns a transaction aborted by a deadlock or serialization failure', async () => {
    let calls = 0;
    const result = await retryOnAbort(async () => {
      calls += 1;
      if (calls <= CAPACITY_RETRIES) throw abort(calls % 2 ? '40P01' : '40001');
      return 'done';
    });
    expect(result).toBe('done');
    expect(calls).toBe(CAPACITY_RETRIES + 1);
  });

  it('answers STALE_STATE after 3 retries, and never retries a capacity refusal', async () => {
    let calls = 0;
    const stale = retryOnAbort(async () => {
      calls += 1;
      throw abort('40P01');
    });
    await expect(stale).rejects.toMatchObject({ code: 'STALE_STATE', status: 409 });
    expect(calls).toBe(1 + CAPACITY_RETRIES);
    calls = 0;
    await expect(
      retryOnAbort(async () => {
        calls += 1;
        throw abort('BK001');
      }),
    ).rejects.toMatchObject({ code: 'BK001' });
    expect(calls).toBe(1);
  });
});

describe(`capacity under concurrency (${testDatabaseKind})`, () => {
  it('gives the last unit of a capacity-1 resource to exactly one of 200 concurrent claims', async () => {
    const organizationId = await insertOrganization(db, 'last-unit');
    const resourceId = await insertResource(db, organizationId, { capacity: 1 });
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        refusal(claimNow(organizationId, [claim(resourceId, index % 7, 60 + (index % 5))])),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'BK001')).toHaveLength(199);
    expect((await peaksByResource(organizationId)).get(resourceId)).toEqual({ peak: 1, capacity: 1 });
  });

  it('gives the last unit to exactly one of 100 concurrent claims checked at commit, beside locked claimers', async () => {
    const organizationId = await insertOrganization(db, 'last-unit-at-commit');
    const resourceId = await insertResource(db, organizationId, { capacity: 1 });
    // Claimers that lock first (conversions, merchant bookings) race the commit-time checks:
    // neither waits on the other in a cycle (the foreign key's key-share lock meets NO KEY UPDATE).
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, index) => {
        const attempt = claim(resourceId, index % 7, 60 + (index % 5));
        return refusal(
          index % 4 === 0 ? claimNow(organizationId, [attempt]) : claimAtCommit(organizationId, [attempt]),
        );
      }),
    );
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'BK001')).toHaveLength(99);
    expect((await peaksByResource(organizationId)).get(resourceId)).toEqual({ peak: 1, capacity: 1 });
  });

  it('keeps the peak within capacity 5 under staggered concurrent claims of 1 to 3 units', async () => {
    const organizationId = await insertOrganization(db, 'staggered');
    const resources = [
      await insertResource(db, organizationId, { capacity: 5 }),
      await insertResource(db, organizationId, { capacity: 5 }),
    ];
    // Intervals of 30 to 90 minutes starting every 10 minutes over 4 hours: many overlap partially.
    const attempts = Array.from({ length: 160 }, (_, index) => {
      const start = (index * 37) % 240;
      return claim(resources[index % 2]!, start, start + 30 + ((index * 13) % 61), 1 + (index % 3));
    });
    const outcomes = await Promise.all(
      attempts.map((attempt) => refusal(claimNow(organizationId, [attempt]))),
    );
    expect(new Set(outcomes)).toEqual(new Set([undefined, 'BK001']));
    const accepted = outcomes.filter((outcome) => outcome === undefined).length;
    expect(accepted).toBeGreaterThan(4);
    const peaks = await peaksByResource(organizationId);
    for (const resourceId of resources) {
      const { peak, capacity } = peaks.get(resourceId)!;
      expect(peak).toBeLessThanOrEqual(capacity);
    }
    // Peak, not sum: somewhere an accepted claim overlaps others whose units add up past 5.
    const live = await db
      .selectFrom('booking_capacity_claims')
      .select(['resource_id', 'start_minute', 'end_minute', 'quantity'])
      .where('organization_id', '=', organizationId)
      .execute();
    const overlappingSums = live.map((one) =>
      live
        .filter((other) => other.resource_id === one.resource_id)
        .filter((other) => other.start_minute < one.end_minute && one.start_minute < other.end_minute)
        .reduce((sum, other) => sum + other.quantity, 0),
    );
    expect(Math.max(...overlappingSums)).toBeGreaterThan(5);
  });

  it('lets no deadlock reach the caller when multi-resource claims name their resources in opposite orders', async () => {
    const organizationId = await insertOrganization(db, 'opposite');
    const a = await insertResource(db, organizationId, { capacity: 1000 });
    const b = await insertResource(db, organizationId, { capacity: 1000 });
    const c = await insertResource(db, organizationId, { capacity: 1000 });
    const orders = [
      [a, b, c],
      [c, b, a],
      [b, a, c],
      [c, a, b],
    ];
    const outcomes = await Promise.all(
      Array.from({ length: 80 }, (_, index) =>
        refusal(
          claimNow(
            organizationId,
            orders[index % orders.length]!.map((resourceId) => claim(resourceId, 0, 60)),
          ),
        ),
      ),
    );
    expect(outcomes.filter((outcome) => outcome !== undefined)).toEqual([]);
    const peaks = await peaksByResource(organizationId);
    for (const resourceId of [a, b, c]) expect(peaks.get(resourceId)!.peak).toBe(80);
  });
});

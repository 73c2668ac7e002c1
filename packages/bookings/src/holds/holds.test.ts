import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeServiceBody, insertOrganization, insertResource, writeContext } from '../../test/factories.ts';
import { readLiveClaims } from '../capacity/live-claims.ts';
import { sandboxDistanceProvider } from '../delivery/distance-provider.ts';
import { createServiceInputSchema } from '../services/schemas.ts';
import { createService } from '../services/write-service.ts';
import { createHold, releaseHold } from './holds.ts';
import { createHoldInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
let db: Kysely<Database>;
beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
});

const NOW = new Date('2026-07-01T08:00:00.000Z');
const START = '2026-07-02T10:00:00+01:00';
const END = '2026-07-02T11:00:00+01:00';

async function shop(label: string, capacity = 2, guideCapacity = 1) {
  const organizationId = await insertOrganization(db, label);
  const kayaks = await insertResource(db, organizationId, { capacity, name: 'Kayaks' });
  const guide = await insertResource(db, organizationId, {
    capacity: guideCapacity,
    name: 'Guide',
    kind: 'STAFF',
  });
  const daily = [{ start: '09:00', end: '17:00' }];
  const service = await createService(
    db,
    writeContext(organizationId, NOW),
    createServiceInputSchema.parse({
      slug: 'tour',
      name: 'Tour',
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'Europe/Lisbon',
      durations: { choicesMinutes: [60, 120], startIntervalMinutes: 30 },
      availability: {
        weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily, SAT: daily, SUN: daily },
        bufferAfterMinutes: 15,
        maxAdvanceDays: 30,
      },
      partySize: { min: 1, max: 4 },
      requirements: [
        { name: 'Kayaks', resourceIds: [kayaks], units: { mode: 'PER_PARTICIPANT' } },
        {
          name: 'Guide',
          resourceIds: [guide],
          units: { mode: 'PER_BOOKING', count: 1 },
          selection: 'OPTIONAL',
        },
      ],
      pricing: { basis: 'FLAT', amountInCents: 2500, perParticipant: true },
    }),
    { currency: 'EUR' },
  );
  return { organizationId, kayaks, guide, serviceId: service.id };
}

let keys = 0;
function hold(
  organizationId: string,
  body: Record<string, unknown>,
  options: { at?: Date; key?: string; client?: string } = {},
) {
  keys += 1;
  return createHold(
    db,
    { organizationId, at: options.at ?? NOW, clientAddress: options.client ?? `203.0.113.${keys % 250}` },
    createHoldInputSchema.parse({
      startsAt: START,
      endsAt: END,
      quantity: 1,
      customerEmail: `c${keys}@example.com`,
      ...body,
    }),
    {
      currency: 'EUR',
      idempotencyKey: options.key ?? `hold-key-${keys}-0123456789`,
      distance: sandboxDistanceProvider,
    },
  );
}
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { code, details, retryAfterSeconds } = error as {
      code: string;
      details?: { issues?: { path: string }[]; reason?: string };
      retryAfterSeconds?: number;
    };
    return {
      code,
      paths: details?.issues?.map((issue) => issue.path) ?? [],
      reason: details?.reason,
      retryAfterSeconds,
    };
  }
  throw new Error('expected a refusal');
}

describe(`booking holds (${testDatabaseKind})`, () => {
  it('holds an offered interval: claims with the hold’s expiry, times in the service zone, a pricing preview', async () => {
    const { organizationId, serviceId, kayaks, guide } = await shop('hold-create');
    const { hold: created, replayed } = await hold(organizationId, { serviceId, quantity: 2 });
    expect(replayed).toBe(false);
    expect(created).toMatchObject({
      status: 'ACTIVE',
      serverTime: NOW.toISOString(),
      expiresAt: '2026-07-01T08:30:00.000Z',
      expiresInSeconds: 1800,
      serviceId,
      timezone: 'Europe/Lisbon',
      startsAt: '2026-07-02T10:00:00+01:00',
      endsAt: '2026-07-02T11:00:00+01:00',
      quantity: 2,
      resources: [{ resourceId: guide, quantity: 1 }],
      delivery: {
        method: 'PICKUP',
        destinationAddress: null,
        distanceMeters: null,
        band: null,
        feeInCents: 0,
      },
      pricing: {
        authoritative: false,
        currency: 'EUR',
        subtotalInCents: 5000,
        deliveryFeeInCents: 0,
        totalInCents: 5000,
      },
    });
    expect(created.id).toMatch(/^hld_/);
    const live = await readLiveClaims(db, { organizationId, at: NOW }, [kayaks, guide], {
      startsAt: new Date('2026-07-02T09:00:00Z'),
      endsAt: new Date('2026-07-02T10:15:00Z'),
    });
    const end = Date.parse('2026-07-02T10:15:00Z') / 60_000; // 11:00 +01:00 plus the 15-minute buffer
    expect(live.map((row) => [row.quantities, row.endMinutes])).toEqual(
      [kayaks, guide].sort().map((id) => (id === kayaks ? [[2], [end]] : [[1], [end]])),
    );
    // The claims stop counting at the hold's expiry.
    const later = new Date('2026-07-01T08:30:00Z');
    const lapsed = await readLiveClaims(db, { organizationId, at: later }, [kayaks], {
      startsAt: new Date('2026-07-02T09:00:00Z'),
      endsAt: new Date('2026-07-02T10:15:00Z'),
    });
    expect(lapsed[0]!.quantities).toEqual([]);
  });

  it('prices in the store currency read with the service, asking the fallback only when the settings name none', async () => {
    const { organizationId, serviceId } = await shop('currency', 2, 2);
    let asked = 0;
    const withCurrency = (key: string) =>
      createHold(
        db,
        { organizationId, at: NOW, clientAddress: `198.51.100.${key.length}` },
        createHoldInputSchema.parse({
          serviceId,
          startsAt: START,
          endsAt: END,
          quantity: 1,
          customerEmail: `${key}@example.com`,
        }),
        {
          currency: {
            fallback: async () => {
              asked += 1;
              return 'USD';
            },
          },
          idempotencyKey: `currency-key-${key}-0123456789`,
          distance: sandboxDistanceProvider,
        },
      );
    const unset = await withCurrency('first');
    expect(unset.hold.pricing?.currency).toBe('USD');
    expect(asked).toBe(1);

    await db
      .insertInto('organization_settings')
      .values({
        organization_id: organizationId,
        business_profile: JSON.stringify({}),
        checkout_settings: JSON.stringify({ currency: 'GBP' }),
        api_settings: JSON.stringify({}),
        notifications: JSON.stringify({}),
        created_at: NOW,
        updated_at: NOW,
      })
      .onConflict((conflict) =>
        conflict
          .column('organization_id')
          .doUpdateSet({ checkout_settings: JSON.stringify({ currency: 'GBP' }) }),
      )
      .execute();
    const named = await withCurrency('second');
    expect(named.hold.pricing?.currency).toBe('GBP');
    expect(asked).toBe(1);
  });

  it('replays the same key with fresh present-tense fields, and refuses the key for another body', async () => {
    const { organizationId, serviceId } = await shop('hold-replay');
    const body = { serviceId, customerEmail: 'same@example.com' };
    const first = await hold(organizationId, body, { key: 'replay-key-0123456789' });
    const later = new Date(NOW.getTime() + 600_000);
    const again = await hold(organizationId, body, { key: 'replay-key-0123456789', at: later });
    expect(again.replayed).toBe(true);
    expect(again.hold).toEqual({ ...first.hold, serverTime: later.toISOString(), expiresInSeconds: 1200 });
    const other = await refusal(
      hold(organizationId, { ...body, quantity: 2 }, { key: 'replay-key-0123456789' }),
    );
    expect(other.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const claims = await db
      .selectFrom('booking_capacity_claims')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute();
    // One claim per requirement (kayaks, and the optional guide assigned automatically), made once.
    expect(claims).toHaveLength(2);
  });

  it('refuses what a search would not offer: 400 for the shape, 409 BOOKING_SLOT_UNAVAILABLE for the time rules', async () => {
    const { organizationId, serviceId, guide, kayaks } = await shop('hold-rules');
    const cases: [Record<string, unknown>, string[]][] = [
      [{ quantity: 5 }, ['quantity']],
      [{ startsAt: '2026-07-02T10:15:00+01:00', endsAt: '2026-07-02T11:15:00+01:00' }, ['startsAt']],
      [{ endsAt: '2026-07-02T11:30:00+01:00' }, ['endsAt']],
      [
        { resourceSelections: [{ requirementId: 'brq_none', resourceId: guide, quantity: 1 }] },
        ['resourceSelections.0.requirementId'],
      ],
    ];
    for (const [body, paths] of cases) {
      const refused = await refusal(hold(organizationId, { serviceId, ...body }));
      expect(refused, JSON.stringify(body)).toMatchObject({ code: 'VALIDATION_FAILED', paths });
    }
    const requirements = await db
      .selectFrom('booking_requirements')
      .select(['id', 'selection'])
      .where('organization_id', '=', organizationId)
      .orderBy('position')
      .execute();
    const auto = await refusal(
      hold(organizationId, {
        serviceId,
        resourceSelections: [{ requirementId: requirements[0]!.id, resourceId: kayaks, quantity: 1 }],
      }),
    );
    expect(auto.paths).toEqual(['resourceSelections.0.requirementId']);
    for (const [startsAt, endsAt, reason] of [
      ['2026-07-02T17:00:00+01:00', '2026-07-02T18:00:00+01:00', 'OUTSIDE_HOURS'],
      ['2026-08-10T10:00:00+01:00', '2026-08-10T11:00:00+01:00', 'MAX_ADVANCE'],
      ['2026-07-01T08:30:00+01:00', '2026-07-01T09:30:00+01:00', 'OUTSIDE_HOURS'],
    ] as const) {
      expect(await refusal(hold(organizationId, { serviceId, startsAt, endsAt }))).toMatchObject({
        code: 'BOOKING_SLOT_UNAVAILABLE',
        reason,
      });
    }
    const past = await refusal(
      hold(organizationId, {
        serviceId,
        startsAt: '2026-07-01T09:00:00+01:00',
        endsAt: '2026-07-01T10:00:00+01:00',
      }),
    );
    expect(past).toMatchObject({ code: 'BOOKING_SLOT_UNAVAILABLE', reason: 'LEAD_TIME' });
    const other = await insertOrganization(db, 'hold-rules-other');
    expect((await refusal(hold(other, { serviceId }))).code).toBe('RESOURCE_NOT_FOUND');
  });

  it('answers CAPACITY_UNAVAILABLE when the units are taken, until the holding hold expires or is released', async () => {
    const { organizationId, serviceId } = await shop('hold-capacity');
    const first = await hold(
      organizationId,
      { serviceId, quantity: 2 },
      { key: 'first-hold-key-0123456789' },
    );
    expect((await refusal(hold(organizationId, { serviceId }))).code).toBe('CAPACITY_UNAVAILABLE');
    // A different interval that only meets the buffer (11:15 start) is free.
    await hold(organizationId, {
      serviceId,
      startsAt: '2026-07-02T11:30:00+01:00',
      endsAt: '2026-07-02T12:30:00+01:00',
    });
    expect(
      (await refusal(releaseHold(db, { organizationId, at: NOW }, first.hold.id, 'another-key-0123456789')))
        .code,
    ).toBe('RESOURCE_NOT_FOUND');
    await releaseHold(db, { organizationId, at: NOW }, first.hold.id, 'first-hold-key-0123456789');
    await releaseHold(db, { organizationId, at: NOW }, first.hold.id, 'first-hold-key-0123456789');
    const row = await db
      .selectFrom('booking_holds')
      .select('status')
      .where('organization_id', '=', organizationId)
      .where('id', '=', first.hold.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('RELEASED');
    const second = await hold(organizationId, { serviceId, quantity: 2 });
    expect(second.hold.status).toBe('ACTIVE');
    const afterExpiry = new Date('2026-07-01T08:30:00Z');
    expect((await hold(organizationId, { serviceId, quantity: 2 }, { at: afterExpiry })).hold.status).toBe(
      'ACTIVE',
    );

    await db
      .updateTable('booking_holds')
      .set({ status: 'CONVERTED' })
      .where('organization_id', '=', organizationId)
      .where('id', '=', second.hold.id)
      .execute();
    const converted = await refusal(
      releaseHold(db, { organizationId, at: NOW }, second.hold.id, `hold-key-${keys - 1}-0123456789`),
    );
    expect(converted.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('allows 10 active holds per client address and per email, then 429 until the earliest expires', async () => {
    const { organizationId, serviceId } = await shop('hold-limits', 100, 100);
    for (let index = 0; index < 10; index++) {
      await hold(
        organizationId,
        { serviceId },
        { client: '198.51.100.7', at: new Date(NOW.getTime() + index * 1000) },
      );
    }
    const limited = await refusal(
      hold(organizationId, { serviceId }, { client: '198.51.100.7', at: new Date(NOW.getTime() + 60_000) }),
    );
    expect(limited).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfterSeconds: 1740 });
    await hold(organizationId, { serviceId }, { client: '198.51.100.8' });
    for (let index = 0; index < 10; index++) {
      await hold(organizationId, {
        serviceId,
        customerEmail: index % 2 ? 'busy@example.com' : 'Busy@Example.com',
      });
    }
    expect((await refusal(hold(organizationId, { serviceId, customerEmail: 'BUSY@example.com' }))).code).toBe(
      'RATE_LIMIT_EXCEEDED',
    );
  });

  it(`keeps the 10-active-holds limit under 20 concurrent holds of one client, and of one email (${testDatabaseKind})`, async () => {
    const { organizationId, serviceId } = await shop('limit-race', 50, 50);
    const sameClient = await Promise.allSettled(
      Array.from({ length: 20 }, () => hold(organizationId, { serviceId }, { client: '198.51.100.77' })),
    );
    const sameEmail = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        hold(organizationId, { serviceId, customerEmail: 'Busy@Example.com' }),
      ),
    );
    for (const outcomes of [sameClient, sameEmail]) {
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected')
          expect(outcome.reason).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED' });
      }
    }
    const active = await db
      .selectFrom('booking_holds')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'ACTIVE')
      .execute();
    expect(active).toHaveLength(20);
  });

  it(`leaves a one-resource service's last unit to the capacity trigger: one of 30 concurrent holds wins (${testDatabaseKind})`, async () => {
    const organizationId = await insertOrganization(db, 'hold-race-one');
    const boat = await insertResource(db, organizationId, { capacity: 1, name: 'Boat' });
    const daily = [{ start: '09:00', end: '17:00' }];
    const service = await createService(
      db,
      writeContext(organizationId, NOW),
      createServiceInputSchema.parse(
        activeServiceBody([boat], {
          durations: { choicesMinutes: [60] },
          availability: {
            weeklyHours: {
              MON: daily,
              TUE: daily,
              WED: daily,
              THU: daily,
              FRI: daily,
              SAT: daily,
              SUN: daily,
            },
          },
          requirements: [{ name: 'Boat', resourceIds: [boat], units: { mode: 'PER_BOOKING', count: 1 } }],
        }),
      ),
      { currency: 'EUR' },
    );
    const requirementId = (
      await db
        .selectFrom('booking_requirements')
        .select('id')
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow()
    ).id;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, () => hold(organizationId, { serviceId: service.id })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect(outcome.reason).toMatchObject({
          code: 'CAPACITY_UNAVAILABLE',
          details: { requirementId, resourceId: boat },
        });
    }
    // After the winner committed, the unlocked look refuses before any transaction: it names the
    // resource as the trigger's refusal does.
    await expect(hold(organizationId, { serviceId: service.id })).rejects.toMatchObject({
      code: 'CAPACITY_UNAVAILABLE',
      details: { requirementId, resourceId: boat },
    });
    const claims = await readLiveClaims(db, { organizationId, at: NOW }, [boat], {
      startsAt: new Date('2026-07-01T00:00:00Z'),
      endsAt: new Date('2026-07-03T00:00:00Z'),
    });
    expect(claims[0]?.quantities).toEqual([1]);
    // Every refused attempt left nothing: one hold, one claim, one recorded key.
    const holds = await db
      .selectFrom('booking_holds')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(holds).toHaveLength(1);
  });

  it(`gives the last unit to exactly one of 30 concurrent holds (${testDatabaseKind})`, async () => {
    const { organizationId, serviceId } = await shop('hold-race', 1);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, () => hold(organizationId, { serviceId })),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect(outcome.reason).toMatchObject({ code: 'CAPACITY_UNAVAILABLE' });
    }
  });
});

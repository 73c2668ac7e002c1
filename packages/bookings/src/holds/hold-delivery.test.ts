import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, insertResource, writeContext } from '../../test/factories.ts';
import { type DistanceProvider, sandboxDistanceProvider } from '../delivery/distance-provider.ts';
import { parseDeliverySnapshot } from '../delivery/schemas.ts';
import { createServiceInputSchema } from '../services/schemas.ts';
import { createService } from '../services/write-service.ts';
import { createHold } from './holds.ts';
import { createHoldInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
let db: Kysely<Database>;
beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
});

const NOW = new Date('2026-07-01T08:00:00.000Z');
const ORIGIN = { line1: 'Rua Augusta 1', city: 'Lisboa', postalCode: '1100-048', country: 'PT' };
const BANDS = [
  { label: 'Centre', maxDistanceMeters: 5000, feeInCents: 500 },
  { label: 'Greater Lisbon', maxDistanceMeters: 20_000, feeInCents: 1500 },
];
const ADDRESS = {
  line1: '  Rua do Ouro 2 ',
  city: 'Lisboa',
  postalCode: ' 12000 ',
  country: 'pt',
};
const NORMALIZED = {
  line1: 'Rua do Ouro 2',
  line2: null,
  city: 'Lisboa',
  state: null,
  postalCode: '12000',
  country: 'PT',
};

async function shop(label: string, delivery: Record<string, unknown>, pricing?: Record<string, unknown>) {
  const organizationId = await insertOrganization(db, label);
  const vans = await insertResource(db, organizationId, { capacity: 5, name: 'Vans' });
  const daily = [{ start: '09:00', end: '17:00' }];
  const service = await createService(
    db,
    writeContext(organizationId, NOW),
    createServiceInputSchema.parse({
      slug: 'rental',
      name: 'Rental',
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'Europe/Lisbon',
      durations: { choicesMinutes: [60] },
      availability: { weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily } },
      requirements: [{ name: 'Vans', resourceIds: [vans], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 4000 },
      ...(pricing ?? {}),
      delivery,
    }),
    { currency: 'EUR' },
  );
  return { organizationId, serviceId: service.id };
}

/** The sandbox, counting its calls and whether the key was recorded when it was asked. */
function countingProvider(organizationId: string, inner: DistanceProvider = sandboxDistanceProvider) {
  const seen: { idempotencyRows: number }[] = [];
  const provider: DistanceProvider = {
    kind: 'sandbox',
    async distance(request) {
      const rows = await db
        .selectFrom('idempotency_keys')
        .select('key_hash')
        .where('organization_id', '=', organizationId)
        .execute();
      seen.push({ idempotencyRows: rows.length });
      return inner.distance(request);
    },
  };
  return { provider, seen };
}

let keys = 0;
function hold(
  organizationId: string,
  serviceId: string,
  delivery: unknown,
  options: { key?: string; distance?: DistanceProvider; customerId?: string; email?: string } = {},
) {
  keys += 1;
  const body: Record<string, unknown> = {
    serviceId,
    startsAt: '2026-07-02T10:00:00+01:00',
    endsAt: '2026-07-02T11:00:00+01:00',
    quantity: 1,
    customerEmail: options.email ?? `d${keys}@example.com`,
  };
  if (delivery !== undefined) body.delivery = delivery;
  return createHold(
    db,
    {
      organizationId,
      at: NOW,
      clientAddress: `192.0.2.${keys % 250}`,
      customerId: options.customerId ?? null,
    },
    createHoldInputSchema.parse(body),
    {
      currency: 'EUR',
      idempotencyKey: options.key ?? `delivery-key-${keys}-0123456789`,
      distance: options.distance ?? sandboxDistanceProvider,
    },
  );
}

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { code, status, details } = error as {
      code: string;
      status: number;
      details?: { issues?: { path: string }[] };
    };
    return { code, status, paths: details?.issues?.map((issue) => issue.path) ?? [] };
  }
  throw new Error('expected a refusal');
}

const countRows = async (organizationId: string) => ({
  holds: (
    await db.selectFrom('booking_holds').select('id').where('organization_id', '=', organizationId).execute()
  ).length,
  claims: (
    await db
      .selectFrom('booking_capacity_claims')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute()
  ).length,
  keys: (
    await db
      .selectFrom('idempotency_keys')
      .select('key_hash')
      .where('organization_id', '=', organizationId)
      .execute()
  ).length,
});

describe(`hold delivery (${testDatabaseKind})`, () => {
  it('PICKUP_ONLY accepts pickup only: absent, null or { method: PICKUP }; delivery is 400 BOOKING_DELIVERY_INVALID', async () => {
    const { organizationId, serviceId } = await shop('dlv-pickup', { mode: 'PICKUP_ONLY' });
    for (const delivery of [undefined, null, { method: 'PICKUP' }]) {
      const { hold: created } = await hold(organizationId, serviceId, delivery);
      expect(created.delivery).toEqual({
        method: 'PICKUP',
        destinationAddress: null,
        distanceMeters: null,
        band: null,
        feeInCents: 0,
      });
      expect(created.pricing).toMatchObject({
        subtotalInCents: 4000,
        deliveryFeeInCents: 0,
        totalInCents: 4000,
      });
      await db
        .updateTable('booking_holds')
        .set({ status: 'RELEASED' })
        .where('organization_id', '=', organizationId)
        .execute();
      await db
        .updateTable('booking_capacity_claims')
        .set({ released_at: NOW })
        .where('organization_id', '=', organizationId)
        .execute();
    }
    const refused = await refusal(
      hold(organizationId, serviceId, { method: 'DELIVERY', destinationAddress: ADDRESS }),
    );
    expect(refused).toEqual({ code: 'BOOKING_DELIVERY_INVALID', status: 400, paths: ['delivery.method'] });
  });

  it('REQUIRED refuses pickup with 400 BOOKING_DELIVERY_INVALID; a flat fee is charged without measuring', async () => {
    const { organizationId, serviceId } = await shop('dlv-flat', {
      mode: 'REQUIRED',
      originAddress: ORIGIN,
      flatFeeInCents: 750,
    });
    expect(await refusal(hold(organizationId, serviceId, undefined))).toMatchObject({
      code: 'BOOKING_DELIVERY_INVALID',
      paths: ['delivery'],
    });
    expect(await refusal(hold(organizationId, serviceId, { method: 'PICKUP' }))).toMatchObject({
      code: 'BOOKING_DELIVERY_INVALID',
      paths: ['delivery.method'],
    });
    const { provider, seen } = countingProvider(organizationId);
    // 99999 would be unreachable: a flat fee never asks.
    const { hold: created } = await hold(
      organizationId,
      serviceId,
      { method: 'DELIVERY', destinationAddress: { ...ADDRESS, postalCode: '99999' } },
      { distance: provider },
    );
    expect(seen).toEqual([]);
    expect(created.delivery).toEqual({
      method: 'DELIVERY',
      destinationAddress: { ...NORMALIZED, postalCode: '99999' },
      distanceMeters: null,
      band: null,
      feeInCents: 750,
    });
    expect(created.pricing).toMatchObject({
      subtotalInCents: 4000,
      deliveryFeeInCents: 750,
      totalInCents: 4750,
    });
    const row = await db
      .selectFrom('booking_holds')
      .select('snapshot')
      .where('organization_id', '=', organizationId)
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(parseDeliverySnapshot(row.snapshot)).toEqual({
      method: 'DELIVERY',
      address: { ...NORMALIZED, postalCode: '99999' },
      addressSummary: 'Lisboa, 99999, PT',
      distanceMeters: null,
      band: null,
      area: null,
      feeInCents: 750,
      evaluatedAt: NOW.toISOString(),
    });
  });

  it('OPTIONAL rates by band: the first band at or above the distance, its label the area; the deposit counts the fee', async () => {
    const { organizationId, serviceId } = await shop(
      'dlv-bands',
      { mode: 'OPTIONAL', originAddress: ORIGIN, bands: BANDS },
      { checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 10 } } },
    );
    const { provider, seen } = countingProvider(organizationId);
    const pickup = await hold(organizationId, serviceId, { method: 'PICKUP' }, { distance: provider });
    expect(pickup.hold.delivery.method).toBe('PICKUP');
    expect(seen).toEqual([]);
    const cases: [string, number, string, number][] = [
      ['5000', 5000, 'Centre', 500],
      ['5001', 5001, 'Greater Lisbon', 1500],
      ['1220-000', 20_000, 'Greater Lisbon', 1500],
    ];
    for (const [postalCode, meters, label, fee] of cases) {
      const { hold: created } = await hold(
        organizationId,
        serviceId,
        { method: 'DELIVERY', destinationAddress: { ...ADDRESS, postalCode, line2: ' 2º ', state: '   ' } },
        { distance: provider },
      );
      const band = BANDS.find((candidate) => candidate.label === label)!;
      expect(created.delivery).toEqual({
        method: 'DELIVERY',
        destinationAddress: { ...NORMALIZED, postalCode, line2: '2º' },
        distanceMeters: meters,
        band: { label, maxDistanceMeters: band.maxDistanceMeters },
        feeInCents: fee,
      });
      expect(created.pricing).toEqual({
        authoritative: false,
        currency: 'EUR',
        subtotalInCents: 4000,
        deliveryFeeInCents: fee,
        totalInCents: 4000 + fee,
        depositInCents: Math.floor(((4000 + fee) * 10 + 50) / 100),
      });
      const row = await db
        .selectFrom('booking_holds')
        .select('snapshot')
        .where('organization_id', '=', organizationId)
        .where('id', '=', created.id)
        .executeTakeFirstOrThrow();
      expect(parseDeliverySnapshot(row.snapshot)).toMatchObject({
        addressSummary: `Lisboa, ${postalCode}, PT`,
        distanceMeters: meters,
        area: label,
        feeInCents: fee,
      });
    }
    // The provider was asked before the key was recorded (outside the transaction that records it).
    expect(seen).toHaveLength(3);
    for (const [index, call] of seen.entries()) expect(call.idempotencyRows).toBe(index + 1);
    // (one row per earlier hold, the pickup's included: never the row of the hold being quoted)
  });

  it('answers each delivery failure with its code and path, and holds or records nothing', async () => {
    const { organizationId, serviceId } = await shop('dlv-errors', {
      mode: 'OPTIONAL',
      originAddress: ORIGIN,
      bands: BANDS,
    });
    const at = (postalCode: string) => ({
      method: 'DELIVERY',
      destinationAddress: { ...ADDRESS, postalCode },
    });
    expect(await refusal(hold(organizationId, serviceId, at('00000')))).toEqual({
      code: 'BOOKING_DELIVERY_DESTINATION_INVALID',
      status: 400,
      paths: ['delivery.destinationAddress'],
    });
    expect(await refusal(hold(organizationId, serviceId, at('20001')))).toEqual({
      code: 'BOOKING_DELIVERY_OUT_OF_RANGE',
      status: 400,
      paths: ['delivery.destinationAddress'],
    });
    expect(await refusal(hold(organizationId, serviceId, at('99999')))).toEqual({
      code: 'BOOKING_DELIVERY_UNAVAILABLE',
      status: 503,
      paths: ['delivery.destinationAddress'],
    });
    const failing: DistanceProvider = {
      kind: 'google',
      distance: async () => {
        throw new Error('socket hang up');
      },
    };
    expect(await refusal(hold(organizationId, serviceId, at('1000'), { distance: failing }))).toMatchObject({
      code: 'BOOKING_DELIVERY_UNAVAILABLE',
      status: 503,
    });
    const noRoute: DistanceProvider = { kind: 'google', distance: async () => ({ status: 'NO_ROUTE' }) };
    expect((await refusal(hold(organizationId, serviceId, at('1000'), { distance: noRoute }))).code).toBe(
      'BOOKING_DELIVERY_OUT_OF_RANGE',
    );
    expect(await countRows(organizationId)).toEqual({ holds: 0, claims: 0, keys: 0 });
  });

  it('a provider failure records nothing: the same key runs again once the provider answers', async () => {
    const { organizationId, serviceId } = await shop('dlv-retry', {
      mode: 'REQUIRED',
      originAddress: ORIGIN,
      bands: BANDS,
    });
    let isDown = true;
    const flaky: DistanceProvider = {
      kind: 'google',
      distance: async (request) => {
        if (isDown) throw new Error('timeout');
        return sandboxDistanceProvider.distance(request);
      },
    };
    const delivery = { method: 'DELIVERY', destinationAddress: { ...ADDRESS, postalCode: '4000' } };
    const key = 'delivery-retry-key-0123456789';
    expect(
      (
        await refusal(
          hold(organizationId, serviceId, delivery, { key, distance: flaky, email: 'retry@example.com' }),
        )
      ).code,
    ).toBe('BOOKING_DELIVERY_UNAVAILABLE');
    isDown = false;
    const first = await hold(organizationId, serviceId, delivery, {
      key,
      distance: flaky,
      email: 'retry@example.com',
    });
    expect(first.replayed).toBe(false);
    expect(first.hold.delivery).toMatchObject({ distanceMeters: 4000, feeInCents: 500 });
    const again = await hold(organizationId, serviceId, delivery, {
      key,
      distance: flaky,
      email: 'retry@example.com',
    });
    expect(again.replayed).toBe(true);
    expect(again.hold.delivery).toEqual(first.hold.delivery);
    expect(await countRows(organizationId)).toEqual({ holds: 1, claims: 1, keys: 1 });
  });

  it('refuses delivery shapes with 400 VALIDATION_FAILED at their paths', () => {
    const base = {
      serviceId: 'bks_x',
      startsAt: '2026-07-02T10:00:00+01:00',
      endsAt: '2026-07-02T11:00:00+01:00',
      quantity: 1,
      customerEmail: 'a@example.com',
    };
    const cases: [unknown, string][] = [
      [{ method: 'PICKUP', destinationAddress: ADDRESS }, 'delivery.destinationAddress'],
      [{ method: 'DELIVERY' }, 'delivery.destinationAddress'],
      [{ method: 'COURIER' }, 'delivery.method'],
      [
        { method: 'DELIVERY', destinationAddress: { ...ADDRESS, line1: '   ' } },
        'delivery.destinationAddress.line1',
      ],
      [
        { method: 'DELIVERY', destinationAddress: { ...ADDRESS, city: 'x'.repeat(201) } },
        'delivery.destinationAddress.city',
      ],
      [
        { method: 'DELIVERY', destinationAddress: { ...ADDRESS, postalCode: '1'.repeat(33) } },
        'delivery.destinationAddress.postalCode',
      ],
      [
        { method: 'DELIVERY', destinationAddress: { ...ADDRESS, country: 'PRT' } },
        'delivery.destinationAddress.country',
      ],
      [{ method: 'DELIVERY', destinationAddress: { ...ADDRESS, floor: 2 } }, 'delivery.destinationAddress'],
      [{ method: 'PICKUP', note: 'x' }, 'delivery'],
      ['PICKUP', 'delivery'],
    ];
    for (const [delivery, path] of cases) {
      const parsed = createHoldInputSchema.safeParse({ ...base, delivery });
      expect(parsed.success, JSON.stringify(delivery)).toBe(false);
      const paths = parsed.error!.issues.map((issue) => issue.path.join('.'));
      expect(paths, JSON.stringify(delivery)).toContain(path);
    }
  });

  it('links the hold to the customer of a valid session, and leaves guests unlinked', async () => {
    const { organizationId, serviceId } = await shop('dlv-customer', { mode: 'PICKUP_ONLY' });
    await db
      .insertInto('customers')
      .values({
        organization_id: organizationId,
        id: 'cus_holder',
        email: 'holder@example.com',
        email_verified_at: NOW,
      })
      .execute();
    const linked = await hold(organizationId, serviceId, undefined, { customerId: 'cus_holder' });
    const guest = await hold(organizationId, serviceId, undefined, {}).catch(() => undefined);
    const rows = await db
      .selectFrom('booking_holds')
      .select(['id', 'customer_id'])
      .where('organization_id', '=', organizationId)
      .execute();
    expect(rows.find((row) => row.id === linked.hold.id)?.customer_id).toBe('cus_holder');
    // The resource has room for both.
    expect(guest).toBeDefined();
    expect(rows.find((row) => row.id === guest?.hold.id)?.customer_id).toBeNull();
  });
});

describe('delivery snapshot parsing', () => {
  const valid = {
    method: 'DELIVERY',
    address: NORMALIZED,
    addressSummary: 'Lisboa, 12000, PT',
    distanceMeters: 12_000,
    band: { label: 'Greater Lisbon', maxDistanceMeters: 20_000 },
    area: 'Greater Lisbon',
    feeInCents: 1500,
    evaluatedAt: NOW.toISOString(),
  };

  it('reads a frozen delivery back', () => {
    expect(parseDeliverySnapshot({ timezone: 'UTC', delivery: valid })).toEqual(valid);
  });

  it('answers 409 STALE_STATE DELIVERY_SNAPSHOT_INVALID for a missing or malformed snapshot', () => {
    const broken: unknown[] = [
      null,
      {},
      { delivery: null },
      { delivery: { ...valid, feeInCents: -1 } },
      { delivery: { ...valid, method: 'COURIER' } },
      { delivery: { ...valid, address: null } },
      { delivery: { ...valid, area: 'Elsewhere' } },
      { delivery: { ...valid, distanceMeters: 30_000 } },
      { delivery: { ...valid, band: null } },
      { delivery: { ...valid, method: 'PICKUP' } },
      { delivery: { ...valid, extra: true } },
    ];
    for (const snapshot of broken) {
      let caught: unknown;
      try {
        parseDeliverySnapshot(snapshot);
      } catch (error) {
        caught = error;
      }
      expect(caught, JSON.stringify(snapshot)).toMatchObject({
        code: 'STALE_STATE',
        status: 409,
        details: { reason: 'DELIVERY_SNAPSHOT_INVALID' },
      });
    }
  });
});

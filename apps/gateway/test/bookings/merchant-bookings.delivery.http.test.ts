import { testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchableDistance } from '../support/distance.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

const distance = switchableDistance();

let h: Harness;
let shop: RoleFixture;

const ORIGIN = { line1: 'Rua Augusta 1', city: 'Lisboa', postalCode: '1100-048', country: 'PT' };
const BANDS = [
  { label: 'Centre', maxDistanceMeters: 5000, feeInCents: 500 },
  { label: 'Greater Lisbon', maxDistanceMeters: 20_000, feeInCents: 1500 },
];
const delivered = (postalCode: string, country = 'fr') => ({
  method: 'DELIVERY',
  destinationAddress: { line1: ' 2 Rue de Rivoli', city: 'Paris', postalCode, country },
});

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

let sequence = 0;
/** A resource of capacity 10 and an ACTIVE service over it, open every day 08:00 to 20:00 (UTC). */
async function service(delivery: Record<string, unknown>): Promise<string> {
  sequence += 1;
  const resource = await ok<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-resources', {
      name: `Van ${sequence}`,
      kind: 'VEHICLE',
      capacity: 10,
    }),
    201,
  );
  const daily = [{ start: '08:00', end: '20:00' }];
  const created = await ok<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-services', {
      slug: `van-${sequence}`,
      name: 'Van',
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'UTC',
      durations: { choicesMinutes: [60] },
      availability: {
        weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily, SAT: daily, SUN: daily },
      },
      requirements: [{ name: 'Van', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 3000 },
      delivery,
    }),
    201,
  );
  return created.id;
}

let keys = 0;
const newKey = () => {
  keys += 1;
  return `merchant-delivery-key-${keys.toString().padStart(6, '0')}`;
};

function book(serviceId: string, delivery: unknown, key: string) {
  return h.app.request('/api/v1/merchant/bookings', {
    method: 'POST',
    headers: {
      'x-organization-slug': shop.slug,
      authorization: `Bearer ${shop.users.owner.token}`,
      'content-type': 'application/json',
      'x-idempotency-key': key,
    },
    body: JSON.stringify({
      serviceId,
      startsAt: '2026-07-10T10:00:00Z',
      endsAt: '2026-07-10T11:00:00Z',
      quantity: 1,
      customer: { name: 'Ada', email: 'ada@example.test' },
      ...(delivery === undefined ? {} : { delivery }),
    }),
  });
}

interface Detail {
  id: string;
  delivery: Record<string, unknown> | null;
  price: Record<string, unknown>;
}

const bookingsOf = async () =>
  (
    await h.database.db
      .selectFrom('bookings')
      .select('id')
      .where('organization_id', '=', shop.organizationId)
      .execute()
  ).length;

beforeAll(async () => {
  h = await createHarness({ env: { TAX_PROVIDER: 'sandbox' }, distance: distance.provider });
  h.clock.set('2026-07-01T08:00:00Z');
  shop = await createRoleFixture(h, 'bkg-delivery', ['bookings:manage']);
});
afterAll(async () => {
  await h.close();
});

describe(`merchant booking delivery over HTTP (${testDatabaseKind})`, () => {
  it('freezes the delivery, its fee and the sandbox tax of its country; a replay answers it without measuring again', async () => {
    const serviceId = await service({ mode: 'OPTIONAL', originAddress: ORIGIN, bands: BANDS });
    const key = newKey();
    const calls = distance.state.calls;
    const booking = await ok<Detail>(await book(serviceId, delivered('12000'), key), 201);
    expect(distance.state.calls).toBe(calls + 1);
    expect(booking.delivery).toEqual({
      method: 'DELIVERY',
      destinationAddress: {
        line1: '2 Rue de Rivoli',
        line2: null,
        city: 'Paris',
        state: null,
        postalCode: '12000',
        country: 'FR',
      },
      distanceMeters: 12_000,
      band: { label: 'Greater Lisbon', maxDistanceMeters: 20_000 },
      feeInCents: 1500,
    });
    // FR is 20 % in the sandbox, on the service and the delivery.
    expect(booking.price).toMatchObject({
      subtotalInCents: 3000,
      deliveryFeeInCents: 1500,
      taxInCents: 900,
      totalInCents: 5400,
    });

    distance.state.isDown = true;
    try {
      const replay = await book(serviceId, delivered('12000'), key);
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(((await replay.json()) as Detail).id).toBe(booking.id);
    } finally {
      distance.state.isDown = false;
    }
    expect(distance.state.calls).toBe(calls + 1);
  });

  it('taxes pickup in the business country, recorded without adding it when prices include tax', async () => {
    await ok(
      await shop.call('owner', 'PATCH', '/merchant/settings', {
        businessProfile: { address: { line1: 'Unter den Linden 1', city: 'Berlin', country: 'DE' } },
        checkoutSettings: { taxIncludedInPrices: true },
      }),
      200,
    );
    try {
      const serviceId = await service({ mode: 'PICKUP_ONLY' });
      const booking = await ok<Detail>(await book(serviceId, { method: 'PICKUP' }, newKey()), 201);
      expect(booking.delivery).toBeNull();
      // 3000 holds 19 % German tax: 3000 × 19 / 119, rounded half up.
      expect(booking.price).toMatchObject({ subtotalInCents: 3000, taxInCents: 479, totalInCents: 3000 });
    } finally {
      await ok(
        await shop.call('owner', 'PATCH', '/merchant/settings', {
          checkoutSettings: { taxIncludedInPrices: false },
        }),
        200,
      );
    }
  });

  it('answers the delivery refusals with their codes and paths, booking nothing; a provider failure lets the same key run again', async () => {
    const pickupOnly = await service({ mode: 'PICKUP_ONLY' });
    const banded = await service({ mode: 'REQUIRED', originAddress: ORIGIN, bands: BANDS });
    const before = await bookingsOf();
    const cases: [string, unknown, number, string, string][] = [
      [pickupOnly, delivered('1000'), 400, 'BOOKING_DELIVERY_INVALID', 'delivery.method'],
      [banded, undefined, 400, 'BOOKING_DELIVERY_INVALID', 'delivery'],
      [
        banded,
        delivered('00000'),
        400,
        'BOOKING_DELIVERY_DESTINATION_INVALID',
        'delivery.destinationAddress',
      ],
      [banded, delivered('20001'), 400, 'BOOKING_DELIVERY_OUT_OF_RANGE', 'delivery.destinationAddress'],
      [banded, delivered('99999'), 503, 'BOOKING_DELIVERY_UNAVAILABLE', 'delivery.destinationAddress'],
      [
        banded,
        { method: 'PICKUP', destinationAddress: delivered('1000').destinationAddress },
        400,
        'VALIDATION_FAILED',
        'delivery.destinationAddress',
      ],
    ];
    for (const [serviceId, delivery, status, code, path] of cases) {
      const error = await expectError(await book(serviceId, delivery, newKey()), status, code);
      expect(error.details?.issues?.map((issue) => issue.path)).toEqual([path]);
    }

    const key = newKey();
    distance.state.isDown = true;
    try {
      await expectError(await book(banded, delivered('4000'), key), 503, 'BOOKING_DELIVERY_UNAVAILABLE');
    } finally {
      distance.state.isDown = false;
    }
    expect(await bookingsOf()).toBe(before);
    const retried = await book(banded, delivered('4000'), key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(((await retried.json()) as Detail).price).toMatchObject({
      deliveryFeeInCents: 500,
      taxInCents: 700,
    });
    expect(await bookingsOf()).toBe(before + 1);
  });
});

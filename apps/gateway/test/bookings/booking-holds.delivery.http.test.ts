import { hostedAppOrigin } from '@commerce/api';
import { loadConfig } from '@commerce/core';
import { createSession, upsertVerifiedCustomer } from '@commerce/customers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { switchableDistance } from '../support/distance.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

const distance = switchableDistance();

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
const services: Record<'pickup' | 'optional' | 'required' | 'flat', string> = {
  pickup: '',
  optional: '',
  required: '',
  flat: '',
};

const ORIGIN = { line1: 'Rua Augusta 1', city: 'Lisboa', postalCode: '1100-048', country: 'PT' };
const BANDS = [
  { label: 'Centre', maxDistanceMeters: 5000, feeInCents: 500 },
  { label: 'Greater Lisbon', maxDistanceMeters: 20_000, feeInCents: 1500 },
];
const address = (postalCode: string) => ({
  line1: ' Rua do Ouro 2',
  city: 'Lisboa',
  postalCode,
  country: 'pt',
});

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function deliveredService(slug: string, delivery: Record<string, unknown>): Promise<string> {
  const resource = await ok<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-resources', {
      name: slug,
      kind: 'VEHICLE',
      capacity: 50,
    }),
    201,
  );
  const daily = [{ start: '09:00', end: '17:00' }];
  const service = await ok<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-services', {
      slug,
      name: slug,
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'Europe/Lisbon',
      durations: { choicesMinutes: [60] },
      availability: { weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily } },
      requirements: [{ name: 'Van', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 4000 },
      checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 50 } },
      delivery,
    }),
    201,
  );
  return service.id;
}

beforeAll(async () => {
  h = await createHarness({ env: { TRUST_PROXY: 'true' }, distance: distance.provider });
  h.clock.set('2026-07-01T08:00:00Z');
  shop = await createRoleFixture(h, 'dlv-shop');
  other = await createRoleFixture(h, 'dlv-other');
  services.pickup = await deliveredService('pickup', { mode: 'PICKUP_ONLY' });
  services.optional = await deliveredService('optional', {
    mode: 'OPTIONAL',
    originAddress: ORIGIN,
    bands: BANDS,
  });
  services.required = await deliveredService('required', {
    mode: 'REQUIRED',
    originAddress: ORIGIN,
    bands: BANDS,
  });
  services.flat = await deliveredService('flat', {
    mode: 'REQUIRED',
    originAddress: ORIGIN,
    flatFeeInCents: 900,
  });
});
afterAll(async () => {
  await h.close();
});

let requests = 0;
function holdRequest(
  service: keyof typeof services,
  delivery: unknown,
  options: { key?: string; headers?: Record<string, string>; slug?: string } = {},
) {
  requests += 1;
  const body: Record<string, unknown> = {
    serviceId: services[service],
    startsAt: '2026-07-02T10:00:00+01:00',
    endsAt: '2026-07-02T11:00:00+01:00',
    quantity: 1,
    customerEmail: 'delivery@example.com',
  };
  if (delivery !== undefined) body.delivery = delivery;
  return h.app.request('/api/v1/public/booking-holds', {
    method: 'POST',
    headers: {
      'x-organization-slug': options.slug ?? shop.slug,
      'content-type': 'application/json',
      'x-idempotency-key': options.key ?? `http-delivery-key-${requests}-000`,
      'x-forwarded-for': `198.51.100.${requests % 250}`,
      ...options.headers,
    },
    body: JSON.stringify(body),
  });
}

interface HoldBody {
  id: string;
  delivery: Record<string, unknown>;
  pricing: Record<string, unknown>;
}

describe('booking hold delivery over HTTP', () => {
  it('answers pickup, flat-fee and rated delivery with the delivery object and the fee in the preview', async () => {
    const pickup = await ok<HoldBody>(await holdRequest('optional', { method: 'PICKUP' }), 201);
    expect(pickup.delivery).toEqual({
      method: 'PICKUP',
      destinationAddress: null,
      distanceMeters: null,
      band: null,
      feeInCents: 0,
    });
    const flat = await ok<HoldBody>(
      await holdRequest('flat', { method: 'DELIVERY', destinationAddress: address('99999') }),
      201,
    );
    expect(flat.delivery).toEqual({
      method: 'DELIVERY',
      destinationAddress: {
        line1: 'Rua do Ouro 2',
        line2: null,
        city: 'Lisboa',
        state: null,
        postalCode: '99999',
        country: 'PT',
      },
      distanceMeters: null,
      band: null,
      feeInCents: 900,
    });
    const rated = await ok<HoldBody>(
      await holdRequest('required', { method: 'DELIVERY', destinationAddress: address(' 1200-300 ') }),
      201,
    );
    expect(rated.delivery).toMatchObject({
      distanceMeters: 1_200_300 % 200_000,
      band: { label: 'Centre', maxDistanceMeters: 5000 },
      feeInCents: 500,
    });
    expect(rated.pricing).toEqual({
      authoritative: false,
      currency: expect.any(String),
      subtotalInCents: 4000,
      deliveryFeeInCents: 500,
      totalInCents: 4500,
      depositInCents: 2250,
    });
  });

  it('answers each delivery 400 with its code and details.issues path', async () => {
    const cases: [keyof typeof services, unknown, number, string, string][] = [
      [
        'optional',
        { method: 'PICKUP', destinationAddress: address('1000') },
        400,
        'VALIDATION_FAILED',
        'delivery.destinationAddress',
      ],
      [
        'optional',
        { method: 'DELIVERY', destinationAddress: { ...address('1000'), floor: 3 } },
        400,
        'VALIDATION_FAILED',
        'delivery.destinationAddress',
      ],
      [
        'optional',
        { method: 'DELIVERY', destinationAddress: { ...address('1000'), line1: 'x'.repeat(301) } },
        400,
        'VALIDATION_FAILED',
        'delivery.destinationAddress.line1',
      ],
      [
        'pickup',
        { method: 'DELIVERY', destinationAddress: address('1000') },
        400,
        'BOOKING_DELIVERY_INVALID',
        'delivery.method',
      ],
      ['required', undefined, 400, 'BOOKING_DELIVERY_INVALID', 'delivery'],
      ['required', { method: 'PICKUP' }, 400, 'BOOKING_DELIVERY_INVALID', 'delivery.method'],
      [
        'optional',
        { method: 'DELIVERY', destinationAddress: address('00000') },
        400,
        'BOOKING_DELIVERY_DESTINATION_INVALID',
        'delivery.destinationAddress',
      ],
      [
        'optional',
        { method: 'DELIVERY', destinationAddress: address('20001') },
        400,
        'BOOKING_DELIVERY_OUT_OF_RANGE',
        'delivery.destinationAddress',
      ],
      [
        'optional',
        { method: 'DELIVERY', destinationAddress: address('99999') },
        503,
        'BOOKING_DELIVERY_UNAVAILABLE',
        'delivery.destinationAddress',
      ],
    ];
    for (const [service, delivery, status, code, path] of cases) {
      const error = await expectError(await holdRequest(service, delivery), status, code);
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(delivery),
      ).toContain(path);
    }
  });

  it('a provider outage is 503 with nothing held or recorded: the same key succeeds once it is back', async () => {
    const key = 'http-delivery-outage-key-0001';
    const delivery = { method: 'DELIVERY', destinationAddress: address('4000') };
    distance.state.isDown = true;
    try {
      const down = await expectError(
        await holdRequest('required', delivery, { key }),
        503,
        'BOOKING_DELIVERY_UNAVAILABLE',
      );
      expect(down.details?.issues?.[0]?.path).toBe('delivery.destinationAddress');
    } finally {
      distance.state.isDown = false;
    }
    const calls = distance.state.calls;
    const created = await holdRequest('required', delivery, { key });
    expect(created.headers.get('idempotent-replayed')).toBeNull();
    const hold = await ok<HoldBody>(created, 201);
    expect(distance.state.calls).toBe(calls + 1);
    expect(hold.delivery).toMatchObject({ distanceMeters: 4000, feeInCents: 500 });
    const replay = await holdRequest('required', delivery, { key });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await ok<HoldBody>(replay, 201)).id).toBe(hold.id);
  });

  it('links the hold to the customer of a valid session of the store; other sessions are guests', async () => {
    const db = h.database.db;
    const at = h.clock.now();
    const customer = await upsertVerifiedCustomer(
      db,
      { organizationId: shop.organizationId, at },
      'holder@example.com',
    );
    const session = await createSession(db, { organizationId: shop.organizationId, at }, customer.id);
    const stranger = await upsertVerifiedCustomer(
      db,
      { organizationId: other.organizationId, at },
      'holder@example.com',
    );
    const foreign = await createSession(db, { organizationId: other.organizationId, at }, stranger.id);
    const linked = await ok<HoldBody>(
      await holdRequest('pickup', undefined, { headers: { authorization: `Bearer ${session.token}` } }),
      201,
    );
    const foreignSession = await ok<HoldBody>(
      await holdRequest('pickup', undefined, { headers: { authorization: `Bearer ${foreign.token}` } }),
      201,
    );
    const garbage = await ok<HoldBody>(
      await holdRequest('pickup', undefined, { headers: { authorization: 'Bearer s1_not-a-session' } }),
      201,
    );
    // A cookie session from an origin the store does not allow is a guest (no cross-site linking).
    const crossSite = await ok<HoldBody>(
      await holdRequest('pickup', undefined, {
        headers: { cookie: `__Host-session=${session.token}`, origin: 'https://evil.example' },
      }),
      201,
    );
    const sameSite = await ok<HoldBody>(
      await holdRequest('pickup', undefined, {
        headers: {
          cookie: `__Host-session=${session.token}`,
          origin: hostedAppOrigin(loadConfig({}).hostedCheckoutUrl, shop.slug) ?? '',
        },
      }),
      201,
    );
    const rows = await db
      .selectFrom('booking_holds')
      .select(['id', 'customer_id'])
      .where('organization_id', '=', shop.organizationId)
      .where('id', 'in', [linked.id, foreignSession.id, garbage.id, crossSite.id, sameSite.id])
      .execute();
    const customerOf = new Map(rows.map((row) => [row.id, row.customer_id]));
    expect(customerOf.get(linked.id)).toBe(customer.id);
    expect(customerOf.get(foreignSession.id)).toBeNull();
    expect(customerOf.get(garbage.id)).toBeNull();
    expect(customerOf.get(crossSite.id)).toBeNull();
    expect(customerOf.get(sameSite.id)).toBe(customer.id);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRoomService } from '../support/bookings.ts';
import { createHarness, expectError, expectJson, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * The booking checkout pages' reads: `GET /public/booking-holds/{id}`, the hold as its checkout page
 * shows it (what is booked, what is due now and later, and the time left), proven by the key it was
 * created with; `GET /public/booking-payments/{token}`, what a payment link pays for.
 */
let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let deposit: { serviceId: string; resourceId: string };
let payLater: string;

beforeAll(async () => {
  h = await createHarness();
  h.clock.set('2026-07-01T08:00:00Z');
  shop = await createRoleFixture(h, 'hold-read-shop');
  other = await createRoleFixture(h, 'hold-read-other');
  const resource = await expectJson<{ id: string }>(
    await shop.call('owner', 'POST', '/merchant/booking-resources', {
      name: 'Studio A',
      kind: 'SPACE',
      capacity: 2,
    }),
    201,
  );
  deposit = await createRoomService(shop, {
    slug: 'deposit',
    name: 'Recording session',
    amountInCents: 5000,
    extra: {
      checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 20 }, holdMinutes: 10 },
      requirements: [
        {
          name: 'Studio',
          resourceIds: [resource.id],
          units: { mode: 'PER_BOOKING', count: 1 },
          selection: 'OPTIONAL',
        },
      ],
    },
  });
  deposit.resourceId = resource.id;
  payLater = (
    await createRoomService(shop, {
      slug: 'later',
      name: 'Tour',
      extra: { checkout: { paymentMode: 'PAY_LATER' } },
    })
  ).serviceId;
});
afterAll(async () => {
  await h.close();
});

function request(method: string, path: string, slug: string, key?: string, body?: unknown) {
  return h.app.request(`/api/v1${path}`, {
    method,
    headers: {
      'x-organization-slug': slug,
      'content-type': 'application/json',
      ...(key ? { 'x-idempotency-key': key } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function hold(serviceId: string, key: string, extra: Record<string, unknown> = {}) {
  return expectJson<{ id: string }>(
    await request('POST', '/public/booking-holds', shop.slug, key, {
      serviceId,
      startsAt: '2026-07-02T10:00:00+01:00',
      endsAt: '2026-07-02T11:00:00+01:00',
      quantity: 1,
      customerEmail: 'ada@example.com',
      ...extra,
    }),
    201,
  );
}

describe('GET /public/booking-holds/{id}', () => {
  it('answers what is held, what is due now and later, and the time left, counted at each read', async () => {
    const key = 'hold-read-key-000001';
    const held = await hold(deposit.serviceId, key, {
      resourceSelections: [
        {
          requirementId: await requirementOf(deposit.serviceId),
          resourceId: deposit.resourceId,
          quantity: 1,
        },
      ],
    });
    const read = await expectJson<Record<string, unknown>>(
      await request('GET', `/public/booking-holds/${held.id}`, shop.slug, key),
      200,
    );
    expect(read).toMatchObject({
      id: held.id,
      status: 'ACTIVE',
      serviceName: 'Recording session',
      durationMinutes: 60,
      timezone: 'Europe/Lisbon',
      startsAt: '2026-07-02T10:00:00+01:00',
      expiresAt: '2026-07-01T08:10:00.000Z',
      expiresInSeconds: 600,
      resources: [{ resourceId: deposit.resourceId, name: 'Studio A', quantity: 1 }],
      payment: {
        paymentMode: 'DEPOSIT',
        approvalMode: 'AUTOMATIC',
        totalInCents: 5000,
        dueNowInCents: 1000,
        dueLaterInCents: 4000,
      },
    });

    h.clock.set('2026-07-01T08:09:01Z');
    const later = await expectJson<{ expiresInSeconds: number; status: string }>(
      await request('GET', `/public/booking-holds/${held.id}`, shop.slug, key),
      200,
    );
    expect(later).toMatchObject({ status: 'ACTIVE', expiresInSeconds: 59 });
    h.clock.set('2026-07-01T08:10:00Z');
    const lapsed = await expectJson<{ expiresInSeconds: number; status: string }>(
      await request('GET', `/public/booking-holds/${held.id}`, shop.slug, key),
      200,
    );
    expect(lapsed).toMatchObject({ status: 'EXPIRED', expiresInSeconds: 0 });
    h.clock.set('2026-07-01T08:00:00Z');
  });

  it('says a pay-later booking is paid later', async () => {
    const key = 'hold-read-key-000002';
    const held = await hold(payLater, key);
    const read = await expectJson<{ payment: unknown; resources: unknown[] }>(
      await request('GET', `/public/booking-holds/${held.id}`, shop.slug, key),
      200,
    );
    expect(read.payment).toMatchObject({
      paymentMode: 'PAY_LATER',
      totalInCents: 3000,
      dueNowInCents: 0,
      dueLaterInCents: 3000,
    });
    // An automatically assigned resource stays private, as in every other read.
    expect(read.resources).toEqual([]);
  });

  it('is the neutral 404 without the hold’s own key, for an unknown id and for another store; 400 without a key', async () => {
    const key = 'hold-read-key-000003';
    const held = await hold(payLater, key);
    await expectError(
      await request('GET', `/public/booking-holds/${held.id}`, shop.slug, 'another-key-000000001'),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await request('GET', '/public/booking-holds/hld_unknown', shop.slug, key),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await request('GET', `/public/booking-holds/${held.id}`, other.slug, key),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect((await request('GET', `/public/booking-holds/${held.id}`, shop.slug)).status).toBe(400);
  });

  it('is in the OpenAPI document with its key header, its schema and its errors', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            parameters: { name: string; in: string; required: boolean }[];
            responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
          }
        >
      >;
    };
    const operation = document.paths['/public/booking-holds/{id}']!.get!;
    expect(operation.parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'id', in: 'path', required: true }),
        expect.objectContaining({ name: 'x-idempotency-key', in: 'header', required: true }),
      ]),
    );
    expect(operation.responses['200']!.content!['application/json']!.schema.$ref).toBe(
      '#/components/schemas/BookingHoldCheckout',
    );
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '404', '429']));
  });
});

describe('GET /public/booking-payments/{token}', () => {
  it('answers the amount, the link’s end and the booking it pays; the neutral 404 otherwise', async () => {
    const key = 'hold-read-key-000004';
    const held = await hold(deposit.serviceId, key, {
      startsAt: '2026-07-03T10:00:00+01:00',
      endsAt: '2026-07-03T11:00:00+01:00',
    });
    const conversion = await expectJson<{
      flow: string;
      checkoutToken: string;
      paymentExpiresAt: string;
      code: string;
    }>(
      await request('POST', `/public/booking-holds/${held.id}/checkout`, shop.slug, key, {
        customerName: 'Ada Lovelace',
        customerEmail: 'ada@example.com',
      }),
      200,
    );
    expect(conversion.flow).toBe('PAYMENT');
    const read = await expectJson<Record<string, unknown>>(
      await request('GET', `/public/booking-payments/${conversion.checkoutToken}`, shop.slug),
      200,
    );
    expect(read).toMatchObject({
      serverTime: '2026-07-01T08:00:00.000Z',
      expiresAt: conversion.paymentExpiresAt,
      currency: 'USD',
      amountDueInCents: 1000,
      bookings: [
        {
          serviceName: 'Recording session',
          timezone: 'Europe/Lisbon',
          startsAt: '2026-07-03T10:00:00+01:00',
          endsAt: '2026-07-03T11:00:00+01:00',
          durationMinutes: 60,
          quantity: 1,
          status: 'PENDING_PAYMENT',
          totalInCents: 5000,
          paidInCents: 0,
          balanceDueInCents: 5000,
        },
      ],
    });
    await expectError(
      await request('GET', '/public/booking-payments/c1_unknown', shop.slug),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await request('GET', `/public/booking-payments/${conversion.checkoutToken}`, other.slug),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});

async function requirementOf(serviceId: string): Promise<string> {
  const service = await expectJson<{ requirements: { id: string }[] }>(
    await shop.call('owner', 'GET', `/merchant/booking-services/${serviceId}`),
    200,
  );
  return service.requirements[0]!.id;
}

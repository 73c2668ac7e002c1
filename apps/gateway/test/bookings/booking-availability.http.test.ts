import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let roomService: { id: string; slug: string };
let draftService: { id: string; slug: string };
let otherService: { id: string; slug: string };

const NINE_TO_FIVE = [{ start: '09:00', end: '17:00' }];

async function resource(fixture: RoleFixture, name: string, capacity: number): Promise<string> {
  const response = await fixture.call('owner', 'POST', '/merchant/booking-resources', {
    name,
    kind: 'SPACE',
    capacity,
  });
  if (response.status !== 201) throw new Error(`resource: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

let services = 0;

/** A bookable meeting room (one room per booking, 60 or 120 minutes), created through the merchant route. */
async function createRoomService(
  fixture: RoleFixture,
  pool: { selection: 'AUTO' | 'OPTIONAL'; resourceIds: string[] },
  status: 'ACTIVE' | 'DRAFT' = 'ACTIVE',
): Promise<{ id: string; slug: string }> {
  services += 1;
  const response = await fixture.call('owner', 'POST', '/merchant/booking-services', {
    slug: `meeting-room-${services}`,
    name: 'Meeting room',
    status,
    periodMode: 'FIXED_DURATION',
    timezone: 'America/New_York',
    durations: { choicesMinutes: [60, 120], startIntervalMinutes: 30 },
    availability: {
      weeklyHours: {
        MON: NINE_TO_FIVE,
        TUE: NINE_TO_FIVE,
        WED: NINE_TO_FIVE,
        THU: NINE_TO_FIVE,
        FRI: NINE_TO_FIVE,
      },
      bufferAfterMinutes: 15,
    },
    partySize: { min: 1, max: 6 },
    requirements: [
      {
        name: 'Room',
        resourceIds: pool.resourceIds,
        units: { mode: 'PER_BOOKING', count: 1 },
        selection: pool.selection,
      },
    ],
    pricing: { basis: 'PER_PERIOD', amountInCents: 2500, period: 'HOUR' },
    checkout: { paymentMode: 'PAY_NOW' },
  });
  if (response.status !== 201) throw new Error(`service: ${response.status} ${await response.text()}`);
  const created = (await response.json()) as { id: string; slug: string };
  return { id: created.id, slug: created.slug };
}

const MONDAY = {
  startsAt: '2026-03-09T00:00:00-04:00',
  endsAt: '2026-03-10T00:00:00-04:00',
  timezone: 'America/New_York',
  quantity: 1,
  durationMinutes: 120,
};

function searchAs(fixture: RoleFixture, body: unknown) {
  return fixture.call('anonymous', 'POST', '/public/booking-availability/search', body);
}

interface SearchResult {
  serviceId: string;
  truncated: boolean;
  slots: {
    startsAt: string;
    endsAt: string;
    pricing: Record<string, unknown>;
    resourceOptions: { requirementId: string; resourceId: string; available: number }[];
  }[];
}

beforeAll(async () => {
  h = await createHarness();
  h.clock.set('2026-03-01T12:00:00Z');
  shop = await createRoleFixture(h, 'bk-availability');
  other = await createRoleFixture(h, 'bk-availability-other');
  const roomA = await resource(shop, 'Room A', 1);
  // The booking of the example, 10:00 to 12:00 with its 15-minute buffer, held here by a blackout.
  const blackout = await shop.call('owner', 'POST', `/merchant/booking-resources/${roomA}/blackouts`, {
    startsAt: '2026-03-09T10:00:00-04:00',
    endsAt: '2026-03-09T12:15:00-04:00',
  });
  expect(blackout.status).toBe(201);
  roomService = await createRoomService(shop, { selection: 'AUTO', resourceIds: [roomA] });
  draftService = await createRoomService(shop, { selection: 'AUTO', resourceIds: [roomA] }, 'DRAFT');
  otherService = await createRoomService(other, {
    selection: 'AUTO',
    resourceIds: [await resource(other, 'B', 1)],
  });
});
afterAll(async () => {
  await h.close();
});

describe('POST /public/booking-availability/search', () => {
  it('answers the six slots of the worked example, offsets of the request timezone, priced', async () => {
    const response = await searchAs(shop, { serviceId: roomService.id, ...MONDAY });
    expect(response.status).toBe(200);
    const result = (await response.json()) as SearchResult;
    expect(result.serviceId).toBe(roomService.id);
    expect(result.truncated).toBe(false);
    expect(result.slots.map((slot) => slot.startsAt)).toEqual([
      '2026-03-09T12:30:00-04:00',
      '2026-03-09T13:00:00-04:00',
      '2026-03-09T13:30:00-04:00',
      '2026-03-09T14:00:00-04:00',
      '2026-03-09T14:30:00-04:00',
      '2026-03-09T15:00:00-04:00',
    ]);
    expect(result.slots[0]).toEqual({
      startsAt: '2026-03-09T12:30:00-04:00',
      endsAt: '2026-03-09T14:30:00-04:00',
      pricing: { authoritative: false, currency: 'USD', subtotalInCents: 5000, depositInCents: null },
      resourceOptions: [],
    });

    const bySlug = await searchAs(shop, {
      serviceSlug: roomService.slug,
      ...MONDAY,
      timezone: 'Europe/Berlin',
    });
    const berlin = (await bySlug.json()) as SearchResult;
    expect(berlin.slots[0]?.startsAt).toBe('2026-03-09T17:30:00+01:00');
  });

  it('lists the pool with free units for an OPTIONAL requirement and filters by a selection', async () => {
    const free = await resource(shop, 'Room free', 1);
    const busy = await resource(shop, 'Room busy', 1);
    await shop.call('owner', 'POST', `/merchant/booking-resources/${busy}/blackouts`, {
      startsAt: '2026-03-10T09:00:00-04:00',
      endsAt: '2026-03-10T09:30:00-04:00',
    });
    const service = await createRoomService(shop, { selection: 'OPTIONAL', resourceIds: [free, busy] });
    const body = {
      serviceId: service.id,
      startsAt: '2026-03-10T09:00:00-04:00',
      endsAt: '2026-03-10T10:00:00-04:00',
      timezone: 'America/New_York',
      quantity: 1,
      durationMinutes: 60,
    };
    const result = (await (await searchAs(shop, body)).json()) as SearchResult;
    expect(
      result.slots.map((slot) => slot.resourceOptions.map((option) => [option.resourceId, option.available])),
    ).toEqual([
      [[free, 1]],
      [
        [free, 1],
        [busy, 1],
      ],
    ]);
    const requirementId = result.slots[0]?.resourceOptions[0]?.requirementId;
    const selected = (await (
      await searchAs(shop, { ...body, selection: { requirementId, resourceId: busy, quantity: 1 } })
    ).json()) as SearchResult;
    expect(selected.slots.map((slot) => slot.startsAt)).toEqual(['2026-03-10T09:30:00-04:00']);
  });

  it('answers bad input with 400 VALIDATION_FAILED in the envelope, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...MONDAY, serviceId: roomService.id, startsAt: '2026-03-09T00:00:30-04:00' }, 'startsAt'],
      [{ ...MONDAY, serviceId: roomService.id, startsAt: '2026-03-09T00:00:00' }, 'startsAt'],
      [{ ...MONDAY, serviceId: roomService.id, timezone: undefined }, 'timezone'],
      [{ ...MONDAY, serviceId: roomService.id, timezone: 'Mars/Olympus' }, 'timezone'],
      [{ ...MONDAY, serviceId: roomService.id, serviceSlug: roomService.slug }, 'serviceId'],
      [{ ...MONDAY }, 'serviceId'],
      [{ ...MONDAY, serviceId: roomService.id, endsAt: '2026-04-09T00:01:00-04:00' }, 'endsAt'],
      [{ ...MONDAY, serviceId: roomService.id, endsAt: MONDAY.startsAt }, 'endsAt'],
      [{ ...MONDAY, serviceId: roomService.id, quantity: 7 }, 'quantity'],
      [{ ...MONDAY, serviceId: roomService.id, quantity: 0 }, 'quantity'],
      [{ ...MONDAY, serviceId: roomService.id, durationMinutes: undefined }, 'durationMinutes'],
      [{ ...MONDAY, serviceId: roomService.id, durationMinutes: 90 }, 'durationMinutes'],
      [
        {
          ...MONDAY,
          serviceId: roomService.id,
          selection: { requirementId: 'brq_x', resourceId: 'brs_x', quantity: 1 },
        },
        'selection.requirementId',
      ],
    ];
    for (const [body, path] of cases) {
      const error = await expectError(await searchAs(shop, body), 400, 'VALIDATION_FAILED');
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const unknownKey = await searchAs(shop, { ...MONDAY, serviceId: roomService.id, sort: 'price' });
    await expectError(unknownKey, 400, 'VALIDATION_FAILED');
    const notJson = await h.app.request('/api/v1/public/booking-availability/search', {
      method: 'POST',
      headers: { 'x-organization-slug': shop.slug, 'content-type': 'application/json' },
      body: '{',
    });
    await expectError(notJson, 400, 'VALIDATION_FAILED');
  });
});

describe('booking availability security', () => {
  it('is the neutral 404 for draft, unknown and other tenants’ services', async () => {
    for (const reference of [
      { serviceId: draftService.id },
      { serviceSlug: draftService.slug },
      { serviceId: 'bks_unknown' },
      { serviceId: otherService.id },
      { serviceSlug: otherService.slug },
    ]) {
      const response = await searchAs(shop, { ...MONDAY, ...reference });
      const error = await expectError(response, 404, 'RESOURCE_NOT_FOUND');
      expect(error.message).toBe('Booking service not found');
    }
  });

  it('needs the tenant header', async () => {
    const response = await h.app.request('/api/v1/public/booking-availability/search', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...MONDAY, serviceId: roomService.id }),
    });
    await expectError(response, 400, 'TENANT_REQUIRED');
  });

  it('is rate-limited per store and client: 429 with Retry-After', async () => {
    const limited = await createHarness({ env: { RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '2' } });
    try {
      await limited.provision('limited-availability', 'owner@limited-availability.test');
      const search = () =>
        limited.app.request('/api/v1/public/booking-availability/search', {
          method: 'POST',
          headers: { 'x-organization-slug': 'limited-availability', 'content-type': 'application/json' },
          body: JSON.stringify({ ...MONDAY, serviceId: 'bks_none' }),
        });
      expect((await search()).status).toBe(404);
      expect((await search()).status).toBe(404);
      const response = await search();
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
      expect((await errorOf(response)).code).toBe('RATE_LIMIT_EXCEEDED');
    } finally {
      await limited.close();
    }
  }, 60_000); // A second gateway on its own database: slow to start on a loaded PostgreSQL.
});

describe('the OpenAPI document', () => {
  it('describes the search with its body, result and error codes', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    const operation = document.paths['/public/booking-availability/search']?.post;
    expect(operation).toBeDefined();
    expect(JSON.stringify(operation?.requestBody)).toContain('durationMinutes');
    expect(Object.keys(operation?.responses ?? {}).sort()).toEqual(
      expect.arrayContaining(['200', '400', '404', '429']),
    );
    expect(JSON.stringify(operation?.responses['200'])).toContain('BookingAvailabilitySearchResult');
    expect(JSON.stringify(document.components.schemas.BookingAvailabilitySlot)).toContain('resourceOptions');
  });
});

import { newId } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, insertResource } from '../../test/factories.ts';
import { withCapacityLock } from '../capacity/capacity-lock.ts';
import { insertClaims } from '../capacity/claims.ts';
import { searchAvailability } from './search-availability.ts';
import { availabilitySearchRequestSchema } from './search-schemas.ts';

let handle: DatabaseHandle;
let db: Kysely<Database>;

beforeAll(async () => {
  handle = await createTestDatabase();
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
});

const NOW = new Date('2026-07-01T07:00:00Z'); // 08:00 in Lisbon
const EVERY_DAY = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'];

/** The kayak tour of 14.7's first example, written as rows (services CRUD lives beside, in part A). */
async function kayakTour(organizationId: string, status: 'ACTIVE' | 'DRAFT' = 'ACTIVE') {
  const guides = [await insertResource(db, organizationId, { capacity: 1, kind: 'STAFF' })];
  guides.push(await insertResource(db, organizationId, { capacity: 1, kind: 'STAFF' }));
  const fleet = await insertResource(db, organizationId, { capacity: 12 });
  const serviceId = newId('bks');
  const slug = `kayak-tour-${serviceId.slice(-6).toLowerCase()}`;
  await db
    .insertInto('booking_services')
    .values({
      organization_id: organizationId,
      id: serviceId,
      slug,
      name: 'Kayak tour',
      description: null,
      status,
      item_id: null,
      period_mode: 'FIXED_SLOT',
      timezone: 'Europe/Lisbon',
      durations: JSON.stringify({ startIntervalMinutes: 30 }),
      fixed_slots: JSON.stringify([
        { weekdays: EVERY_DAY, startTime: '09:00', durationMinutes: 180 },
        { weekdays: EVERY_DAY, startTime: '17:00', durationMinutes: 180 },
      ]),
      availability: JSON.stringify({ leadTimeMinutes: 120, bufferBeforeMinutes: 30 }),
      party_size_min: 1,
      party_size_max: 8,
      pricing: JSON.stringify({ basis: 'FLAT', amountInCents: 4500, perParticipant: true }),
      checkout: JSON.stringify({ paymentMode: 'DEPOSIT', deposit: { percent: 25 } }),
      policies: JSON.stringify({}),
      delivery: JSON.stringify({ mode: 'PICKUP_ONLY' }),
      agreement: sql<string>`null`,
      archived_at: null,
      created_at: NOW,
      updated_at: NOW,
    })
    .execute();
  const requirements = [
    {
      id: newId('brq'),
      pool: guides,
      units_mode: 'PER_BOOKING' as const,
      units_count: 1,
      selection: 'AUTO' as const,
    },
    {
      id: newId('brq'),
      pool: [fleet],
      units_mode: 'PER_PARTICIPANT' as const,
      units_count: null,
      selection: 'AUTO' as const,
    },
  ];
  for (const [position, requirement] of requirements.entries()) {
    await db
      .insertInto('booking_requirements')
      .values({
        organization_id: organizationId,
        id: requirement.id,
        service_id: serviceId,
        position,
        name: `Requirement ${position}`,
        units_mode: requirement.units_mode,
        units_count: requirement.units_count,
        selection: requirement.selection,
        created_at: NOW,
      })
      .execute();
    await db
      .insertInto('booking_requirement_resources')
      .values(
        requirement.pool.map((resourceId, index) => ({
          organization_id: organizationId,
          requirement_id: requirement.id,
          resource_id: resourceId,
          position: index,
        })),
      )
      .execute();
  }
  return { serviceId, slug, guides, fleet };
}

async function hold(
  organizationId: string,
  resourceId: string,
  quantity: number,
  from: string,
  to: string,
  expiresAt: Date | null = null,
) {
  const ctx = { organizationId, at: NOW };
  await withCapacityLock(db, ctx, [resourceId], (trx) =>
    insertClaims(trx, ctx, [
      {
        resourceId,
        quantity,
        startsAt: new Date(from),
        endsAt: new Date(to),
        expiresAt,
        // Booking-owned: a hold owner must be a booking_holds row (foreign key).
        owner: { kind: 'BOOKING', id: newId('bkg') },
      },
    ]),
  );
}

function search(organizationId: string, body: Record<string, unknown>) {
  const request = availabilitySearchRequestSchema.parse({
    startsAt: '2026-07-01T00:00+01:00',
    endsAt: '2026-07-03T00:00+01:00',
    timezone: 'Europe/Lisbon',
    quantity: 4,
    ...body,
  });
  return searchAvailability(db, { organizationId, at: NOW }, { request, currency: 'EUR' });
}

describe('searchAvailability on the database', () => {
  it('finds the worked example by id and by slug from live claims', async () => {
    const organizationId = await insertOrganization(db, 'availability');
    const tour = await kayakTour(organizationId);
    await hold(organizationId, tour.fleet, 10, '2026-07-01T16:30Z', '2026-07-01T19:00Z');
    // An expired hold and a claim on another day do not count.
    await hold(
      organizationId,
      tour.fleet,
      12,
      '2026-07-02T07:30Z',
      '2026-07-02T11:00Z',
      new Date('2026-07-01T06:00Z'),
    );
    await hold(organizationId, tour.fleet, 12, '2026-07-03T07:30Z', '2026-07-03T11:00Z');

    const byId = await search(organizationId, { serviceId: tour.serviceId });
    expect(byId).toEqual({
      serviceId: tour.serviceId,
      truncated: false,
      slots: [
        {
          startsAt: '2026-07-02T09:00:00+01:00',
          endsAt: '2026-07-02T12:00:00+01:00',
          pricing: { authoritative: false, currency: 'EUR', subtotalInCents: 18_000, depositInCents: 4500 },
          resourceOptions: [],
        },
        {
          startsAt: '2026-07-02T17:00:00+01:00',
          endsAt: '2026-07-02T20:00:00+01:00',
          pricing: { authoritative: false, currency: 'EUR', subtotalInCents: 18_000, depositInCents: 4500 },
          resourceOptions: [],
        },
      ],
    });
    expect(await search(organizationId, { serviceSlug: tour.slug })).toEqual(byId);
  });

  it('reads claims under the buffer before the window', async () => {
    // The 2 July 09:00 slot claims from 08:30 (buffer before): 10 kayaks held until 08:31 leave 2.
    const slotsWithClaimUntil = async (until: string) => {
      const organizationId = await insertOrganization(db, 'availability');
      const tour = await kayakTour(organizationId);
      await hold(organizationId, tour.fleet, 10, '2026-07-02T06:00Z', until);
      const result = await search(organizationId, {
        serviceId: tour.serviceId,
        startsAt: '2026-07-02T09:00+01:00',
        endsAt: '2026-07-02T10:00+01:00',
      });
      return result.slots.length;
    };
    expect(await slotsWithClaimUntil('2026-07-02T07:31Z')).toBe(0);
    expect(await slotsWithClaimUntil('2026-07-02T07:30Z')).toBe(1);
  });

  it('leaves archived resources out of the pools', async () => {
    const organizationId = await insertOrganization(db, 'availability');
    const tour = await kayakTour(organizationId);
    await db
      .updateTable('booking_resources')
      .set({ status: 'ARCHIVED', archived_at: NOW })
      .where('organization_id', '=', organizationId)
      .where('id', 'in', tour.guides)
      .execute();
    expect((await search(organizationId, { serviceId: tour.serviceId })).slots).toEqual([]);
  });

  it('is the neutral 404 for a draft, unknown or other tenant service, and 400 for the service rules', async () => {
    const organizationId = await insertOrganization(db, 'availability');
    const otherId = await insertOrganization(db, 'availability');
    const draft = await kayakTour(organizationId, 'DRAFT');
    const foreign = await kayakTour(otherId);
    for (const reference of [
      { serviceId: draft.serviceId },
      { serviceSlug: 'nope' },
      { serviceId: foreign.serviceId },
    ]) {
      await expect(search(organizationId, reference)).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    }
    await expect(search(otherId, { serviceId: foreign.serviceId, quantity: 9 })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});

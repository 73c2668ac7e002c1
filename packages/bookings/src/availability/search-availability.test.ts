import { newId } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureOwnerBookings,
  insertOrganization,
  insertResource,
  writeContext,
} from '../../test/factories.ts';
import { withCapacityLock } from '../capacity/capacity-lock.ts';
import { insertClaims } from '../capacity/claims.ts';
import { createServiceInputSchema } from '../services/schemas.ts';
import { createService } from '../services/write-service.ts';
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
let tours = 0;

/** A fixed-slot kayak tour (two guides, a fleet of 12 kayaks), created through the services use case. */
async function kayakTour(organizationId: string, status: 'ACTIVE' | 'DRAFT' = 'ACTIVE') {
  const guides = [await insertResource(db, organizationId, { capacity: 1, kind: 'STAFF' })];
  guides.push(await insertResource(db, organizationId, { capacity: 1, kind: 'STAFF' }));
  const fleet = await insertResource(db, organizationId, { capacity: 12 });
  tours += 1;
  const service = await createService(
    db,
    writeContext(organizationId, NOW),
    createServiceInputSchema.parse({
      slug: `kayak-tour-${tours}`,
      name: 'Kayak tour',
      status,
      periodMode: 'FIXED_SLOT',
      timezone: 'Europe/Lisbon',
      fixedSlots: [
        { weekdays: EVERY_DAY, startTime: '09:00', durationMinutes: 180 },
        { weekdays: EVERY_DAY, startTime: '17:00', durationMinutes: 180 },
      ],
      availability: { leadTimeMinutes: 120, bufferBeforeMinutes: 30 },
      partySize: { min: 1, max: 8 },
      requirements: [
        { name: 'Guide', resourceIds: guides, units: { mode: 'PER_BOOKING', count: 1 } },
        { name: 'Kayaks', resourceIds: [fleet], units: { mode: 'PER_PARTICIPANT' } },
      ],
      pricing: { basis: 'FLAT', amountInCents: 4500, perParticipant: true },
      checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 25 } },
    }),
    { currency: 'EUR' },
  );
  return { serviceId: service.id, slug: service.slug, guides, fleet };
}

async function claim(
  organizationId: string,
  resourceId: string,
  quantity: number,
  from: string,
  to: string,
  expiresAt: Date | null = null,
) {
  const ctx = { organizationId, at: NOW };
  const owner = newId('bkg');
  await ensureOwnerBookings(db, organizationId, [owner]);
  await withCapacityLock(db, ctx, [resourceId], (trx) =>
    insertClaims(trx, ctx, [
      {
        resourceId,
        quantity,
        startsAt: new Date(from),
        endsAt: new Date(to),
        expiresAt,
        // Booking-owned: the owner must be a row (foreign key), like a hold's.
        owner: { kind: 'BOOKING', id: owner },
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
    await claim(organizationId, tour.fleet, 10, '2026-07-01T16:30Z', '2026-07-01T19:00Z');
    // An expired claim and a claim on another day do not count.
    await claim(
      organizationId,
      tour.fleet,
      12,
      '2026-07-02T07:30Z',
      '2026-07-02T11:00Z',
      new Date('2026-07-01T06:00Z'),
    );
    await claim(organizationId, tour.fleet, 12, '2026-07-03T07:30Z', '2026-07-03T11:00Z');

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
      await claim(organizationId, tour.fleet, 10, '2026-07-02T06:00Z', until);
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

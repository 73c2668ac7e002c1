import { newId } from '@commerce/core';
import type { BookingStatus, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { unusedBookingCode } from '../src/bookings/booking-codes.ts';
import { withCapacityLock } from '../src/capacity/capacity-lock.ts';
import { insertClaims } from '../src/capacity/claims.ts';
import { createServiceInputSchema } from '../src/services/schemas.ts';
import { createService } from '../src/services/write-service.ts';
import { insertOrganization, insertResource, writeContext } from './factories.ts';

/** Factories for booking tests: a shop open around the clock, and bookings written in any state. */

export const EMAIL = { emailFrom: 'shop@example.test', linkBase: 'https://pay.example.test' };

const allDay = [{ start: '00:00', end: '24:00' }];
const ALWAYS = { MON: allDay, TUE: allDay, WED: allDay, THU: allDay, FRI: allDay, SAT: allDay, SUN: allDay };

/** A tenant with one resource of `capacity` (a STAFF resource of `userId` when given) and an ACTIVE service over it. */
export async function bookingShop(
  db: Kysely<Database>,
  label: string,
  options: {
    capacity?: number;
    now: Date;
    userId?: string;
    serviceOverrides?: Record<string, unknown>;
  },
) {
  const organizationId = await insertOrganization(db, label);
  const resourceId = await insertResource(db, organizationId, {
    capacity: options.capacity ?? 1,
    name: options.userId ? 'Guide' : 'Room',
    kind: options.userId ? 'STAFF' : 'SPACE',
  });
  if (options.userId) {
    await db
      .insertInto('merchant_users')
      .values({
        id: options.userId,
        subject: `subject-${options.userId}`,
        email: `${options.userId}@shop.test`,
        email_verified: true,
        name: 'Guide',
      })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
    await db
      .updateTable('booking_resources')
      .set({ user_id: options.userId })
      .where('organization_id', '=', organizationId)
      .where('id', '=', resourceId)
      .execute();
  }
  const service = await createService(
    db,
    writeContext(organizationId, options.now),
    createServiceInputSchema.parse({
      slug: 'session',
      name: 'Session',
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'UTC',
      durations: { choicesMinutes: [60, 90, 120], startIntervalMinutes: 30 },
      availability: { weeklyHours: ALWAYS, maxAdvanceDays: 60 },
      partySize: { min: 1, max: 4 },
      requirements: [{ name: 'Room', resourceIds: [resourceId], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 4000 },
      checkout: { approvalMode: 'MANUAL', paymentMode: 'PAY_LATER' },
      ...options.serviceOverrides,
    }),
    { currency: 'EUR' },
  );
  return { organizationId, resourceId, serviceId: service.id };
}

/**
 * A booking row written directly in `status`, given `resourceId`; claimed
 * (through the capacity lock and trigger) when `PENDING_PAYMENT` (until
 * `paymentExpiresAt`) or `CONFIRMED`.
 */
export async function insertBooking(
  db: Kysely<Database>,
  input: {
    organizationId: string;
    serviceId: string;
    resourceId: string;
    status: BookingStatus;
    startsAt: Date;
    endsAt: Date;
    at: Date;
    amountDueNowInCents?: number;
    requestExpiresAt?: Date | null;
    paymentExpiresAt?: Date | null;
    email?: string;
    assigneeUserIds?: string[];
  },
): Promise<string> {
  const id = newId('bkg', input.at);
  await db
    .insertInto('bookings')
    .values({
      organization_id: input.organizationId,
      id,
      code: await unusedBookingCode(db, input.organizationId),
      service_id: input.serviceId,
      hold_id: null,
      status: input.status,
      starts_at: input.startsAt,
      ends_at: input.endsAt,
      quantity: 1,
      timezone: 'UTC',
      customer_id: null,
      customer_name: 'Ada Customer',
      customer_email: input.email ?? 'ada@example.test',
      customer_phone: null,
      customer_note: 'Window seat',
      billing_address: null,
      delivery: null,
      snapshot: JSON.stringify({ name: 'Session', slug: 'session' }),
      currency: 'EUR',
      subtotal_in_cents: 4000,
      total_in_cents: 4000,
      amount_due_now_in_cents: input.amountDueNowInCents ?? 0,
      sales_record_id: null,
      payment_expires_at: input.paymentExpiresAt ?? null,
      request_expires_at: input.requestExpiresAt ?? null,
      voided_at: null,
      assignee_user_ids: input.assigneeUserIds ?? [],
      history: JSON.stringify([
        { at: input.at.toISOString(), from: null, to: input.status, actor: 'CUSTOMER' },
      ]),
      created_at: input.at,
      updated_at: input.at,
    })
    .execute();
  const requirement = await db
    .selectFrom('booking_requirements')
    .select('id')
    .where('organization_id', '=', input.organizationId)
    .where('service_id', '=', input.serviceId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('booking_allocations')
    .values({
      organization_id: input.organizationId,
      booking_id: id,
      requirement_id: requirement.id,
      resource_id: input.resourceId,
      quantity: 1,
      selection: 'AUTO',
      position: 0,
    })
    .execute();
  if (input.status === 'CONFIRMED' || input.status === 'PENDING_PAYMENT') {
    const ctx = { organizationId: input.organizationId, at: input.at };
    await withCapacityLock(db, ctx, [input.resourceId], (trx) =>
      insertClaims(trx, ctx, [
        {
          resourceId: input.resourceId,
          quantity: 1,
          startsAt: input.startsAt,
          endsAt: input.endsAt,
          expiresAt: input.status === 'PENDING_PAYMENT' ? (input.paymentExpiresAt ?? null) : null,
          owner: { kind: 'BOOKING', id },
        },
      ]),
    );
  }
  return id;
}

/** The booking's live claims as `[startsAt, endsAt)` ISO pairs. */
export async function liveClaimsOf(
  db: Kysely<Database>,
  organizationId: string,
  bookingId: string,
  at: Date,
) {
  const rows = await db
    .selectFrom('booking_capacity_claims')
    .select(['during', 'expires_at'])
    .where('organization_id', '=', organizationId)
    .where('booking_id', '=', bookingId)
    .where('released_at', 'is', null)
    .execute();
  return rows.filter((row) => row.expires_at === null || new Date(row.expires_at) > at);
}

export { insertResource };

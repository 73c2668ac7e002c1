import { newId } from '@commerce/core';
import type { BookingStatus, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { issueManagementToken } from '../src/bookings/management-tokens.ts';
import type { BookingNotifyContext } from '../src/bookings/notify.ts';
import { withCapacityLock } from '../src/capacity/capacity-lock.ts';
import { insertClaims } from '../src/capacity/claims.ts';
import { createServiceInputSchema, type Policies } from '../src/services/schemas.ts';
import { createService } from '../src/services/write-service.ts';
import { insertOrganization, insertResource, writeContext } from './factories.ts';

/**
 * Bookings written straight into the tables, as conversion and the merchant
 * create would leave them, for the customer and guest tests.
 */

export interface BookingShop {
  organizationId: string;
  serviceId: string;
  requirementId: string;
  resourceId: string;
}

const EVERY_DAY = [{ start: '08:00', end: '20:00' }];

/** A shop with one `ACTIVE` service over one resource of `capacity`, open 08:00–20:00 Lisbon time every day. */
export async function bookingShop(
  db: Kysely<Database>,
  label: string,
  options: { policies?: Partial<Policies>; capacity?: number; at: Date; merchantEmail?: string | null },
): Promise<BookingShop> {
  const organizationId = await insertOrganization(db, label);
  const resourceId = await insertResource(db, organizationId, {
    capacity: options.capacity ?? 1,
    name: 'Room',
  });
  const service = await createService(
    db,
    writeContext(organizationId, options.at),
    createServiceInputSchema.parse({
      slug: 'session',
      name: 'Session',
      status: 'ACTIVE',
      periodMode: 'EXACT_RANGE',
      timezone: 'Europe/Lisbon',
      durations: { minMinutes: 30, maxMinutes: 4 * 1_440, startIntervalMinutes: 30 },
      availability: {
        weeklyHours: {
          MON: EVERY_DAY,
          TUE: EVERY_DAY,
          WED: EVERY_DAY,
          THU: EVERY_DAY,
          FRI: EVERY_DAY,
          SAT: EVERY_DAY,
          SUN: EVERY_DAY,
        },
        hoursPolicy: 'HANDOVER_WITHIN_HOURS',
        maxAdvanceDays: 365,
      },
      requirements: [{ name: 'Room', resourceIds: [resourceId], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 5000 },
      policies: options.policies ?? {},
    }),
    { currency: 'EUR' },
  );
  const merchantEmail = options.merchantEmail === undefined ? 'desk@shop.test' : options.merchantEmail;
  if (merchantEmail !== null) {
    await db
      .insertInto('organization_settings')
      .values({
        organization_id: organizationId,
        notifications: JSON.stringify({ bookingEmail: merchantEmail }),
        created_at: options.at,
        updated_at: options.at,
      })
      .onConflict((conflict) =>
        conflict
          .column('organization_id')
          .doUpdateSet({ notifications: JSON.stringify({ bookingEmail: merchantEmail }) }),
      )
      .execute();
  }
  return { organizationId, serviceId: service.id, requirementId: service.requirements[0]!.id, resourceId };
}

export async function insertCustomer(
  db: Kysely<Database>,
  organizationId: string,
  input: { email: string; verified?: boolean; pendingEmail?: string | null },
): Promise<string> {
  const id = newId('cus');
  await db
    .insertInto('customers')
    .values({
      organization_id: organizationId,
      id,
      email: input.email,
      email_verified_at: input.verified === false ? null : new Date('2026-01-01T00:00:00Z'),
      pending_email: input.pendingEmail ?? null,
      name: 'Ana',
      phone: null,
      created_at: new Date('2026-01-01T00:00:00Z'),
      updated_at: new Date('2026-01-01T00:00:00Z'),
    })
    .execute();
  return id;
}

let codes = 0;

/**
 * A booking of the shop's service; `CONFIRMED` and `PENDING_PAYMENT` ones
 * claim the room over their interval, as conversion leaves them.
 */
export async function insertBooking(
  db: Kysely<Database>,
  shop: BookingShop,
  input: {
    startsAt: Date;
    endsAt: Date;
    status?: BookingStatus;
    customerEmail?: string;
    customerId?: string | null;
    policies?: Partial<Policies>;
    at: Date;
  },
): Promise<string> {
  codes += 1;
  const id = newId('bkg', input.at);
  const status = input.status ?? 'CONFIRMED';
  await db
    .insertInto('bookings')
    .values({
      organization_id: shop.organizationId,
      id,
      code: `BK-${String(codes).padStart(8, '0')}`,
      service_id: shop.serviceId,
      hold_id: null,
      status,
      starts_at: input.startsAt,
      ends_at: input.endsAt,
      quantity: 1,
      timezone: 'Europe/Lisbon',
      customer_id: input.customerId ?? null,
      customer_name: 'Ana',
      customer_email: input.customerEmail ?? 'ana@example.test',
      customer_phone: null,
      customer_note: null,
      billing_address: null,
      delivery: null,
      snapshot: JSON.stringify(input.policies ? { policies: input.policies } : {}),
      currency: 'EUR',
      subtotal_in_cents: 5000,
      total_in_cents: 5000,
      amount_due_now_in_cents: 0,
      sales_record_id: null,
      payment_expires_at: status === 'PENDING_PAYMENT' ? input.startsAt : null,
      request_expires_at: status === 'REQUESTED' ? input.startsAt : null,
      voided_at: null,
      group_id: null,
      created_at: input.at,
      updated_at: input.at,
    })
    .execute();
  await db
    .insertInto('booking_allocations')
    .values({
      organization_id: shop.organizationId,
      booking_id: id,
      requirement_id: shop.requirementId,
      resource_id: shop.resourceId,
      quantity: 1,
      selection: 'AUTO',
      position: 0,
    })
    .execute();
  if (status === 'CONFIRMED' || status === 'PENDING_PAYMENT') {
    const ctx = { organizationId: shop.organizationId, at: input.at };
    await withCapacityLock(db, ctx, [shop.resourceId], (trx) =>
      insertClaims(trx, ctx, [
        {
          resourceId: shop.resourceId,
          quantity: 1,
          startsAt: input.startsAt,
          endsAt: input.endsAt,
          expiresAt: status === 'PENDING_PAYMENT' ? input.startsAt : null,
          owner: { kind: 'BOOKING', id },
        },
      ]),
    );
  }
  return id;
}

/** A fresh `m1_` for a booking, as its emails carry. */
export function guestToken(
  db: Kysely<Database>,
  shop: BookingShop,
  bookingId: string,
  endsAt: Date,
  at: Date,
) {
  return issueManagementToken(db, { organizationId: shop.organizationId, at }, { id: bookingId, endsAt });
}

export function notifyContext(organizationId: string, at: Date): BookingNotifyContext {
  return {
    organizationId,
    at,
    email: { emailFrom: 'shop@example.test', linkBase: 'https://hosted.test/s/shop' },
  };
}

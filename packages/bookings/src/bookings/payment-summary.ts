import { AppError, hashToken } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { BookingClockContext } from '../context.ts';
import { readBookingDetail } from './booking-read.ts';

/** The booking payment page's read (docs/bookings.md, "Booking payments"). */

export const bookingPaymentTokenInputSchema = z.strictObject({
  token: z.string().min(1).max(100).describe('The `c1_…` of the booking payment link'),
});

export const bookingPaymentSummarySchema = z
  .object({
    serverTime: z.iso.datetime(),
    expiresAt: z.iso
      .datetime()
      .describe('When this payment link ends: the booking is no longer reserved for it'),
    status: z
      .string()
      .describe('The checkout session’s status (`BOUND`, `AWAITING_PAYMENT`, `COMPLETED`, …)'),
    currency: z.string(),
    amountDueInCents: z.number().int().describe('What this link pays'),
    bookings: z.array(
      z.object({
        code: z.string(),
        status: z.string(),
        serviceName: z.string(),
        timezone: z.string().describe('The service time zone: the instants carry its offset'),
        startsAt: z.string(),
        endsAt: z.string(),
        durationMinutes: z.number().int(),
        quantity: z.number().int(),
        resources: z
          .array(z.object({ name: z.string() }))
          .describe('The resources of `OPTIONAL` and `REQUIRED` requirements'),
        totalInCents: z.number().int(),
        paidInCents: z.number().int(),
        balanceDueInCents: z.number().int().describe('Still to pay, this link included'),
      }),
    ),
  })
  .meta({ id: 'BookingPaymentSummary' });
export type BookingPaymentSummary = z.infer<typeof bookingPaymentSummarySchema>;

/**
 * What a booking payment link pays for, by its `c1_` (the link's own credential; an unknown token,
 * another tenant's, or a checkout that pays no booking is the neutral 404): the amount and the
 * link's end, and each booking of its Sales record as the customer reads it (service, time in the
 * service's zone, duration, resources, total, paid and balance). Reads only.
 */
export async function readBookingPaymentSummary(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  token: string,
): Promise<BookingPaymentSummary> {
  const notFound = () => AppError.notFound('Booking payment not found');
  const session = await db
    .selectFrom('checkout_sessions')
    .select(['status', 'currency', 'total_in_cents', 'expires_at', 'sales_record_id'])
    .where('organization_id', '=', ctx.organizationId)
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!session?.sales_record_id) throw notFound();
  const rows = await db
    .selectFrom('bookings')
    .select('id')
    .where('organization_id', '=', ctx.organizationId)
    .where('sales_record_id', '=', session.sales_record_id)
    .orderBy('starts_at')
    .orderBy('id')
    .execute();
  const details = await Promise.all(rows.map((row) => readBookingDetail(db, ctx, row.id, 'CUSTOMER')));
  const bookings = details.filter((detail) => detail !== null);
  if (bookings.length === 0) throw notFound();
  return {
    serverTime: ctx.at.toISOString(),
    expiresAt: new Date(session.expires_at).toISOString(),
    status: session.status,
    currency: session.currency,
    amountDueInCents: session.total_in_cents,
    bookings: bookings.map((booking) => ({
      code: booking.code,
      status: booking.status,
      serviceName: booking.service.name,
      timezone: booking.timezone,
      startsAt: booking.startsAt,
      endsAt: booking.endsAt,
      durationMinutes: Math.round((Date.parse(booking.endsAt) - Date.parse(booking.startsAt)) / 60_000),
      quantity: booking.quantity,
      resources: booking.resources.map(({ name }) => ({ name })),
      totalInCents: booking.price.totalInCents,
      paidInCents: booking.payment?.paidInCents ?? 0,
      balanceDueInCents: booking.payment?.balanceDueInCents ?? booking.price.totalInCents,
    })),
  };
}

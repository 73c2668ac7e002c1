import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { BookingClockContext } from '../context.ts';

/**
 * The payment operations the transitions call (14.15), owned by bk-convert's
 * booking-payments.ts.
 *
 * TODO(bk-convert): re-export them from './booking-payments.ts' once its
 * shared commit is merged; until then these stand-ins keep the transitions
 * compiling and testable (the PENDING_PAYMENT approval refuses to run).
 */

export async function openBookingPayment(
  _trx: Kysely<Database>,
  _ctx: BookingClockContext,
  _bookingId: string,
  _options: { amountInCents: number; expiresAt: Date | null },
): Promise<{ checkoutToken: string; paymentUrl: string; expiresAt: Date | null }> {
  throw new AppError('PROVIDER_UNAVAILABLE', 'Booking payments are not available yet');
}

export async function closeBookingPayment(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  bookingId: string,
): Promise<() => Promise<void>> {
  await trx
    .updateTable('bookings')
    .set({ voided_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', bookingId)
    .where('sales_record_id', 'is not', null)
    .execute();
  return async () => {};
}

export async function recordConfirmedBookingSale(
  _trx: Kysely<Database>,
  _ctx: BookingClockContext,
  _bookingId: string,
): Promise<void> {}

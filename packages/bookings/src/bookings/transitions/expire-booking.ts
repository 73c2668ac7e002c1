import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { releaseClaims } from '../../capacity/claims.ts';
import { closeBookingPayment } from '../booking-payments.ts';
import { findBooking } from '../booking-read.ts';
import { notifyBookingCustomer } from '../notify.ts';
import {
  type BookingTransitionContext,
  setStatus,
  settlePendingChangeRequest,
  type TransitionBy,
} from './transition-steps.ts';

/**
 * Expires a booking whose window passed, by the system: a
 * `PENDING_PAYMENT` one past `paymentExpiresAt` (claim released, payment
 * closed; the provider call is the after-commit work), a `REQUESTED` one past
 * `requestExpiresAt`; the customer is emailed. Anything else is left as it
 * is (answers null), so a second run changes nothing.
 */
export async function expireBooking(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
): Promise<{ afterCommit: () => Promise<void> } | null> {
  const booking = await findBooking(trx, ctx.organizationId, bookingId, { forUpdate: true });
  if (!booking) return null;
  const at = ctx.at.getTime();
  const by: TransitionBy = { actor: 'SYSTEM' };
  if (
    booking.status === 'PENDING_PAYMENT' &&
    booking.payment_expires_at !== null &&
    new Date(booking.payment_expires_at).getTime() <= at
  ) {
    const afterCommit = await closeBookingPayment(trx, ctx, booking.id);
    await releaseClaims(trx, ctx, { kind: 'BOOKING', id: booking.id });
    await setStatus(trx, ctx, booking, 'EXPIRED', by);
    await settlePendingChangeRequest(trx, ctx, booking.id, 'WITHDRAWN');
    await notifyBookingCustomer(trx, ctx, booking.id, 'EXPIRED');
    return { afterCommit };
  }
  if (
    booking.status === 'REQUESTED' &&
    booking.request_expires_at !== null &&
    new Date(booking.request_expires_at).getTime() <= at
  ) {
    await setStatus(trx, ctx, booking, 'EXPIRED', by);
    await settlePendingChangeRequest(trx, ctx, booking.id, 'WITHDRAWN');
    await notifyBookingCustomer(trx, ctx, booking.id, 'EXPIRED');
    return { afterCommit: async () => {} };
  }
  return null;
}

import type { BookingStatus, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { releaseClaims } from '../../capacity/claims.ts';
import {
  closeBookingPayment,
  closeBookingPaymentLinks,
  lockBookingPaymentSessions,
} from '../booking-payments.ts';
import { lockBooking } from '../lock-booking.ts';
import { notifyBookingMerchant } from '../notify.ts';
import {
  auditMerchant,
  type BookingTransitionContext,
  invalidTransition,
  notifyCustomer,
  setStatus,
  settlePendingChangeRequest,
  type TransitionBy,
} from './transition-steps.ts';

const TERMINAL: readonly BookingStatus[] = ['DECLINED', 'CANCELLED', 'EXPIRED'];

/**
 * Cancels a booking: `PENDING_PAYMENT` closes its payment (the
 * provider call is the returned after-commit work) and releases its claim;
 * `CONFIRMED` releases its claim, with no automatic refund; a customer or
 * guest may also cancel a `REQUESTED` booking (a merchant declines it). A
 * pending change request is withdrawn. The customer is emailed (unless
 * `notifyCustomer` is false), the merchant when the customer cancelled.
 * `options.changeRequest` marks the pending request `APPROVED` instead (the
 * merchant approving a cancel request) and sends that email instead.
 */
export async function cancelBooking(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  by: TransitionBy,
  options: { approvingChangeRequest?: boolean } = {},
): Promise<{ afterCommit: () => Promise<void> }> {
  await lockBookingPaymentSessions(trx, ctx.organizationId, bookingId);
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  const isCustomer = by.actor === 'CUSTOMER' || by.actor === 'GUEST';
  if (TERMINAL.includes(booking.status)) throw invalidTransition(booking.status);
  if (booking.status === 'REQUESTED' && !isCustomer)
    throw invalidTransition(booking.status, 'DECLINE_INSTEAD');
  if (isCustomer && new Date(booking.ends_at).getTime() <= ctx.at.getTime()) {
    throw invalidTransition(booking.status, 'BOOKING_ENDED');
  }
  let afterCommit: () => Promise<void> = async () => {};
  if (booking.status === 'PENDING_PAYMENT') {
    afterCommit = await closeBookingPayment(trx, ctx, booking.id);
  } else if (booking.status === 'CONFIRMED') {
    // An open balance link must not take money for a cancelled booking.
    afterCommit = await closeBookingPaymentLinks(trx, ctx, booking.id);
  }
  await releaseClaims(trx, ctx, { kind: 'BOOKING', id: booking.id });
  await setStatus(trx, ctx, booking, 'CANCELLED', by);
  if (options.approvingChangeRequest) {
    await settlePendingChangeRequest(trx, ctx, booking.id, 'APPROVED', { userId: by.userId ?? null });
    await notifyCustomer(trx, ctx, booking.id, 'CHANGE_REQUEST_APPROVED', by);
  } else {
    await settlePendingChangeRequest(trx, ctx, booking.id, 'WITHDRAWN');
    await notifyCustomer(trx, ctx, booking.id, 'CANCELLED', by, {
      message: by.actor === 'MERCHANT' ? (by.reason ?? null) : null,
    });
  }
  if (isCustomer) await notifyBookingMerchant(trx, ctx, booking.id, 'CUSTOMER_CANCELLED');
  if (!options.approvingChangeRequest) {
    await auditMerchant(trx, ctx, by, 'booking.cancelled', booking, {
      from: booking.status,
      to: 'CANCELLED',
    });
  }
  return { afterCommit };
}

import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { lockBookingPaymentSessions } from '../booking-payments.ts';
import { findBooking } from '../booking-read.ts';
import { lockBooking } from '../lock-booking.ts';
import { cancelBooking } from './cancel-booking.ts';
import { rescheduleBooking } from './reschedule-booking.ts';
import {
  auditMerchant,
  type BookingTransitionContext,
  invalidTransition,
  iso,
  lockPendingChangeRequest,
  type TransitionBy,
} from './transition-steps.ts';

/**
 * The merchant approves a customer's pending change request: a cancel
 * cancels the booking, a reschedule moves it to the interval asked for
 * (rules not re-checked: the merchant decides; capacity is, and a failure
 * leaves the request pending and the booking as it was). The request becomes
 * `APPROVED`, the customer gets `CHANGE_REQUEST_APPROVED`.
 */
export async function approveChangeRequest(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  changeRequestId: string,
  by: TransitionBy,
): Promise<{ afterCommit: () => Promise<void> }> {
  // Its payment sessions before the booking, as the payment webhook takes them (no deadlock with it).
  await lockBookingPaymentSessions(trx, ctx.organizationId, bookingId);
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  const request = await lockPendingChangeRequest(trx, ctx, bookingId, changeRequestId);
  let afterCommit: () => Promise<void> = async () => {};
  const reason = request.reason;
  if (request.kind === 'CANCEL') {
    if (booking.status !== 'CONFIRMED' && booking.status !== 'PENDING_PAYMENT') {
      throw invalidTransition(booking.status);
    }
    ({ afterCommit } = await cancelBooking(
      trx,
      ctx,
      bookingId,
      { ...by, reason },
      { approvingChangeRequest: true },
    ));
  } else {
    await rescheduleBooking(
      trx,
      ctx,
      bookingId,
      { startsAt: new Date(request.starts_at!), endsAt: new Date(request.ends_at!), ignoreRules: true },
      { ...by, reason },
      { approvingChangeRequest: true },
    );
  }
  const after = await findBooking(trx, ctx.organizationId, bookingId);
  await auditMerchant(trx, ctx, by, 'booking.change_request_approved', booking, {
    changeRequestId,
    kind: request.kind,
    from: booking.status,
    to: after?.status ?? booking.status,
    ...(request.kind === 'RESCHEDULE'
      ? {
          oldStartsAt: iso(booking.starts_at),
          oldEndsAt: iso(booking.ends_at),
          newStartsAt: iso(request.starts_at!),
          newEndsAt: iso(request.ends_at!),
        }
      : {}),
  });
  return { afterCommit };
}

import type { BookingStatus, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ResourceSelection } from '../../availability/assign.ts';
import { capacityUnavailable, loadServiceTerms, planClaims, poolOf } from '../booking-claims.ts';
import { openBookingPayment, recordConfirmedBookingSale } from '../booking-payments.ts';
import { lockBooking } from '../lock-booking.ts';
import {
  assertSelections,
  auditMerchant,
  type BookingTransitionContext,
  claimFor,
  invalidTransition,
  lockCapacity,
  notifyCustomer,
  preferredAllocations,
  setStatus,
  type TransitionBy,
  writeAllocations,
} from './transition-steps.ts';

export interface ApproveInput {
  resourceSelections?: readonly ResourceSelection[];
  note?: string | null;
}

/**
 * Merchant approval of a `REQUESTED` booking: claims its resources
 * (the chosen ones, else those it was given, else others of the pools) under
 * the capacity lock; nothing due now gives `CONFIRMED` with a sales record
 * `NOT_REQUIRED`, an amount due gives `PENDING_PAYMENT` claimed until
 * approval + `approvedPaymentWindowHours` (not after `startsAt`) with the
 * payment link emailed. Not claimable: `409 CAPACITY_UNAVAILABLE`, nothing
 * changed. A group member, a request past its expiry or a started booking:
 * `409 INVALID_STATE_TRANSITION`.
 */
export async function approveBooking(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  input: ApproveInput,
  by: TransitionBy,
): Promise<{ status: BookingStatus }> {
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  if (booking.status !== 'REQUESTED') throw invalidTransition(booking.status);
  if (booking.group_id !== null) throw invalidTransition(booking.status, 'GROUP_MEMBER');
  const startsAt = new Date(booking.starts_at);
  if (
    startsAt.getTime() <= ctx.at.getTime() ||
    (booking.request_expires_at !== null &&
      new Date(booking.request_expires_at).getTime() <= ctx.at.getTime())
  ) {
    throw invalidTransition(booking.status, 'REQUEST_EXPIRED');
  }
  const terms = await loadServiceTerms(trx, ctx.organizationId, booking.service_id, booking.currency);
  assertSelections(terms, booking.quantity, input.resourceSelections);

  await lockCapacity(trx, ctx, poolOf(terms));
  const preferred = await preferredAllocations(trx, ctx.organizationId, booking.id);
  const plan = await planClaims(trx, ctx, terms, {
    startsAt,
    endsAt: new Date(booking.ends_at),
    quantity: booking.quantity,
    selections: input.resourceSelections ?? [],
    preferred,
  });
  if (!plan.ok) throw capacityUnavailable(plan);

  const dueNow = booking.amount_due_now_in_cents;
  const to: BookingStatus = dueNow > 0 ? 'PENDING_PAYMENT' : 'CONFIRMED';
  const paymentExpiresAt =
    to === 'PENDING_PAYMENT'
      ? new Date(
          Math.min(
            ctx.at.getTime() + terms.checkout.approvedPaymentWindowHours * 3_600_000,
            startsAt.getTime(),
          ),
        )
      : null;
  await claimFor(trx, ctx, booking.id, plan, paymentExpiresAt);
  await writeAllocations(trx, ctx, booking.id, terms, plan.allocations);
  await setStatus(
    trx,
    ctx,
    booking,
    to,
    { ...by, reason: input.note ?? by.reason ?? null },
    {
      payment_expires_at: paymentExpiresAt,
    },
  );
  if (to === 'PENDING_PAYMENT') {
    const payment = await openBookingPayment(trx, ctx, booking.id, {
      amountInCents: dueNow,
      expiresAt: paymentExpiresAt,
    });
    await notifyCustomer(trx, ctx, booking.id, 'PAYMENT_REQUIRED', by, {
      paymentUrl: payment.paymentUrl,
      message: input.note ?? null,
    });
  } else {
    await recordConfirmedBookingSale(trx, ctx, booking.id);
    await notifyCustomer(trx, ctx, booking.id, 'CONFIRMED', by, { message: input.note ?? null });
  }
  await auditMerchant(trx, ctx, by, 'booking.approved', booking, { from: booking.status, to });
  return { status: to };
}

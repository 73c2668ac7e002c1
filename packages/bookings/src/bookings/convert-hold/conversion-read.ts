import type { BookingStatus, Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { reissueBookingCheckoutToken } from '../booking-payments.ts';
import type { ConversionRead, TerminalReason } from '../convert-schemas.ts';
import type { BookingNotifyContext } from '../notify.ts';
import type { Amounts, LiveFlow } from './conversion-amounts.ts';

/** A conversion that made no booking, with the amounts it would have frozen if known. */
export function terminal(
  reason: TerminalReason,
  currency: string,
  amounts?: Partial<Amounts>,
): ConversionRead {
  const total = amounts?.totalInCents ?? 0;
  const due = amounts?.amountDueNowInCents ?? 0;
  return {
    flow: 'TERMINAL',
    bookingId: null,
    bookingStatus: null,
    checkoutToken: null,
    paymentExpiresAt: null,
    amountDueNowInCents: due,
    remainingBalanceInCents: total - due,
    totalInCents: total,
    currency,
    terminalReason: reason,
  };
}

/** A conversion that made a booking: its flow, its booking, and the amounts frozen. */
export function madeBooking(
  flow: LiveFlow,
  booking: { id: string; status: BookingStatus; checkoutToken: string | null; paymentExpiresAt: Date | null },
  amounts: Amounts,
): ConversionRead {
  return {
    flow,
    bookingId: booking.id,
    bookingStatus: booking.status,
    checkoutToken: booking.checkoutToken,
    paymentExpiresAt: booking.paymentExpiresAt?.toISOString() ?? null,
    amountDueNowInCents: amounts.amountDueNowInCents,
    remainingBalanceInCents: amounts.totalInCents - amounts.amountDueNowInCents,
    totalInCents: amounts.totalInCents,
    currency: amounts.currency,
    terminalReason: null,
  };
}

const TERMINAL_OF: Partial<Record<BookingStatus, TerminalReason>> = {
  DECLINED: 'BOOKING_DECLINED',
  CANCELLED: 'BOOKING_CANCELLED',
  EXPIRED: 'BOOKING_EXPIRED',
};

/**
 * A conversion's answer as the booking stands now (a replay reads the
 * present): PENDING_PAYMENT is PAYMENT with a new `c1_` for the same checkout
 * (never a second payment intent), CONFIRMED and REQUESTED their flows, and a
 * booking since declined, cancelled or expired TERMINAL with BOOKING_*.
 */
export async function presentConversion(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  bookingId: string,
  currency: string,
): Promise<ConversionRead> {
  const booking = await trx
    .selectFrom('bookings')
    .select(['id', 'status', 'currency', 'total_in_cents', 'amount_due_now_in_cents', 'payment_expires_at'])
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', bookingId)
    .executeTakeFirst();
  if (!booking) return terminal('HOLD_EXPIRED', currency);
  const amounts = {
    amountDueNowInCents: booking.amount_due_now_in_cents,
    remainingBalanceInCents: booking.total_in_cents - booking.amount_due_now_in_cents,
    totalInCents: booking.total_in_cents,
    currency: booking.currency,
  };
  const reason = TERMINAL_OF[booking.status];
  if (reason) {
    return {
      ...amounts,
      flow: 'TERMINAL',
      bookingId: booking.id,
      bookingStatus: booking.status,
      checkoutToken: null,
      paymentExpiresAt: null,
      terminalReason: reason,
    };
  }
  if (booking.status === 'PENDING_PAYMENT') {
    const reissued = await reissueBookingCheckoutToken(trx, ctx, booking.id);
    return {
      ...amounts,
      flow: 'PAYMENT',
      bookingId: booking.id,
      bookingStatus: booking.status,
      checkoutToken: reissued?.checkoutToken ?? null,
      paymentExpiresAt: booking.payment_expires_at
        ? new Date(booking.payment_expires_at).toISOString()
        : null,
      terminalReason: null,
    };
  }
  return {
    ...amounts,
    flow: booking.status === 'REQUESTED' ? 'REQUEST' : 'CONFIRMED',
    bookingId: booking.id,
    bookingStatus: booking.status,
    checkoutToken: null,
    paymentExpiresAt: null,
    terminalReason: null,
  };
}

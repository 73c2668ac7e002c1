import { formatMoney } from '@commerce/core';
import type { Database } from '@commerce/db';
import { customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import type { BookingPaymentEvent, BookingSettlement } from '@commerce/orders';
import type { Kysely, Selectable } from 'kysely';
import { freeUnits, resourceLoad } from '../availability/capacity.ts';
import { withCapacityLock } from '../capacity/capacity-lock.ts';
import { insertClaims, releaseClaims } from '../capacity/claims.ts';
import { readLiveClaims } from '../capacity/live-claims.ts';
import { appendHistory } from './history.ts';
import { type BookingNotifyContext, notifyBookingCustomer, notifyBookingMerchant } from './notify.ts';

const MS_PER_MINUTE = 60_000;

type BookingRow = Selectable<Database['bookings']>;

/** The claimed interval of a booking: its snapshot's, buffers included. */
function claimWindowOf(booking: BookingRow): { startMinute: number; endMinute: number } {
  const claim = (booking.snapshot as { claim?: { startMinute?: unknown; endMinute?: unknown } }).claim;
  if (claim && typeof claim.startMinute === 'number' && typeof claim.endMinute === 'number')
    return { startMinute: claim.startMinute, endMinute: claim.endMinute };
  return {
    startMinute: Math.floor(new Date(booking.starts_at).getTime() / MS_PER_MINUTE),
    endMinute: Math.ceil(new Date(booking.ends_at).getTime() / MS_PER_MINUTE),
  };
}

/**
 * Makes a paid booking's claim permanent, under the capacity lock of its
 * resources (14.19 rule 4): its claims are released and claims without expiry
 * inserted (claims are never edited), after checking that its units are free
 * once its own are set aside: a claim that lapsed at the end of its window may
 * have been taken since. Answers false, changing nothing that the caller keeps,
 * when they are not free.
 */
async function claimForGood(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  booking: BookingRow,
): Promise<boolean> {
  const allocations = await trx
    .selectFrom('booking_allocations')
    .select(['resource_id', 'quantity'])
    .where('organization_id', '=', ctx.organizationId)
    .where('booking_id', '=', booking.id)
    .orderBy('position')
    .execute();
  const window = claimWindowOf(booking);
  const pool = [...new Set(allocations.map((allocation) => allocation.resource_id))];
  return withCapacityLock(trx, ctx, pool, async (locked) => {
    await releaseClaims(locked, ctx, { kind: 'BOOKING', id: booking.id });
    const loads = await readLiveClaims(locked, ctx, pool, {
      startsAt: new Date(window.startMinute * MS_PER_MINUTE),
      endsAt: new Date(window.endMinute * MS_PER_MINUTE),
    });
    const byResource = new Map(loads.map((row) => [row.resourceId, resourceLoad(row)]));
    const needed = new Map<string, number>();
    for (const allocation of allocations)
      needed.set(allocation.resource_id, (needed.get(allocation.resource_id) ?? 0) + allocation.quantity);
    for (const [resourceId, units] of needed) {
      const load = byResource.get(resourceId);
      if (!load || freeUnits(load, window.startMinute, window.endMinute) < units) return false;
    }
    await insertClaims(
      locked,
      ctx,
      allocations.map((allocation) => ({
        resourceId: allocation.resource_id,
        quantity: allocation.quantity,
        startsAt: new Date(window.startMinute * MS_PER_MINUTE),
        endsAt: new Date(window.endMinute * MS_PER_MINUTE),
        expiresAt: null,
        owner: { kind: 'BOOKING' as const, id: booking.id },
      })),
    );
    return true;
  });
}

/** The receipt of a booking payment (14.21: `COMMERCE_PAYMENT_RECEIVED`), to the booking's customer. */
async function sendReceipt(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  booking: BookingRow,
  amountInCents: number,
  currency: string,
): Promise<void> {
  await enqueueTemplatedEmail(trx, {
    organizationId: ctx.organizationId,
    type: 'COMMERCE_PAYMENT_RECEIVED',
    emailFrom: ctx.email.emailFrom,
    at: ctx.at,
    to: booking.customer_email,
    values: {
      'customer.name': booking.customer_name,
      'payment.amount': formatMoney(amountInCents, currency),
      'payment.reference': `booking ${booking.code}`,
      'payment.receivedOn': new Intl.DateTimeFormat('en-US', {
        timeZone: booking.timezone,
        dateStyle: 'long',
      }).format(ctx.at),
    },
    // The booking emails carry the guest link; the receipt points at the customer's bookings.
    links: { action: customerLink(ctx.email, '/account/bookings') },
    metadata: { bookingId: booking.id, event: 'PAYMENT_RECEIVED' },
  });
}

/**
 * Settles a verified payment event of a booking checkout (14.14, 14.15), in
 * the webhook's transaction, the session and attempt already locked by the
 * orders area: the attempt, the Sales record and every booking of the
 * checkout move together.
 *
 * - Success (for the attempt's own amount and currency): attempt SUCCEEDED,
 *   session COMPLETED, record PAID. A PENDING_PAYMENT booking becomes
 *   CONFIRMED with its claim made permanent; an EXPIRED one (a late payment)
 *   is CONFIRMED with a new claim when its units are still free. A booking
 *   whose units are gone (or that was cancelled meanwhile) stays as it is,
 *   `refundRequired` set and the merchant emailed REFUND_REQUIRED: no
 *   automatic refund. A CONFIRMED booking (a balance link) stays CONFIRMED.
 *   Confirmed bookings email CONFIRMED (with a fresh management link) and the
 *   merchant NEW_BOOKING; every paid booking sends COMMERCE_PAYMENT_RECEIVED.
 * - Failure: attempt FAILED, record FAILED, session PAYMENT_FAILED (a new
 *   payment session may start on the same intent until the window closes);
 *   bookings unchanged. A failure of a cancelled attempt changes nothing.
 *
 * Idempotent by state: a replay answers UNCHANGED.
 */
export async function settleBookingPayment(
  trx: Kysely<Database>,
  input: BookingPaymentEvent,
): Promise<BookingSettlement> {
  const { session, attempt, event } = input;
  const salesRecordId = session.sales_record_id!;
  const ctx: BookingNotifyContext = {
    organizationId: session.organization_id,
    at: input.at,
    email: input.email,
  };
  const base = {
    outcome: 'booking' as const,
    organizationId: session.organization_id,
    salesRecordId,
    paymentAttemptId: attempt.id,
  };
  const isSuccess = event.type === 'payment_intent.succeeded';
  const target = isSuccess ? 'SUCCEEDED' : 'FAILED';
  if (attempt.status === 'SUCCEEDED' || attempt.status === 'REFUNDED' || attempt.status === target)
    return { ...base, result: 'UNCHANGED' };
  if (!isSuccess) {
    if (attempt.status === 'CANCELLED') return { ...base, result: 'UNCHANGED' };
    await trx
      .updateTable('payment_attempts')
      .set({ status: 'FAILED', updated_at: ctx.at })
      .where('organization_id', '=', attempt.organization_id)
      .where('id', '=', attempt.id)
      .execute();
    await trx
      .updateTable('sales_records')
      .set({ payment_status: 'FAILED', updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', salesRecordId)
      .where('payment_status', '=', 'AWAITING_PAYMENT')
      .execute();
    await trx
      .updateTable('checkout_sessions')
      .set({ status: 'PAYMENT_FAILED', updated_at: ctx.at })
      .where('organization_id', '=', session.organization_id)
      .where('id', '=', session.id)
      .where('status', '=', 'AWAITING_PAYMENT')
      .execute();
    return { ...base, result: 'FAILED' };
  }
  if (event.amountInCents !== attempt.amount_in_cents || event.currency !== attempt.currency)
    return { ...base, result: 'AMOUNT_MISMATCH' };

  // The money is taken: whatever was owed to the processor (a cancellation of a closed payment) is not.
  await trx
    .updateTable('payment_attempts')
    .set({
      status: 'SUCCEEDED',
      provider_action: null,
      provider_action_due_at: null,
      updated_at: ctx.at,
    })
    .where('organization_id', '=', attempt.organization_id)
    .where('id', '=', attempt.id)
    .execute();
  await trx
    .updateTable('checkout_sessions')
    .set({ status: 'COMPLETED', completed_at: ctx.at, updated_at: ctx.at })
    .where('organization_id', '=', session.organization_id)
    .where('id', '=', session.id)
    .execute();
  await trx
    .updateTable('sales_records')
    .set({ payment_status: 'PAID', updated_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', salesRecordId)
    .execute();

  const bookings = await trx
    .selectFrom('bookings')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .orderBy('id')
    .forUpdate()
    .execute();
  let refundRequired = false;
  for (const booking of bookings) {
    if (booking.status === 'CONFIRMED') {
      await sendReceipt(trx, ctx, booking, attempt.amount_in_cents, attempt.currency);
      continue;
    }
    const late = booking.status === 'EXPIRED';
    const confirmable = booking.status === 'PENDING_PAYMENT' || late;
    if (confirmable && (await claimForGood(trx, ctx, booking))) {
      await trx
        .updateTable('bookings')
        .set({
          status: 'CONFIRMED',
          voided_at: null,
          history: appendHistory(ctx, {
            from: booking.status,
            to: 'CONFIRMED',
            actor: 'WEBHOOK',
            reason: late ? 'LATE_PAYMENT' : null,
          }),
          updated_at: ctx.at,
        })
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', booking.id)
        .execute();
      await sendReceipt(trx, ctx, booking, attempt.amount_in_cents, attempt.currency);
      await notifyBookingCustomer(trx, ctx, booking.id, 'CONFIRMED');
      await notifyBookingMerchant(trx, ctx, booking.id, 'NEW_BOOKING');
      continue;
    }
    // Paid, but its time is gone (or it was cancelled, declined): the merchant refunds by hand.
    refundRequired = true;
    const status = booking.status === 'PENDING_PAYMENT' ? 'EXPIRED' : booking.status;
    await trx
      .updateTable('bookings')
      .set({
        status,
        refund_required: true,
        ...(status !== booking.status
          ? {
              history: appendHistory(ctx, {
                from: booking.status,
                to: status,
                actor: 'WEBHOOK',
                reason: 'CAPACITY_LOST',
              }),
            }
          : {}),
        updated_at: ctx.at,
      })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', booking.id)
      .execute();
    if (status !== booking.status) await releaseClaims(trx, ctx, { kind: 'BOOKING', id: booking.id });
    await notifyBookingMerchant(trx, ctx, booking.id, 'REFUND_REQUIRED');
  }
  return { ...base, result: refundRequired ? 'REFUND_REQUIRED' : 'PAID' };
}

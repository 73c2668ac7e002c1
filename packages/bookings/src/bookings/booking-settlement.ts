import { formatMoney } from '@commerce/core';
import { type Database, recordAudit } from '@commerce/db';
import { customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import { type BookingPaymentEvent, type BookingSettlement, owePaymentRefund } from '@commerce/orders';
import type { Kysely, Selectable } from 'kysely';
import { freeUnits, resourceLoad } from '../availability/capacity.ts';
import { withCapacityLock } from '../capacity/capacity-lock.ts';
import { insertClaims, releaseClaims } from '../capacity/claims.ts';
import { readLiveClaims } from '../capacity/live-claims.ts';
import { closeOtherPaymentLinks, keptInCents, OPEN_SESSION_STATUSES } from './booking-payments.ts';
import { emitBookingEvent } from './booking-webhooks.ts';
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
 * resources: its claims are released and claims without expiry
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

/** The receipt of a booking payment (`COMMERCE_PAYMENT_RECEIVED`), to the booking's customer. */
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

/** Why a booking payment is refunded in full instead of kept. */
export type BookingRefundReason =
  /** The balance it would pay was settled already (another link's payment, a concurrent one). */
  | 'EXCEEDS_BALANCE'
  /** Its link was closed while its customer was paying (a resent link, a closed balance link). */
  | 'PAYMENT_CLOSED'
  /** The booking was cancelled or declined: it takes no more money. */
  | 'BOOKING_CLOSED'
  /** A late payment (after expiry) for a booking that started, or whose time is no longer free. */
  | 'LATE_PAYMENT';

/**
 * Settles a verified payment event of a booking checkout, in
 * the webhook's transaction, the session and attempt already locked by the
 * orders area; the bookings of the checkout are locked next (before its Sales
 * record), so concurrent payments of one booking, through any of its links,
 * are judged one after the other against what it keeps. A booking never keeps
 * more than its total:
 *
 * - A success (for the attempt's own amount and currency) is kept when it
 *   fits the open balance (total − what the record's succeeded payments
 *   took): attempt SUCCEEDED, session COMPLETED, record PAID. A
 *   PENDING_PAYMENT booking becomes CONFIRMED with its claim made permanent;
 *   an EXPIRED one (a late payment) too, while its `startsAt` is ahead and
 *   its units are free. A CONFIRMED booking (a balance link) stays CONFIRMED.
 *   Confirmed bookings email CONFIRMED (with a fresh management link) and the
 *   merchant NEW_BOOKING; every kept payment sends COMMERCE_PAYMENT_RECEIVED.
 *   When it settles the balance, the other open links are closed (their
 *   intents cancelled after the commit).
 * - A success that cannot be kept is recorded and refunded in full: one that
 *   exceeds the open balance, one of a link closed while its customer was
 *   paying (the cancellation of its intent came too late), one for a
 *   cancelled or declined booking, and a late payment whose booking started
 *   or lost its time (the booking stays EXPIRED, the merchant is emailed
 *   LATE_PAYMENT_REFUNDED). The attempt becomes REFUNDED with the refund owed
 *   to the processor (answered in `paymentActions`, made after the commit and
 *   retried by the worker), audited `booking.payment_refunded`.
 * - A checkout of several bookings where some confirm and some lost their
 *   time keeps the money; those are marked `refundRequired` and the merchant
 *   emailed REFUND_REQUIRED (a person refunds their part).
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

  // The bookings before their Sales record, as a cancellation, an expiry and a payment link take them.
  const bookings = await trx
    .selectFrom('bookings')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .orderBy('id')
    .forUpdate()
    .execute();
  const record = await trx
    .selectFrom('sales_records')
    .select(['total_in_cents', 'payment_status'])
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', salesRecordId)
    .executeTakeFirstOrThrow();
  const kept = await keptInCents(trx, ctx.organizationId, salesRecordId);
  const open = record.total_in_cents - kept;
  const refund = (reason: BookingRefundReason) =>
    refundBookingPayment(trx, ctx, input, bookings, { reason, keptInCents: kept, record });

  if (attempt.amount_in_cents > open) return refund('EXCEEDS_BALANCE');
  if (bookings.every((booking) => booking.status === 'CANCELLED' || booking.status === 'DECLINED'))
    return refund('BOOKING_CLOSED');
  // A balance link closed while its customer was paying: its payment is not the one asked for.
  if (attempt.status === 'CANCELLED' && bookings.every((booking) => booking.status === 'CONFIRMED'))
    return refund('PAYMENT_CLOSED');

  // Where the payment would go: each booking confirmed (claimed for good), kept as it is, or lost.
  const confirmed: BookingRow[] = [];
  const lost: BookingRow[] = [];
  let keeps = false;
  for (const booking of bookings) {
    if (booking.status === 'CONFIRMED') {
      keeps = true;
      continue;
    }
    const late = booking.status === 'EXPIRED';
    const ahead = new Date(booking.starts_at).getTime() > ctx.at.getTime();
    const confirmable = booking.status === 'PENDING_PAYMENT' || (late && ahead);
    if (confirmable && (await claimForGood(trx, ctx, booking))) confirmed.push(booking);
    else lost.push(booking);
  }
  if (confirmed.length === 0 && !keeps) {
    // Nothing can take it: a late payment whose time is gone. The booking stays (or becomes) EXPIRED.
    for (const booking of lost) {
      if (booking.status !== 'PENDING_PAYMENT' && booking.status !== 'EXPIRED') continue;
      if (booking.status === 'PENDING_PAYMENT') {
        await expireLostBooking(trx, ctx, booking);
        await releaseClaims(trx, ctx, { kind: 'BOOKING', id: booking.id });
      }
      await notifyBookingMerchant(trx, ctx, booking.id, 'LATE_PAYMENT_REFUNDED');
    }
    return refund('LATE_PAYMENT');
  }

  // Kept. The money is taken: whatever was owed to the processor (a cancellation of a closed payment) is not.
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
  // The balance is settled: no other link of it may take money any more.
  const paymentActions =
    attempt.amount_in_cents === open ? await closeOtherPaymentLinks(trx, ctx, salesRecordId, session.id) : [];

  for (const booking of bookings) {
    if (booking.status === 'CONFIRMED') {
      await sendReceipt(trx, ctx, booking, attempt.amount_in_cents, attempt.currency);
      continue;
    }
    if (confirmed.includes(booking)) {
      const late = booking.status === 'EXPIRED';
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
      await emitBookingEvent(trx, ctx, booking.id, 'booking.confirmed');
      await sendReceipt(trx, ctx, booking, attempt.amount_in_cents, attempt.currency);
      // Money was taken: its confirmation (and fresh management link) is never held back by the cap.
      await notifyBookingCustomer(trx, ctx, booking.id, 'CONFIRMED', { afterKeptPayment: true });
      await notifyBookingMerchant(trx, ctx, booking.id, 'NEW_BOOKING');
      continue;
    }
    // Paid with the others of its checkout, but its time is gone (or it was cancelled): refunded by hand.
    if (booking.status === 'PENDING_PAYMENT') {
      await expireLostBooking(trx, ctx, booking);
      await releaseClaims(trx, ctx, { kind: 'BOOKING', id: booking.id });
    }
    await trx
      .updateTable('bookings')
      .set({ refund_required: true, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', booking.id)
      .execute();
    await notifyBookingMerchant(trx, ctx, booking.id, 'REFUND_REQUIRED');
  }
  return {
    ...base,
    result: lost.length > 0 ? 'REFUND_REQUIRED' : 'PAID',
    ...(paymentActions.length > 0 ? { paymentActions } : {}),
  };
}

/** A PENDING_PAYMENT booking whose payment came when its units were gone: EXPIRED, by the webhook. */
async function expireLostBooking(trx: Kysely<Database>, ctx: BookingNotifyContext, booking: BookingRow) {
  await trx
    .updateTable('bookings')
    .set({
      status: 'EXPIRED',
      history: appendHistory(ctx, {
        from: booking.status,
        to: 'EXPIRED',
        actor: 'WEBHOOK',
        reason: 'CAPACITY_LOST',
      }),
      updated_at: ctx.at,
    })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', booking.id)
    .execute();
}

/**
 * A success the booking cannot keep, recorded and given back in full: the
 * attempt REFUNDED with its refund owed to the processor (the orders area's
 * mechanism: made after the commit, retried by the worker with backoff); a
 * session still open CANCELLED (it takes no more money); a record that keeps
 * nothing and was not paid REFUNDED; audited `booking.payment_refunded` on
 * each booking of the checkout. No receipt is sent.
 */
async function refundBookingPayment(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  input: BookingPaymentEvent,
  bookings: readonly BookingRow[],
  details: {
    reason: BookingRefundReason;
    keptInCents: number;
    record: { total_in_cents: number; payment_status: string };
  },
): Promise<BookingSettlement> {
  const { session, attempt, event } = input;
  const salesRecordId = session.sales_record_id!;
  await owePaymentRefund(trx, attempt, ctx.at);
  await trx
    .updateTable('checkout_sessions')
    .set({ status: 'CANCELLED', updated_at: ctx.at })
    .where('organization_id', '=', session.organization_id)
    .where('id', '=', session.id)
    .where('status', 'in', [...OPEN_SESSION_STATUSES])
    .execute();
  if (
    details.keptInCents === 0 &&
    (details.record.payment_status === 'AWAITING_PAYMENT' || details.record.payment_status === 'FAILED')
  )
    await trx
      .updateTable('sales_records')
      .set({ payment_status: 'REFUNDED', updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', salesRecordId)
      .execute();
  for (const booking of bookings) {
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: { userId: null, email: null },
      action: 'booking.payment_refunded',
      targetType: 'booking',
      targetId: booking.id,
      metadata: {
        reason: details.reason,
        salesRecordId,
        paymentAttemptId: attempt.id,
        amountInCents: attempt.amount_in_cents,
        keptInCents: details.keptInCents,
        totalInCents: details.record.total_in_cents,
        bookingStatus: booking.status,
        eventId: event.id,
      },
      at: ctx.at,
    });
  }
  return {
    outcome: 'booking',
    organizationId: session.organization_id,
    salesRecordId,
    paymentAttemptId: attempt.id,
    result: 'REFUNDED',
    paymentActions: [{ organizationId: attempt.organization_id, paymentAttemptId: attempt.id }],
  };
}

import { AppError } from '@commerce/core';
import { type AuditActor, type Database, inTransaction, recordAudit } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { lockBookingPaymentSessions, openBookingPayment, readBookingPayments } from './booking-payments.ts';
import { type BookingNotifyContext, notifyBookingCustomer } from './notify.ts';

export const paymentLinkPathSchema = z.strictObject({
  id: z.string().min(1).max(64).describe('Booking id (`bkg_…`)'),
});

export const paymentLinkSchema = z
  .object({
    amountInCents: z.number().int().describe('The open balance the link asks for'),
    expiresAt: z.iso.datetime().describe('When the link (its checkout) stops taking payment'),
  })
  .meta({ id: 'BookingPaymentLink' });
export type PaymentLinkRead = z.infer<typeof paymentLinkSchema>;

/** Who sends the link: Owner and Admin act on every booking; Staff only on bookings assigned to them. */
export interface PaymentLinkContext extends BookingNotifyContext {
  actor: AuditActor;
  /** Staff: the user whose assignment decides; null for Owner and Admin. */
  staffUserId: string | null;
}

const bookingNotFound = () => AppError.notFound('Booking not found');

/**
 * A booking is assigned to a user when it lists the user in
 * `assigneeUserIds` or was given a STAFF resource of that user. Written
 * narrowly here for the payment link; the merchant read model (bk-merchant)
 * carries the general visibility rule.
 */
export async function isBookingAssignedTo(
  db: Kysely<Database>,
  organizationId: string,
  bookingId: string,
  userId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('bookings as b')
    .select('b.id')
    .where('b.organization_id', '=', organizationId)
    .where('b.id', '=', bookingId)
    .where((eb) =>
      eb.or([
        sql<boolean>`${userId} = any(b.assignee_user_ids)`,
        eb.exists(
          eb
            .selectFrom('booking_allocations as a')
            .innerJoin('booking_resources as r', (join) =>
              join.onRef('r.organization_id', '=', 'a.organization_id').onRef('r.id', '=', 'a.resource_id'),
            )
            .select('a.booking_id')
            .whereRef('a.organization_id', '=', 'b.organization_id')
            .whereRef('a.booking_id', '=', 'b.id')
            .where('r.kind', '=', 'STAFF')
            .where('r.user_id', '=', userId),
        ),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * `POST /merchant/bookings/:id/payment-link`: for a CONFIRMED booking
 * with an open balance, opens a checkout bound to that balance (one open link:
 * a new one closes the old, whose intent the worker cancels), emails the
 * customer PAYMENT_REQUIRED with the `c1_` link and a fresh management link,
 * and audits `booking.payment_link_sent`. Any other state, or nothing left to
 * pay, is 409 INVALID_STATE_TRANSITION; an unknown booking, another tenant's,
 * or one not assigned to a Staff caller, the neutral 404.
 */
export async function sendBookingPaymentLink(
  db: Kysely<Database>,
  ctx: PaymentLinkContext,
  bookingId: string,
): Promise<PaymentLinkRead> {
  return inTransaction(db, async (trx) => {
    // The old link's session before the booking, the webhook's order (no deadlock with a payment).
    await lockBookingPaymentSessions(trx, ctx.organizationId, bookingId);
    const booking = await trx
      .selectFrom('bookings')
      .select(['id', 'status', 'total_in_cents'])
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', bookingId)
      .forUpdate()
      .executeTakeFirst();
    if (!booking) throw bookingNotFound();
    if (
      ctx.staffUserId !== null &&
      !(await isBookingAssignedTo(trx, ctx.organizationId, booking.id, ctx.staffUserId))
    )
      throw bookingNotFound();
    if (booking.status !== 'CONFIRMED')
      throw new AppError('INVALID_STATE_TRANSITION', `A ${booking.status} booking takes no payment link`);
    const payment =
      (await readBookingPayments(trx, ctx.organizationId, [booking.id])).get(booking.id) ?? null;
    const balance = payment ? payment.balanceDueInCents : booking.total_in_cents;
    if (balance <= 0) throw new AppError('INVALID_STATE_TRANSITION', 'The booking has no open balance');
    const link = await openBookingPayment(trx, ctx, booking.id, { amountInCents: balance, expiresAt: null });
    await notifyBookingCustomer(trx, ctx, booking.id, 'PAYMENT_REQUIRED', { paymentUrl: link.paymentUrl });
    const expiresAt = (link.expiresAt ?? ctx.at).toISOString();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'booking.payment_link_sent',
      targetType: 'booking',
      targetId: booking.id,
      metadata: { bookingId: booking.id, amountInCents: balance, expiresAt },
      at: ctx.at,
    });
    return { amountInCents: balance, expiresAt };
  });
}

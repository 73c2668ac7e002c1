import { hashToken } from '@commerce/core';
import { type Database, recordAudit } from '@commerce/db';
import { type CustomerEmailConfig, customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import type { BookingClockContext } from '../context.ts';
import { issueManagementToken } from './management-tokens.ts';

/** Emails to the booking's customer, each with a fresh `m1_` management link. */
export type BookingCustomerEvent =
  | 'REQUEST_RECEIVED'
  | 'CONFIRMED'
  | 'PAYMENT_REQUIRED'
  | 'DECLINED'
  | 'CANCELLED'
  | 'EXPIRED'
  | 'RESCHEDULED'
  | 'CHANGE_REQUEST_RECEIVED'
  | 'CHANGE_REQUEST_APPROVED'
  | 'CHANGE_REQUEST_DECLINED';

/** Emails to the merchant: `notifications.bookingEmail`, else `businessProfile.supportEmail`. */
export type BookingMerchantEvent =
  | 'NEW_REQUEST'
  | 'NEW_BOOKING'
  | 'CHANGE_REQUESTED'
  | 'CUSTOMER_CANCELLED'
  | 'REFUND_REQUIRED'
  | 'LATE_PAYMENT_REFUNDED';

/**
 * A bookings operation that may send email: the tenant, the instant, and
 * EMAIL_FROM with the base of the links (HOSTED_CHECKOUT_URL, the tenant's
 * slug already in place), as every other emailing module takes them.
 */
export interface BookingNotifyContext extends BookingClockContext {
  email: CustomerEmailConfig;
  /**
   * A merchant's own action through the admin (approve, decline, cancel, reschedule, a change
   * decision, a booking they create, a payment link): its customer email always goes and is not
   * counted against the recipient's hourly cap (docs/bookings.md, "Abuse limits").
   */
  sentByMerchant?: boolean;
}

/** BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR's default. */
export const DEFAULT_BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR = 10;
const EMAIL_WINDOW_MS = 3_600_000;

/**
 * Whether one more booking email may go to `to` in this tenant now: at most
 * BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR (default 10) in a window of an hour from the window's
 * first email, counted in `trx` under the recipient's row lock so that concurrent changes never
 * pass the cap together. Beyond it the email is held back (not sent) and counted on the row
 * (`held_in_window`, `held_total`, `last_held_at`); the first one held in a window is also written
 * to the tenant's audit log (`booking.emails_held`), so the merchant sees it. A merchant's own
 * action, and the email that follows a payment the booking kept, are neither capped nor counted.
 *
 * Split by proof, as the hold limit is: the emails of bookings whose hold a signed-in customer made
 * in their own verified email count on a row of their own (its key the SHA-256 of `proven:` and
 * the address), so a stranger's unproven bookings in that email never hold back the owner's.
 */
async function admitCustomerEmail(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  to: string,
  booking: { id: string; event: BookingCustomerEvent; emailProven: boolean; afterKeptPayment: boolean },
): Promise<boolean> {
  if (ctx.sentByMerchant === true || booking.afterKeptPayment) return true;
  const limit = ctx.email.bookingEmailsPerRecipientPerHour ?? DEFAULT_BOOKING_EMAILS_PER_RECIPIENT_PER_HOUR;
  const recipientKey = bookingEmailRecipientKey(to, booking.emailProven);
  const where = { organization_id: ctx.organizationId, recipient_key: recipientKey };
  await trx
    .insertInto('booking_email_limits')
    .values({ ...where, window_started_at: ctx.at, sent_in_window: 0 })
    .onConflict((conflict) => conflict.columns(['organization_id', 'recipient_key']).doNothing())
    .execute();
  const row = await trx
    .selectFrom('booking_email_limits')
    .selectAll()
    .where('organization_id', '=', where.organization_id)
    .where('recipient_key', '=', where.recipient_key)
    .forUpdate()
    .executeTakeFirstOrThrow();
  const windowOpen = new Date(row.window_started_at).getTime() > ctx.at.getTime() - EMAIL_WINDOW_MS;
  const sent = windowOpen ? row.sent_in_window : 0;
  const held = windowOpen ? row.held_in_window : 0;
  const update = trx
    .updateTable('booking_email_limits')
    .where('organization_id', '=', where.organization_id)
    .where('recipient_key', '=', where.recipient_key);
  if (sent < limit) {
    await update
      .set({
        window_started_at: windowOpen ? row.window_started_at : ctx.at,
        sent_in_window: sent + 1,
        held_in_window: held,
      })
      .execute();
    return true;
  }
  await update
    .set({ held_in_window: held + 1, held_total: row.held_total + 1, last_held_at: ctx.at })
    .execute();
  if (held === 0) {
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: { userId: null, email: null },
      action: 'booking.emails_held',
      targetType: 'booking',
      targetId: booking.id,
      metadata: {
        event: booking.event,
        limitPerHour: limit,
        windowStartedAt: new Date(row.window_started_at).toISOString(),
      },
      at: ctx.at,
    });
  }
  return false;
}

/** The key of a recipient's booking email count: proven bookings' emails count apart from the rest. */
export function bookingEmailRecipientKey(to: string, emailProven: boolean): string {
  const address = to.toLowerCase();
  return hashToken(emailProven ? `proven:${address}` : address);
}

/** The guest management page of a booking, carrying its `m1_`. */
export function bookingManagePath(token: string): string {
  return `/bookings/manage/${token}`;
}

/** The hosted payment page of a checkout, carrying its `c1_`. */
export function bookingPaymentPath(checkoutToken: string): string {
  return `/checkout/pay?token=${checkoutToken}`;
}

/** The booking in the merchant's admin, the action link of merchant emails. */
export function merchantBookingPath(bookingId: string): string {
  return `/admin/bookings/${bookingId}`;
}

const CUSTOMER_COPY: Record<BookingCustomerEvent, { title: string; message: string }> = {
  REQUEST_RECEIVED: {
    title: 'Booking request received',
    message: 'We received your booking request. The business will review it and email you its answer.',
  },
  CONFIRMED: {
    title: 'Booking confirmed',
    message: 'Your booking is confirmed. We look forward to seeing you.',
  },
  PAYMENT_REQUIRED: {
    title: 'Payment required',
    message:
      'Your booking is reserved until the payment window closes. Pay with the button below to confirm it.',
  },
  DECLINED: {
    title: 'Booking declined',
    message: 'Sorry, the business could not accept your booking request.',
  },
  CANCELLED: { title: 'Booking cancelled', message: 'Your booking was cancelled.' },
  EXPIRED: {
    title: 'Booking expired',
    message: 'Your booking expired before it was confirmed, so the time is no longer reserved for you.',
  },
  RESCHEDULED: { title: 'Booking rescheduled', message: 'Your booking was moved to the time shown below.' },
  CHANGE_REQUEST_RECEIVED: {
    title: 'Change request received',
    message: 'We received your change request. The business will review it and email you its answer.',
  },
  CHANGE_REQUEST_APPROVED: {
    title: 'Change request approved',
    message: 'Your change request was approved. The booking below shows the result.',
  },
  CHANGE_REQUEST_DECLINED: {
    title: 'Change request declined',
    message: 'Sorry, your change request was declined. Your booking stays as it was.',
  },
};

const MERCHANT_COPY: Record<BookingMerchantEvent, { title: string; message: string }> = {
  NEW_REQUEST: {
    title: 'New booking request',
    message: 'A customer asked for a booking that awaits your approval.',
  },
  NEW_BOOKING: { title: 'New booking', message: 'A customer made a new booking.' },
  CHANGE_REQUESTED: {
    title: 'Change requested',
    message: 'A customer asked to change or cancel a booking. It awaits your decision.',
  },
  CUSTOMER_CANCELLED: {
    title: 'Booking cancelled by the customer',
    message: 'A customer cancelled a booking.',
  },
  REFUND_REQUIRED: {
    title: 'Refund required',
    message:
      'A payment arrived after the booking had expired and its time could no longer be reserved. The booking stays expired; refund the payment.',
  },
  LATE_PAYMENT_REFUNDED: {
    title: 'Late payment refunded',
    message:
      'A payment arrived after the booking had expired, when its time had started or could no longer be reserved. The booking stays expired; the payment is being refunded in full automatically.',
  },
};

/** What a booking email shows of its booking, in one query. */
async function loadBookingForEmail(trx: Kysely<Database>, organizationId: string, bookingId: string) {
  return trx
    .selectFrom('bookings')
    .innerJoin('booking_services', (join) =>
      join
        .onRef('booking_services.organization_id', '=', 'bookings.organization_id')
        .onRef('booking_services.id', '=', 'bookings.service_id'),
    )
    .select([
      'bookings.id',
      'bookings.code',
      'bookings.starts_at',
      'bookings.ends_at',
      'bookings.timezone',
      'bookings.customer_name',
      'bookings.customer_email',
      'bookings.email_proven',
      sql<string>`coalesce(bookings.snapshot->>'name', booking_services.name)`.as('service_name'),
    ])
    .where('bookings.organization_id', '=', organizationId)
    .where('bookings.id', '=', bookingId)
    .executeTakeFirstOrThrow();
}

type BookingForEmail = Awaited<ReturnType<typeof loadBookingForEmail>>;

/** An instant as the customer reads it in the service's timezone: `March 14, 2026 at 10:00 AM`. */
export function formatLocalInstant(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, dateStyle: 'long', timeStyle: 'short' }).format(at);
}

function bookingValues(
  booking: BookingForEmail,
  event: string,
  copy: { title: string; message: string },
  links: { manageUrl: string; paymentUrl: string | null },
): Record<string, string> {
  return {
    'customer.name': booking.customer_name,
    'booking.event': event,
    'booking.eventTitle': copy.title,
    'booking.eventMessage': copy.message,
    'booking.code': booking.code,
    'booking.serviceName': booking.service_name,
    'booking.startsAtLocal': formatLocalInstant(new Date(booking.starts_at), booking.timezone),
    'booking.endsAtLocal': formatLocalInstant(new Date(booking.ends_at), booking.timezone),
    'booking.timezone': booking.timezone,
    'booking.manageUrl': links.manageUrl,
    'booking.paymentUrl': links.paymentUrl ?? '',
    // The button opens the payment link when there is one: it must not say "View booking" then.
    'booking.actionLabel': links.paymentUrl ? 'Pay now' : 'View booking',
  };
}

/**
 * Writes a `BOOKING_NOTIFICATION` outbox row to the booking's customer in
 * `trx` (the transaction of the change, so the email exists exactly when the
 * change commits), with the booking's merge variables and a fresh `m1_`
 * management link (which revokes the booking's previous unused one). The call
 * to action is `paymentUrl` when one is given, else the management link.
 * `message` replaces the event's default sentence (a merchant's reason).
 * Unless a merchant's action sends it, or it follows a payment the booking
 * kept (`afterKeptPayment`: the CONFIRMED of a paid booking), the email counts
 * against the recipient's hourly cap and is held back beyond it
 * (`admitCustomerEmail`).
 */
export async function notifyBookingCustomer(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  bookingId: string,
  event: BookingCustomerEvent,
  extra: { paymentUrl?: string | null; message?: string | null; afterKeptPayment?: boolean } = {},
): Promise<void> {
  const booking = await loadBookingForEmail(trx, ctx.organizationId, bookingId);
  const admitted = await admitCustomerEmail(trx, ctx, booking.customer_email, {
    id: booking.id,
    event,
    emailProven: booking.email_proven,
    afterKeptPayment: extra.afterKeptPayment === true,
  });
  // Held back: no email, and no new management link (the one last sent stays valid).
  if (!admitted) return;
  // The CONFIRMED of a payment keeps the earlier links working: the customer paid from the
  // "Payment required" email, whose management link must outlive the payment.
  const token = await issueManagementToken(
    trx,
    ctx,
    { id: booking.id, endsAt: new Date(booking.ends_at) },
    { keepPrevious: extra.afterKeptPayment === true },
  );
  const manageUrl = customerLink(ctx.email, bookingManagePath(token));
  const paymentUrl = extra.paymentUrl ?? null;
  const defaults = CUSTOMER_COPY[event];
  const copy = extra.message ? { title: defaults.title, message: extra.message } : defaults;
  await enqueueTemplatedEmail(trx, {
    organizationId: ctx.organizationId,
    type: 'BOOKING_NOTIFICATION',
    emailFrom: ctx.email.emailFrom,
    at: ctx.at,
    to: booking.customer_email,
    values: bookingValues(booking, event, copy, { manageUrl, paymentUrl }),
    links: { action: paymentUrl ?? manageUrl },
    metadata: { bookingId: booking.id, event, audience: 'CUSTOMER' },
  });
}

const emailSchema = z.email().max(320);

/** `notifications.bookingEmail`, else `businessProfile.supportEmail`, else null. */
async function merchantBookingAddress(trx: Kysely<Database>, organizationId: string): Promise<string | null> {
  const row = await trx
    .selectFrom('organization_settings')
    .select(['notifications', 'business_profile'])
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  if (!row) return null;
  const notifications = (row.notifications ?? {}) as Record<string, unknown>;
  const profile = (row.business_profile ?? {}) as Record<string, unknown>;
  for (const candidate of [notifications.bookingEmail, profile.supportEmail]) {
    const parsed = emailSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
}

/**
 * Writes a `BOOKING_NOTIFICATION` outbox row to the merchant in `trx`: to
 * `notifications.bookingEmail`, else `businessProfile.supportEmail`; nothing
 * when neither is set. The call to action is the booking in the admin.
 */
export async function notifyBookingMerchant(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  bookingId: string,
  event: BookingMerchantEvent,
): Promise<void> {
  const to = await merchantBookingAddress(trx, ctx.organizationId);
  if (to === null) return;
  const booking = await loadBookingForEmail(trx, ctx.organizationId, bookingId);
  const manageUrl = customerLink(ctx.email, merchantBookingPath(booking.id));
  await enqueueTemplatedEmail(trx, {
    organizationId: ctx.organizationId,
    type: 'BOOKING_NOTIFICATION',
    emailFrom: ctx.email.emailFrom,
    at: ctx.at,
    to,
    values: bookingValues(booking, event, MERCHANT_COPY[event], { manageUrl, paymentUrl: null }),
    links: { action: manageUrl },
    metadata: { bookingId: booking.id, event, audience: 'MERCHANT' },
  });
}

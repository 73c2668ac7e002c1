import { hashToken, newId, newToken } from '@commerce/core';
import type { Database, PaymentStatus } from '@commerce/db';
import { customerLink } from '@commerce/notifications';
import { recordSale, type SaleLineInput } from '@commerce/orders';
import { type Kysely, type Selectable, sql } from 'kysely';
import { z } from 'zod';
import type { BookingClockContext } from '../context.ts';
import { lockBooking } from './lock-booking.ts';
import { type BookingNotifyContext, bookingPaymentPath, formatLocalInstant } from './notify.ts';

/**
 * Payments for bookings through the orders area: a booking's Sales record
 * (`source` BOOKING: a SERVICE line named after the service and interval, a
 * FEE line for delivery) and, for an amount due, a checkout session bound to
 * it (`checkout_sessions.sales_record_id`), paid through its
 * `payment-session` step and settled by the webhook (`settleBookingPayment`).
 *
 * Dependency direction: bookings depend on orders (its `recordSale`, its
 * tables); orders call back into bookings only through the settler the
 * gateway registers with `settlePaymentEvent` (docs/bookings.md, "Conversion").
 */

/** How long a payment link of a CONFIRMED booking's balance works when no expiry is given. */
export const PAYMENT_LINK_DAYS = 7;
const MS_PER_DAY = 86_400_000;

/**
 * An automatic refund the processor has failed this many times (the worker's
 * backoff: 1, 2, 4, 8 and 16 minutes, over half an hour) has finally failed:
 * the booking reads `refundRequired` until a later try succeeds.
 */
export const REFUND_OVERDUE_TRIES = 5;

/** The statuses of a checkout session that may still take a payment. */
export const OPEN_SESSION_STATUSES = ['OPEN', 'BOUND', 'AWAITING_PAYMENT', 'PAYMENT_FAILED'] as const;

type BookingRow = Selectable<Database['bookings']>;

/** A processor call owed after the commit (the cancellation of a closed payment's intent). */
export interface OwedPaymentAction {
  organizationId: string;
  paymentAttemptId: string;
}

/**
 * A bookings operation that may close a payment: `runPaymentActions` (the
 * orders area's, bound to the provider by the caller) makes the owed intent
 * cancellations right after the commit; without it the worker's checkout
 * sweep makes them, as for a cancelled order.
 */
export interface BookingPaymentCloseContext extends BookingClockContext {
  runPaymentActions?: (only: OwedPaymentAction) => Promise<unknown>;
}

/** `Kayak rental, March 14, 2026 at 10:00 AM to March 14, 2026 at 12:00 PM (Europe/Berlin)`, at most 500. */
export function bookingLineName(
  serviceName: string,
  booking: Pick<BookingRow, 'starts_at' | 'ends_at' | 'timezone'>,
) {
  const from = formatLocalInstant(new Date(booking.starts_at), booking.timezone);
  const to = formatLocalInstant(new Date(booking.ends_at), booking.timezone);
  return `${serviceName}, ${from} to ${to} (${booking.timezone})`.slice(0, 500);
}

const deliveryAreaSchema = z.object({ area: z.string().nullish() }).loose();

/** The Sales record lines of one booking: its SERVICE line, and a FEE line when delivered for a fee. */
export function bookingSaleLines(
  booking: Pick<
    BookingRow,
    'starts_at' | 'ends_at' | 'timezone' | 'subtotal_in_cents' | 'delivery_fee_in_cents' | 'delivery'
  >,
  serviceName: string,
): SaleLineInput[] {
  const lines: SaleLineInput[] = [
    {
      type: 'SERVICE',
      itemId: null,
      variantId: null,
      name: bookingLineName(serviceName, booking),
      quantity: 1,
      unitPriceInCents: booking.subtotal_in_cents,
    },
  ];
  if (booking.delivery_fee_in_cents > 0) {
    const area = deliveryAreaSchema.safeParse(booking.delivery ?? {});
    const label = area.success && area.data.area ? `Delivery (${area.data.area})` : 'Delivery';
    lines.push({
      type: 'FEE',
      itemId: null,
      variantId: null,
      name: label,
      quantity: 1,
      unitPriceInCents: booking.delivery_fee_in_cents,
    });
  }
  return lines;
}

async function serviceNameOf(trx: Kysely<Database>, booking: BookingRow): Promise<string> {
  const snapshotName = (booking.snapshot as { name?: unknown }).name;
  if (typeof snapshotName === 'string' && snapshotName !== '') return snapshotName;
  const row = await trx
    .selectFrom('booking_services')
    .select('name')
    .where('organization_id', '=', booking.organization_id)
    .where('id', '=', booking.service_id)
    .executeTakeFirstOrThrow();
  return row.name;
}

/**
 * The booking's Sales record: the existing one, or a new one at the frozen
 * price (SERVICE line, FEE line, the frozen tax) linked to the booking.
 */
async function ensureSalesRecord(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  booking: BookingRow,
  paymentStatus: PaymentStatus,
): Promise<{ id: string; created: boolean }> {
  if (booking.sales_record_id !== null) return { id: booking.sales_record_id, created: false };
  const sale = await recordSale(trx, {
    organizationId: ctx.organizationId,
    source: 'BOOKING',
    currency: booking.currency,
    customer: { name: booking.customer_name, email: booking.customer_email, phone: booking.customer_phone },
    lines: bookingSaleLines(booking, await serviceNameOf(trx, booking)),
    shippingInCents: 0,
    taxInCents: booking.tax_in_cents,
    // Prices that include tax: the booking's total is its lines, the tax recorded within them.
    taxIncluded:
      booking.tax_in_cents > 0 &&
      booking.total_in_cents === booking.subtotal_in_cents + booking.delivery_fee_in_cents,
    discountInCents: 0,
    paymentStatus,
    at: ctx.at,
  });
  await trx
    .updateTable('bookings')
    .set({ sales_record_id: sale.record.id, updated_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', booking.id)
    .execute();
  return { id: sale.record.id, created: true };
}

/** The ids of the checkout sessions (`s`) of a booking's Sales record, every status. */
export function bookingSessions(db: Kysely<Database>, organizationId: string, bookingId: string) {
  return db
    .selectFrom('checkout_sessions as s')
    .innerJoin('bookings as b', (join) =>
      join
        .onRef('b.organization_id', '=', 's.organization_id')
        .onRef('b.sales_record_id', '=', 's.sales_record_id'),
    )
    .select('s.id')
    .where('b.organization_id', '=', organizationId)
    .where('b.id', '=', bookingId);
}

/**
 * Locks the checkout sessions of a booking's Sales record (every one: a
 * closed session's payment may still arrive, and closing a booking's payment
 * cancels the attempts of all of them), in id order, before the caller locks
 * the booking: the order the webhook takes them in (session, attempt,
 * booking; orders' settle-payment-event), so a cancel, expiry or new payment
 * link racing a payment waits for it instead of deadlocking with it. With
 * `skipLocked`, answers false (locking nothing further) when a session is
 * busy elsewhere: the worker leaves that booking for its next run.
 */
export async function lockBookingPaymentSessions(
  trx: Kysely<Database>,
  organizationId: string,
  bookingId: string,
  options: { skipLocked?: boolean } = {},
): Promise<boolean> {
  const open = bookingSessions(trx, organizationId, bookingId).orderBy('s.id');
  if (!options.skipLocked) {
    await open.forUpdate('s').execute();
    return true;
  }
  const all = await open.execute();
  if (all.length === 0) return true;
  const locked = await open.forUpdate('s').skipLocked().execute();
  return locked.length === all.length;
}

/**
 * Closes the open payment links of a booking leaving CONFIRMED (a balance
 * link) without touching its Sales record's payment status: a
 * cancelled booking takes no more money (CANCELLED is final).
 * Answers the after-commit work, as `closeBookingPayment` does.
 */
export async function closeBookingPaymentLinks(
  trx: Kysely<Database>,
  ctx: BookingPaymentCloseContext,
  bookingId: string,
): Promise<() => Promise<void>> {
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  if (booking.sales_record_id === null) return async () => {};
  const owed = await closeOpenSessions(trx, ctx, booking.sales_record_id);
  const run = ctx.runPaymentActions;
  if (!run || owed.length === 0) return async () => {};
  return async () => {
    for (const only of owed) await run(only);
  };
}

/**
 * Closes every open checkout session of a Sales record (CANCELLED: its `c1_`
 * can no longer pay) and cancels the unpaid attempts of all its sessions (a
 * failed one's too, whatever its session's state: its intent can still be
 * confirmed by the browser holding its client secret), each owing the
 * processor the cancellation of its intent. Sessions are locked before their
 * attempts, the order payment-session and the webhook take them in.
 *
 * With `exceptSessionId` and `skipLocked` (the webhook closing the other
 * links of a balance it just settled, holding its own session's lock), only
 * the open sessions it can lock at once are closed: one busy elsewhere is
 * settled or refused on its own (its payment cannot exceed the balance).
 */
async function closeOpenSessions(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  salesRecordId: string,
  options: { exceptSessionId?: string; skipLocked?: boolean } = {},
): Promise<OwedPaymentAction[]> {
  const sessions = await trx
    .selectFrom('checkout_sessions')
    .select(['id', 'status'])
    .where('organization_id', '=', ctx.organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .$if(options.exceptSessionId !== undefined, (qb) => qb.where('id', '<>', options.exceptSessionId!))
    .$if(options.skipLocked === true, (qb) => qb.where('status', 'in', [...OPEN_SESSION_STATUSES]))
    .orderBy('id')
    .forUpdate()
    .$if(options.skipLocked === true, (qb) => qb.skipLocked())
    .execute();
  if (sessions.length === 0) return [];
  const sessionIds = sessions.map((session) => session.id);
  const openIds = sessions
    .filter((session) => (OPEN_SESSION_STATUSES as readonly string[]).includes(session.status))
    .map((session) => session.id);
  const cancelled = await trx
    .updateTable('payment_attempts')
    .set({
      status: 'CANCELLED',
      provider_action: 'CANCEL',
      provider_action_due_at: ctx.at,
      provider_action_tries: 0,
      updated_at: ctx.at,
    })
    .where('organization_id', '=', ctx.organizationId)
    .where('checkout_session_id', 'in', sessionIds)
    .where('status', 'in', ['PENDING', 'FAILED'])
    .returning(['organization_id', 'id'])
    .execute();
  if (openIds.length > 0)
    await trx
      .updateTable('checkout_sessions')
      .set({ status: 'CANCELLED', updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', 'in', openIds)
      .execute();
  return cancelled.map((row) => ({ organizationId: row.organization_id, paymentAttemptId: row.id }));
}

/**
 * The webhook's close of the other links of a Sales record whose balance a
 * payment just settled (in its transaction, holding that payment's session):
 * the open sessions it can lock at once are CANCELLED and their unpaid
 * attempts owe the cancellation of their intents, answered for the caller to
 * make after the commit.
 */
export async function closeOtherPaymentLinks(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  salesRecordId: string,
  paidSessionId: string,
): Promise<OwedPaymentAction[]> {
  return closeOpenSessions(trx, ctx, salesRecordId, { exceptSessionId: paidSessionId, skipLocked: true });
}

/**
 * What a Sales record keeps: the sum of its succeeded attempts, through its
 * checkout sessions (a refunded attempt is REFUNDED, not SUCCEEDED).
 */
export async function keptInCents(
  trx: Kysely<Database>,
  organizationId: string,
  salesRecordId: string,
): Promise<number> {
  const row = await trx
    .selectFrom('checkout_sessions as s')
    .innerJoin('payment_attempts as a', (join) =>
      join.onRef('a.organization_id', '=', 's.organization_id').onRef('a.checkout_session_id', '=', 's.id'),
    )
    .select((eb) => eb.fn.coalesce(eb.fn.sum<string | number>('a.amount_in_cents'), eb.lit(0)).as('kept'))
    .where('s.organization_id', '=', organizationId)
    .where('s.sales_record_id', '=', salesRecordId)
    .where('a.status', '=', 'SUCCEEDED')
    .executeTakeFirstOrThrow();
  return Number(row.kept);
}

/**
 * Opens the payment of a booking due now (conversion's PAYMENT flow, approval
 * to PENDING_PAYMENT, a payment link): its Sales record (reused, or created
 * `AWAITING_PAYMENT`; a record that FAILED or did not require payment awaits
 * it again while the booking is PENDING_PAYMENT), any open checkout of the
 * record closed (one open link: a new one closes the old), and a checkout
 * session BOUND to `amountInCents` until `expiresAt` (a payment link's
 * default: 7 days). Answers its `c1_` (stored hashed) and the payment URL.
 * The intents of closed attempts are cancelled by the worker's checkout sweep.
 */
export async function openBookingPayment(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  bookingId: string,
  options: { amountInCents: number; expiresAt: Date | null },
): Promise<{ checkoutToken: string; paymentUrl: string; expiresAt: Date | null }> {
  if (!Number.isInteger(options.amountInCents) || options.amountInCents <= 0)
    throw new Error('A booking payment needs a positive amount');
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  const record = await ensureSalesRecord(trx, ctx, booking, 'AWAITING_PAYMENT');
  if (!record.created && booking.status === 'PENDING_PAYMENT') {
    await trx
      .updateTable('sales_records')
      .set({ payment_status: 'AWAITING_PAYMENT', updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', record.id)
      .where('payment_status', 'in', ['FAILED', 'NOT_REQUIRED'])
      .execute();
  }
  await closeOpenSessions(trx, ctx, record.id);
  const expiresAt = options.expiresAt ?? new Date(ctx.at.getTime() + PAYMENT_LINK_DAYS * MS_PER_DAY);
  const checkoutToken = newToken('checkout');
  await trx
    .insertInto('checkout_sessions')
    .values({
      organization_id: ctx.organizationId,
      id: newId('chk', ctx.at),
      token_hash: hashToken(checkoutToken),
      status: 'BOUND',
      currency: booking.currency,
      email: booking.customer_email,
      customer_name: booking.customer_name,
      customer_phone: booking.customer_phone,
      subtotal_in_cents: options.amountInCents,
      shipping_in_cents: 0,
      tax_in_cents: 0,
      total_in_cents: options.amountInCents,
      bound_at: ctx.at,
      first_bound_at: ctx.at,
      expires_at: expiresAt,
      sales_record_id: record.id,
      created_at: ctx.at,
      updated_at: ctx.at,
    })
    .execute();
  return {
    checkoutToken,
    paymentUrl: customerLink(ctx.email, bookingPaymentPath(checkoutToken)),
    expiresAt,
  };
}

/**
 * A new `c1_` for the booking's open checkout (a conversion
 * replay carries a fresh credential for the same checkout, never a second
 * payment intent); earlier tokens keep working until the session expires.
 * Null when the booking has no open checkout.
 */
export async function reissueBookingCheckoutToken(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  bookingId: string,
): Promise<{ checkoutToken: string; paymentUrl: string; expiresAt: Date } | null> {
  const session = await trx
    .selectFrom('checkout_sessions as s')
    .innerJoin('bookings as b', (join) =>
      join
        .onRef('b.organization_id', '=', 's.organization_id')
        .onRef('b.sales_record_id', '=', 's.sales_record_id'),
    )
    .select(['s.id', 's.expires_at', 's.status'])
    .where('b.organization_id', '=', ctx.organizationId)
    .where('b.id', '=', bookingId)
    .where('s.status', 'in', [...OPEN_SESSION_STATUSES])
    .where((eb) => eb.or([eb('s.status', '=', 'AWAITING_PAYMENT'), eb('s.expires_at', '>', ctx.at)]))
    .orderBy('s.created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!session) return null;
  const checkoutToken = newToken('checkout');
  await trx
    .insertInto('checkout_session_tokens')
    .values({
      token_hash: hashToken(checkoutToken),
      organization_id: ctx.organizationId,
      checkout_session_id: session.id,
      created_at: ctx.at,
    })
    .execute();
  return {
    checkoutToken,
    paymentUrl: customerLink(ctx.email, bookingPaymentPath(checkoutToken)),
    expiresAt: new Date(session.expires_at),
  };
}

/**
 * Closes the open payment of a booking leaving PENDING_PAYMENT without paying
 * (expiry, cancellation), in the caller's transaction: the booking's Sales
 * record is voided (`bookings.voided_at`; a record still awaiting payment
 * becomes FAILED: no payment will be made), its open checkout sessions are
 * CANCELLED and their unpaid attempts owe the cancellation of their intents.
 * Answers the after-commit work: those cancellations through
 * `ctx.runPaymentActions` when given (else the worker's checkout sweep makes
 * them). A success arriving later is a late payment.
 */
export async function closeBookingPayment(
  trx: Kysely<Database>,
  ctx: BookingPaymentCloseContext,
  bookingId: string,
): Promise<() => Promise<void>> {
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  if (booking.sales_record_id === null) return async () => {};
  const owed = await closeOpenSessions(trx, ctx, booking.sales_record_id);
  await trx
    .updateTable('sales_records')
    .set({ payment_status: 'FAILED', updated_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', booking.sales_record_id)
    .where('payment_status', '=', 'AWAITING_PAYMENT')
    .execute();
  await trx
    .updateTable('bookings')
    .set({ voided_at: ctx.at, updated_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', booking.id)
    .where('voided_at', 'is', null)
    .execute();
  const run = ctx.runPaymentActions;
  if (!run || owed.length === 0) return async () => {};
  return async () => {
    for (const only of owed) await run(only);
  };
}

/**
 * Creates the Sales record of a booking confirmed without payment due now
 * (`NOT_REQUIRED`, the whole balance open); a booking that has one keeps it.
 */
export async function recordConfirmedBookingSale(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  bookingId: string,
): Promise<void> {
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  await ensureSalesRecord(trx, ctx, booking, 'NOT_REQUIRED');
}

/** The `payment` object of booking reads; null while the booking has no Sales record. */
export const bookingPaymentSchema = z
  .object({
    salesRecordId: z.string(),
    paymentStatus: z.enum(['NOT_REQUIRED', 'AWAITING_PAYMENT', 'PAID', 'FAILED', 'REFUNDED']),
    totalInCents: z.number().int(),
    paidInCents: z
      .number()
      .int()
      .describe(
        'What the booking keeps: its succeeded payments, net of those refunded; never above the total',
      ),
    balanceDueInCents: z.number().int().describe('`totalInCents` − `paidInCents`, never negative'),
    paymentExpiresAt: z
      .string()
      .nullable()
      .describe('The end of the payment window of a `PENDING_PAYMENT` booking'),
    voidedAt: z.string().nullable().describe('When the payment was closed unpaid (expiry, cancellation)'),
    refundRequired: z
      .boolean()
      .describe(
        'A payment the booking could not keep is still not refunded: its automatic refund has failed for over half an hour (still retried), or a payment was kept for a checkout some of whose bookings lost their time. Refund it by hand',
      ),
  })
  .meta({ id: 'BookingPayment' });
export type BookingPayment = z.infer<typeof bookingPaymentSchema>;

/**
 * The `payment` object of each booking in ONE query: the Sales record
 * with the sum of its succeeded attempts (through its checkout sessions).
 * Bookings without a Sales record (REQUESTED) map to null; ids of no booking
 * of the organization are absent.
 */
export async function readBookingPayments(
  db: Kysely<Database>,
  organizationId: string,
  bookingIds: readonly string[],
): Promise<Map<string, BookingPayment | null>> {
  const result = new Map<string, BookingPayment | null>();
  const ids = [...new Set(bookingIds)];
  if (ids.length === 0) return result;
  const rows = await db
    .selectFrom('bookings as b')
    .leftJoin('sales_records as r', (join) =>
      join.onRef('r.organization_id', '=', 'b.organization_id').onRef('r.id', '=', 'b.sales_record_id'),
    )
    .select([
      'b.id',
      'b.payment_expires_at',
      'b.voided_at',
      'b.refund_required',
      sql<boolean>`exists (
        select 1 from checkout_sessions s
        join payment_attempts a on a.organization_id = s.organization_id and a.checkout_session_id = s.id
        where s.organization_id = b.organization_id and s.sales_record_id = b.sales_record_id
          and a.status = 'REFUNDED' and a.provider_action = 'REFUND'
          and a.provider_action_tries >= ${REFUND_OVERDUE_TRIES}
      )`.as('refund_overdue'),
      'r.id as sales_record_id',
      'r.payment_status',
      'r.total_in_cents',
      sql<string | number>`coalesce((
        select sum(a.amount_in_cents)
        from checkout_sessions s
        join payment_attempts a on a.organization_id = s.organization_id and a.checkout_session_id = s.id
        where s.organization_id = b.organization_id and s.sales_record_id = b.sales_record_id
          and a.status = 'SUCCEEDED'
      ), 0)`.as('paid_in_cents'),
    ])
    .where('b.organization_id', '=', organizationId)
    .where('b.id', 'in', ids)
    .execute();
  for (const row of rows) {
    if (row.sales_record_id === null || row.payment_status === null || row.total_in_cents === null) {
      result.set(row.id, null);
      continue;
    }
    const paid = Number(row.paid_in_cents);
    const total = Number(row.total_in_cents);
    result.set(row.id, {
      salesRecordId: row.sales_record_id,
      paymentStatus: row.payment_status,
      totalInCents: total,
      paidInCents: paid,
      balanceDueInCents: Math.max(0, total - paid),
      paymentExpiresAt: row.payment_expires_at ? new Date(row.payment_expires_at).toISOString() : null,
      voidedAt: row.voided_at ? new Date(row.voided_at).toISOString() : null,
      refundRequired: row.refund_required || Boolean(row.refund_overdue),
    });
  }
  return result;
}

export interface BookingPaymentReport {
  /** Bookings with a Sales record that were looked at. */
  bookingsChecked: number;
  /** Bookings whose record keeps more than its total: the invariant broken. */
  overpaid: {
    organizationId: string;
    bookingId: string;
    salesRecordId: string;
    totalInCents: number;
    keptInCents: number;
  }[];
  /** Refunds of booking payments still owed to the processor (made by the worker, retried with backoff). */
  refundsOwed: number;
  ok: boolean;
}

/**
 * The booking payment invariant: for every booking, what its Sales record
 * keeps (the sum of its succeeded payments, net of refunded ones) is at most
 * its total. Reads the whole database (or one tenant) in one query; used by
 * `bench/check-booking-payments.ts` and the tests.
 */
export async function checkBookingPayments(
  db: Kysely<Database>,
  options: { organizationId?: string } = {},
): Promise<BookingPaymentReport> {
  const tenant = options.organizationId ?? null;
  const { rows } = await sql<{
    organization_id: string;
    id: string;
    sales_record_id: string;
    total_in_cents: number;
    kept_in_cents: string | number;
  }>`
    select b.organization_id, b.id, b.sales_record_id, r.total_in_cents,
      coalesce((
        select sum(a.amount_in_cents)
        from checkout_sessions s
        join payment_attempts a on a.organization_id = s.organization_id and a.checkout_session_id = s.id
        where s.organization_id = b.organization_id and s.sales_record_id = b.sales_record_id
          and a.status = 'SUCCEEDED'
      ), 0) as kept_in_cents
    from bookings b
    join sales_records r on r.organization_id = b.organization_id and r.id = b.sales_record_id
    where (${tenant}::text is null or b.organization_id = ${tenant}::text)
  `.execute(db);
  const owed = await sql<{ owed: string | number }>`
    select count(*) as owed
    from payment_attempts a
    join checkout_sessions s on s.organization_id = a.organization_id and s.id = a.checkout_session_id
    where s.sales_record_id is not null and a.provider_action = 'REFUND'
      and (${tenant}::text is null or a.organization_id = ${tenant}::text)
  `.execute(db);
  const overpaid = rows
    .filter((row) => Number(row.kept_in_cents) > row.total_in_cents)
    .map((row) => ({
      organizationId: row.organization_id,
      bookingId: row.id,
      salesRecordId: row.sales_record_id,
      totalInCents: row.total_in_cents,
      keptInCents: Number(row.kept_in_cents),
    }));
  return {
    bookingsChecked: rows.length,
    overpaid,
    refundsOwed: Number(owed.rows[0]?.owed ?? 0),
    ok: overpaid.length === 0,
  };
}

import { AppError, keysetAfter, type Page, toPage } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { parseInstant } from '../availability/schemas.ts';
import type { BookingClockContext } from '../context.ts';
import { durationBetween, endAfter, toEpochMinutes } from '../time/zone.ts';
import { lockBookingPaymentSessions } from './booking-payments.ts';
import {
  type BookingDetail,
  type BookingRow,
  bookingInstant,
  findBooking,
  readBookingDetail,
} from './booking-read.ts';
import { createChangeRequest } from './change-requests.ts';
import type {
  CancelRequestInput,
  CustomerActionResult,
  CustomerBookingListQuery,
  CustomerBookingSummary,
  RescheduleRequestInput,
} from './customer-schemas.ts';
import { findGuestAccess, inRetriedTransaction, runGuestMutation } from './guest-access.ts';
import type { BookingNotifyContext } from './notify.ts';
import {
  bookingActions,
  type PolicySubject,
  requireCustomerAction,
  resolveBookingPolicies,
} from './policy.ts';
import { cancelBooking } from './transitions/cancel-booking.ts';
import { rescheduleBooking } from './transitions/reschedule-booking.ts';

/**
 * The customer account's and the guest link's booking use cases
 * (docs/bookings.md "Customer and guest routes").
 * A booking is the signed-in customer's when linked to their id or placed
 * with their verified email (as for orders); anything else — unknown,
 * another store's, another customer's — is the same neutral 404.
 */

/** The signed-in customer of a tenant. */
export interface BookingOwner {
  organizationId: string;
  customerId: string;
}

const MS_PER_MINUTE = 60_000;
export const bookingNotFoundForCustomer = () => AppError.notFound('Booking not found');

/** The customer's email when verified (the address a sign-in proved), else null. */
async function verifiedEmailOf(db: Kysely<Database>, owner: BookingOwner): Promise<string | null> {
  const row = await db
    .selectFrom('customers')
    .select('email')
    .where('organization_id', '=', owner.organizationId)
    .where('id', '=', owner.customerId)
    .where('email_verified_at', 'is not', null)
    .executeTakeFirst();
  return row?.email ?? null;
}

/** Linked by id, or placed with the verified email (citext: case-insensitive). */
function ownedBy(customerId: string, email: string | null) {
  return (eb: ExpressionBuilder<Database, 'bookings'>) =>
    eb.or([
      eb('bookings.customer_id', '=', customerId),
      ...(email === null ? [] : [eb('bookings.customer_email', '=', sql<string>`${email}::citext`)]),
    ]);
}

async function ownedBookingId(
  db: Kysely<Database>,
  owner: BookingOwner,
  bookingId: string,
  email: string | null,
): Promise<string | null> {
  if (bookingId.length > 64) return null;
  const row = await db
    .selectFrom('bookings')
    .select('id')
    .where('organization_id', '=', owner.organizationId)
    .where('id', '=', bookingId)
    .where(ownedBy(owner.customerId, email))
    .executeTakeFirst();
  return row?.id ?? null;
}

/** What the policy reads of a booking, in one query. */
async function policySubjectOf(
  db: Kysely<Database>,
  organizationId: string,
  bookingId: string,
  options: { isTokenConsumed?: boolean } = {},
): Promise<PolicySubject | null> {
  const row = await db
    .selectFrom('bookings as b')
    .innerJoin('booking_services as s', (join) =>
      join.onRef('s.organization_id', '=', 'b.organization_id').onRef('s.id', '=', 'b.service_id'),
    )
    .select(['b.status', 'b.starts_at', 'b.ends_at', 'b.timezone', 'b.snapshot', 's.policies'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('booking_change_requests as r')
            .select(sql<number>`1`.as('one'))
            .whereRef('r.organization_id', '=', 'b.organization_id')
            .whereRef('r.booking_id', '=', 'b.id')
            .where('r.status', '=', 'PENDING'),
        )
        .as('has_pending'),
    )
    .where('b.organization_id', '=', organizationId)
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    status: row.status,
    startsAt: new Date(row.starts_at),
    endsAt: new Date(row.ends_at),
    timezone: row.timezone,
    policies: resolveBookingPolicies(row.snapshot, row.policies),
    hasPendingChangeRequest: Boolean(row.has_pending),
    isTokenConsumed: options.isTokenConsumed === true,
  };
}

/** The customer detail with `actions` from the policy (all `NONE` for a consumed guest token). */
async function customerDetail(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  bookingId: string,
  options: { isTokenConsumed?: boolean } = {},
): Promise<BookingDetail> {
  const [detail, subject] = await Promise.all([
    readBookingDetail(db, ctx, bookingId, 'CUSTOMER'),
    policySubjectOf(db, ctx.organizationId, bookingId, options),
  ]);
  if (!detail || !subject) throw bookingNotFoundForCustomer();
  return { ...detail, actions: bookingActions(subject, ctx.at) };
}

// ─── Reads ────────────────────────────────────────────────────────────────────

/**
 * `GET /customer/account/bookings`: the customer's bookings, `{ data,
 * nextCursor }`. `timeframe` `UPCOMING` (ending after now) runs by `startsAt`
 * ascending, `PAST` (ended) and no timeframe descending, `id` breaking ties;
 * `status` filters. A cursor that names no booking of the customer is 400.
 * One query for the page (the pending-request flag is a subquery per row).
 */
export async function listCustomerBookings(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  owner: BookingOwner,
  query: CustomerBookingListQuery,
): Promise<Page<CustomerBookingSummary>> {
  const email = await verifiedEmailOf(db, owner);
  const direction = query.timeframe === 'UPCOMING' ? 'asc' : 'desc';
  let cursorRow: { id: string; starts_at: Date | string } | undefined;
  if (query.cursor !== undefined) {
    cursorRow = await db
      .selectFrom('bookings')
      .select(['id', 'starts_at'])
      .where('organization_id', '=', owner.organizationId)
      .where('id', '=', query.cursor)
      .where(ownedBy(owner.customerId, email))
      .executeTakeFirst();
    if (!cursorRow) throw AppError.validation([{ path: 'cursor', message: 'does not name a booking' }]);
  }
  const rows = await db
    .selectFrom('bookings')
    .innerJoin('booking_services as s', (join) =>
      join
        .onRef('s.organization_id', '=', 'bookings.organization_id')
        .onRef('s.id', '=', 'bookings.service_id'),
    )
    .select([
      'bookings.id',
      'bookings.code',
      'bookings.status',
      'bookings.service_id',
      'bookings.timezone',
      'bookings.starts_at',
      'bookings.ends_at',
      'bookings.quantity',
      'bookings.currency',
      'bookings.total_in_cents',
      'bookings.snapshot',
      'bookings.created_at',
      's.slug',
      's.name',
      's.policies',
    ])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('booking_change_requests as r')
            .select(sql<number>`1`.as('one'))
            .whereRef('r.organization_id', '=', 'bookings.organization_id')
            .whereRef('r.booking_id', '=', 'bookings.id')
            .where('r.status', '=', 'PENDING'),
        )
        .as('has_pending'),
    )
    .where('bookings.organization_id', '=', owner.organizationId)
    .where(ownedBy(owner.customerId, email))
    .$if(query.status !== undefined, (qb) => qb.where('bookings.status', 'in', query.status!))
    .$if(query.timeframe === 'UPCOMING', (qb) => qb.where('bookings.ends_at', '>', ctx.at))
    .$if(query.timeframe === 'PAST', (qb) => qb.where('bookings.ends_at', '<=', ctx.at))
    .$if(cursorRow !== undefined, (qb) =>
      qb.where((eb) =>
        keysetAfter(eb, [
          { column: 'bookings.starts_at', direction, value: new Date(cursorRow!.starts_at) },
          { column: 'bookings.id', direction, value: cursorRow!.id },
        ]),
      ),
    )
    .orderBy('bookings.starts_at', direction)
    .orderBy('bookings.id', direction)
    .limit(query.limit + 1)
    .execute();

  const summaries = rows.map((row): CustomerBookingSummary => {
    const snapshot = row.snapshot as { service?: { slug?: string; name?: string } } | null;
    const hasPendingChangeRequest = Boolean(row.has_pending);
    return {
      id: row.id,
      code: row.code,
      status: row.status,
      service: {
        id: row.service_id,
        slug: snapshot?.service?.slug ?? row.slug,
        name: snapshot?.service?.name ?? row.name,
      },
      timezone: row.timezone,
      startsAt: bookingInstant(row.starts_at, row.timezone),
      endsAt: bookingInstant(row.ends_at, row.timezone),
      quantity: row.quantity,
      price: { currency: row.currency, totalInCents: row.total_in_cents },
      actions: bookingActions(
        {
          status: row.status,
          startsAt: new Date(row.starts_at),
          endsAt: new Date(row.ends_at),
          timezone: row.timezone,
          policies: resolveBookingPolicies(row.snapshot, row.policies),
          hasPendingChangeRequest,
        },
        ctx.at,
      ),
      hasPendingChangeRequest,
      createdAt: new Date(row.created_at).toISOString(),
    };
  });
  return toPage(summaries, query.limit);
}

/** `GET /customer/account/bookings/:id`: the detail, or the neutral 404. */
export async function getCustomerBooking(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  owner: BookingOwner,
  bookingId: string,
): Promise<BookingDetail> {
  const email = await verifiedEmailOf(db, owner);
  const id = await ownedBookingId(db, owner, bookingId, email);
  if (id === null) throw bookingNotFoundForCustomer();
  return customerDetail(db, ctx, id);
}

/** `GET /customer/bookings/:token`: the detail a live token opens; a consumed one shows every action `NONE`. */
export async function getGuestBooking(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  token: string,
): Promise<BookingDetail> {
  const access = await findGuestAccess(db, ctx, token);
  return customerDetail(db, ctx, access.bookingId, { isTokenConsumed: access.consumedAction !== null });
}

// ─── Mutations ────────────────────────────────────────────────────────────────

export type CustomerActionRequest =
  | ({ kind: 'CANCEL' } & CancelRequestInput)
  | ({ kind: 'RESCHEDULE' } & RescheduleRequestInput);

/**
 * The new interval of a reschedule, which must keep the booked duration: a
 * booking of n × 1,440 minutes (the same wall time n local days later) keeps
 * its wall times whatever the daylight-saving changes between; any other its
 * elapsed minutes. Else 400 on `endsAt`.
 */
export function rescheduleInterval(
  booking: Pick<BookingRow, 'starts_at' | 'ends_at' | 'timezone'>,
  input: { startsAt: string; endsAt: string },
): { startsAt: Date; endsAt: Date } {
  const startMinute = toEpochMinutes(parseInstant(input.startsAt)!);
  const endMinute = toEpochMinutes(parseInstant(input.endsAt)!);
  const booked = durationBetween(
    booking.timezone,
    toEpochMinutes(new Date(booking.starts_at).getTime()),
    toEpochMinutes(new Date(booking.ends_at).getTime()),
  );
  if (endAfter(booking.timezone, startMinute, booked) !== endMinute) {
    throw AppError.validation([
      {
        path: 'endsAt',
        message:
          booked % 1_440 === 0
            ? `must keep the booked ${booked / 1_440} local day(s): the same wall time as startsAt`
            : `must be the booked duration, ${booked} minutes after startsAt`,
      },
    ]);
  }
  return { startsAt: new Date(startMinute * MS_PER_MINUTE), endsAt: new Date(endMinute * MS_PER_MINUTE) };
}

/**
 * Decides and makes one customer or guest action on a booking, locked first:
 * the policy's `APPLY` cancels (or reschedules) at once through the booking
 * transitions, `REQUEST` records a pending change request, `NONE` is 409.
 */
async function actOnBooking(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  bookingId: string,
  actor: 'CUSTOMER' | 'GUEST',
  request: CustomerActionRequest,
): Promise<{ outcome: 'APPLIED' | 'REQUESTED'; afterCommit?: () => Promise<void> }> {
  // Its payment sessions before the booking, the order the payment webhook takes them in: a cancel
  // racing a payment waits for it instead of deadlocking with it.
  await lockBookingPaymentSessions(trx, ctx.organizationId, bookingId);
  const booking = await findBooking(trx, ctx.organizationId, bookingId, { forUpdate: true });
  if (!booking) throw bookingNotFoundForCustomer();
  const interval = request.kind === 'RESCHEDULE' ? rescheduleInterval(booking, request) : null;
  const subject = await policySubjectOf(trx, ctx.organizationId, bookingId);
  if (!subject) throw bookingNotFoundForCustomer();
  const decision = requireCustomerAction(subject, request.kind, ctx.at);
  const by = { actor, reason: request.reason ?? null };

  if (decision === 'REQUEST') {
    await createChangeRequest(trx, ctx, booking, {
      kind: request.kind,
      ...(interval ?? {}),
      reason: request.reason ?? null,
      actor,
    });
    return { outcome: 'REQUESTED' };
  }
  if (interval !== null) {
    await rescheduleBooking(trx, ctx, bookingId, interval, by);
    return { outcome: 'APPLIED' };
  }
  const { afterCommit } = await cancelBooking(trx, ctx, bookingId, by);
  return { outcome: 'APPLIED', afterCommit };
}

/**
 * `POST /customer/account/bookings/:id/cancel-request` and
 * `…/reschedule-request`: the customer's own booking (else the neutral 404),
 * decided by its policy at `ctx.at`; answers the outcome and the booking as it
 * is after, and the after-commit work of a cancel (a provider call) for the
 * caller to run once committed. Handed a transaction (an idempotency key's), it
 * runs in it.
 */
export async function requestCustomerBookingChange(
  db: Kysely<Database>,
  ctx: BookingNotifyContext,
  owner: BookingOwner,
  bookingId: string,
  request: CustomerActionRequest,
): Promise<{ result: CustomerActionResult; afterCommit?: () => Promise<void> }> {
  return inRetriedTransaction(db, async (trx) => {
    const email = await verifiedEmailOf(trx, owner);
    const id = await ownedBookingId(trx, owner, bookingId, email);
    if (id === null) throw bookingNotFoundForCustomer();
    const { outcome, afterCommit } = await actOnBooking(trx, ctx, id, 'CUSTOMER', request);
    const result = { outcome, booking: await customerDetail(trx, ctx, id) };
    return afterCommit ? { result, afterCommit } : { result };
  });
}

/** The route templates a guest token's one mutation is recorded under. */
export const GUEST_CANCEL_ROUTE = 'POST /customer/bookings/{token}/cancel-request';
export const GUEST_RESCHEDULE_ROUTE = 'POST /customer/bookings/{token}/reschedule-request';

/**
 * `POST /customer/bookings/:token/cancel-request` and `…/reschedule-request`:
 * as the account routes, acting as `GUEST`, once per token (see
 * `runGuestMutation`): the same route and body replays the recorded result.
 */
export async function requestGuestBookingChange(
  db: Kysely<Database>,
  ctx: BookingNotifyContext,
  token: string,
  request: CustomerActionRequest,
): Promise<{ result: CustomerActionResult; replayed: boolean; afterCommit?: () => Promise<void> }> {
  const { kind, ...body } = request;
  const { response, replayed, afterCommit } = await runGuestMutation<CustomerActionResult>(
    db,
    ctx,
    token,
    { route: kind === 'CANCEL' ? GUEST_CANCEL_ROUTE : GUEST_RESCHEDULE_ROUTE, body },
    async (trx, bookingId) => {
      const { outcome, afterCommit } = await actOnBooking(trx, ctx, bookingId, 'GUEST', request);
      const booking = await customerDetail(trx, ctx, bookingId, { isTokenConsumed: true });
      return { response: { outcome, booking }, ...(afterCommit ? { afterCommit } : {}) };
    },
  );
  return { result: response, replayed, ...(afterCommit ? { afterCommit } : {}) };
}

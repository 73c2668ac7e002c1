import { AppError } from '@commerce/core';
import { type AuditActor, type BookingStatus, type Database, recordAudit } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { Allocation, ResourceSelection } from '../../availability/assign.ts';
import { selectionIssues } from '../../availability/validate.ts';
import { lockResources } from '../../capacity/capacity-lock.ts';
import { insertClaims } from '../../capacity/claims.ts';
import { type BookingServiceTerms, MS_PER_MINUTE } from '../booking-claims.ts';
import type { BookingPaymentCloseContext } from '../booking-payments.ts';
import type { BookingRow } from '../booking-read.ts';
import { bookingEventOf, emitBookingEvent } from '../booking-webhooks.ts';
import { appendHistory, type BookingActor } from '../history.ts';
import { type BookingCustomerEvent, type BookingNotifyContext, notifyBookingCustomer } from '../notify.ts';

/**
 * The steps the booking transitions share (the transitions other than conversion and payment,
 * one use case per file beside this one). Each transition runs in the caller's transaction
 * (READ COMMITTED: claims refuse other levels), locks the booking row first, takes the capacity
 * lock where claims move, appends `history[]`, writes the customer's and merchant's emails to the
 * outbox and, for a merchant, the audit event; a move the booking state table does not list is
 * `409 INVALID_STATE_TRANSITION` and changes nothing.
 */

/** Who makes a transition; `userEmail` only names a merchant in the audit log. */
export interface TransitionBy {
  actor: BookingActor;
  userId?: string | null;
  userEmail?: string | null;
  reason?: string | null;
  /** Email the customer about the change (default true). */
  notifyCustomer?: boolean;
}

/**
 * The tenant, the instant, the email settings, and optionally how to make the
 * processor calls a closed payment owes right after the commit (else the
 * worker's checkout sweep makes them).
 */
export type BookingTransitionContext = BookingNotifyContext & BookingPaymentCloseContext;

export function invalidTransition(status: BookingStatus, reason?: string): AppError {
  return new AppError(
    'INVALID_STATE_TRANSITION',
    `The booking is ${status}: this action is not allowed`,
    reason === undefined ? { status } : { status, reason },
  );
}

/** An instant as the audit log writes it. */
export const iso = (value: Date | string) => new Date(value).toISOString();

function auditActor(by: TransitionBy): AuditActor {
  return { userId: by.userId ?? null, email: by.userEmail ?? null };
}

/** A merchant transition's audit event: ids, statuses and intervals, never addresses. */
export async function auditMerchant(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  by: TransitionBy,
  action: string,
  booking: BookingRow,
  metadata: Record<string, unknown>,
): Promise<void> {
  if (by.actor !== 'MERCHANT') return;
  await recordAudit(trx, {
    organizationId: ctx.organizationId,
    actor: auditActor(by),
    action,
    targetType: 'booking',
    targetId: booking.id,
    metadata: { bookingId: booking.id, code: booking.code, ...metadata },
    at: ctx.at,
  });
}

/** Moves the booking to `to`, appending the move to its `history[]`. */
export async function setStatus(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  booking: BookingRow,
  to: BookingStatus,
  by: TransitionBy,
  extra: Partial<{
    payment_expires_at: Date | null;
    starts_at: Date;
    ends_at: Date;
  }> = {},
): Promise<void> {
  await trx
    .updateTable('bookings')
    .set({
      status: to,
      ...extra,
      history: appendHistory(ctx, {
        from: booking.status,
        to,
        actor: by.actor,
        userId: by.userId ?? null,
        reason: by.reason ?? null,
      }),
      updated_at: ctx.at,
    })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', booking.id)
    .execute();
  // A move back to CONFIRMED with a new interval is a reschedule.
  await emitBookingEvent(
    trx,
    ctx,
    booking.id,
    extra.starts_at !== undefined && to === 'CONFIRMED' ? 'booking.rescheduled' : bookingEventOf(to),
  );
}

/** The customer's email of a transition, unless `by.notifyCustomer` is false. */
export async function notifyCustomer(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  event: BookingCustomerEvent,
  by: TransitionBy,
  extra: { paymentUrl?: string | null; message?: string | null } = {},
): Promise<void> {
  if (by.notifyCustomer === false) return;
  await notifyBookingCustomer(trx, ctx, bookingId, event, extra);
}

/**
 * Marks the booking's pending change request decided (`WITHDRAWN` when the booking is declined,
 * cancelled or expired; a booking that starts has its request withdrawn by the worker's sweep,
 * `withdrawStartedChangeRequests`, in SQL).
 */
export async function settlePendingChangeRequest(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  status: 'WITHDRAWN' | 'APPROVED' | 'DECLINED',
  decision: { userId?: string | null; reason?: string | null } = {},
): Promise<number> {
  const result = await trx
    .updateTable('booking_change_requests')
    .set({
      status,
      decided_at: ctx.at,
      decided_by_user_id: decision.userId ?? null,
      decision_reason: decision.reason ?? null,
      updated_at: ctx.at,
    })
    .where('organization_id', '=', ctx.organizationId)
    .where('booking_id', '=', bookingId)
    .where('status', '=', 'PENDING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The booking's resources as they stand: the allocation a new claim prefers to keep. */
export async function preferredAllocations(trx: Kysely<Database>, organizationId: string, bookingId: string) {
  const rows = await trx
    .selectFrom('booking_allocations')
    .select(['requirement_id', 'resource_id', 'quantity', 'selection'])
    .where('organization_id', '=', organizationId)
    .where('booking_id', '=', bookingId)
    .orderBy('position')
    .execute();
  return rows.map((row) => ({
    requirementId: row.requirement_id,
    resourceId: row.resource_id,
    quantity: row.quantity,
    selection: row.selection,
  }));
}

/** The booking's resources (`booking_allocations`), replaced whole. */
export async function writeAllocations(
  trx: Kysely<Database>,
  ctx: { organizationId: string },
  bookingId: string,
  terms: BookingServiceTerms,
  allocations: readonly Allocation[],
): Promise<void> {
  await trx
    .deleteFrom('booking_allocations')
    .where('organization_id', '=', ctx.organizationId)
    .where('booking_id', '=', bookingId)
    .execute();
  if (allocations.length === 0) return;
  await trx
    .insertInto('booking_allocations')
    .values(
      allocations.map((allocation, position) => ({
        organization_id: ctx.organizationId,
        booking_id: bookingId,
        requirement_id: allocation.requirementId,
        resource_id: allocation.resourceId,
        quantity: allocation.quantity,
        selection: terms.requirementInfo.get(allocation.requirementId)?.selection ?? 'AUTO',
        position,
      })),
    )
    .execute();
}

/**
 * Claims `allocations` for the booking over the claim window, after locking
 * the service's pools (and `extraResourceIds`, the booking's old resources)
 * in id order; the trigger checks every insert.
 */
export async function claimFor(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  plan: { allocations: readonly Allocation[]; claimStart: number; claimEnd: number },
  expiresAt: Date | null,
): Promise<void> {
  await insertClaims(
    trx,
    ctx,
    plan.allocations.map((allocation) => ({
      resourceId: allocation.resourceId,
      quantity: allocation.quantity,
      startsAt: new Date(plan.claimStart * MS_PER_MINUTE),
      endsAt: new Date(plan.claimEnd * MS_PER_MINUTE),
      expiresAt,
      owner: { kind: 'BOOKING' as const, id: bookingId },
    })),
  );
  // The claimed window (buffers included) is the booking's from now on: a payment settled later
  // claims this one again, not the hold's (booking-settlement.ts `claimWindowOf`).
  const window = JSON.stringify({ startMinute: plan.claimStart, endMinute: plan.claimEnd });
  await trx
    .updateTable('bookings')
    .set({ snapshot: sql<string>`jsonb_set(snapshot, '{claim}', ${window}::jsonb)` })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', bookingId)
    .execute();
}

/**
 * Takes the capacity lock over `resourceIds` (in id order, before any claim on them moves) in the
 * caller's transaction.
 */
export async function lockCapacity(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  resourceIds: string[],
) {
  await lockResources(trx, ctx.organizationId, resourceIds, { clock: ctx.at });
}

/** The resources a caller chose, checked against the service's requirements (`400` else). */
export function assertSelections(
  terms: BookingServiceTerms,
  quantity: number,
  selections: readonly ResourceSelection[] | undefined,
): void {
  if (!selections || selections.length === 0) return;
  const issues = selectionIssues(terms.rules, quantity, selections, {
    path: 'resourceSelections',
    complete: false,
  });
  if (issues.length > 0) throw AppError.validation(issues);
}

/** The booking's pending change request `changeRequestId`, locked; else 404, or 409 once decided. */
export async function lockPendingChangeRequest(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  changeRequestId: string,
) {
  const request = await trx
    .selectFrom('booking_change_requests')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('booking_id', '=', bookingId)
    .where('id', '=', changeRequestId)
    .forUpdate()
    .executeTakeFirst();
  if (!request) throw AppError.notFound('Change request not found');
  if (request.status !== 'PENDING') {
    throw new AppError('INVALID_STATE_TRANSITION', `The change request is ${request.status}`, {
      status: request.status,
    });
  }
  return request;
}

import { AppError } from '@commerce/core';
import { type AuditActor, type BookingStatus, type Database, recordAudit } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { Allocation, ResourceSelection } from '../availability/assign.ts';
import { unavailableReason } from '../availability/rules.ts';
import { intervalShapeIssues, selectionIssues } from '../availability/validate.ts';
import { lockResources } from '../capacity/capacity-lock.ts';
import { claimedResourceIds, insertClaims, releaseClaims } from '../capacity/claims.ts';
import {
  type BookingServiceTerms,
  capacityUnavailable,
  loadServiceTerms,
  MS_PER_MINUTE,
  planClaims,
  poolOf,
} from './booking-claims.ts';
import {
  type BookingPaymentCloseContext,
  closeBookingPayment,
  closeBookingPaymentLinks,
  lockBookingPaymentSessions,
  openBookingPayment,
  recordConfirmedBookingSale,
} from './booking-payments.ts';
import { type BookingRow, findBooking } from './booking-read.ts';
import { appendHistory, type BookingActor } from './history.ts';
import { lockBooking } from './lock-booking.ts';
import {
  type BookingCustomerEvent,
  type BookingNotifyContext,
  notifyBookingCustomer,
  notifyBookingMerchant,
} from './notify.ts';

/**
 * The booking transitions of 14.14 that are not conversion or payment. Each
 * runs in the caller's transaction (READ COMMITTED: claims refuse other
 * levels), locks the booking row first, takes the capacity lock where claims
 * move, appends `history[]`, writes the emails of 14.21 to the outbox and,
 * for a merchant, the audit event; a move 14.14 does not list is
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

const TERMINAL: readonly BookingStatus[] = ['DECLINED', 'CANCELLED', 'EXPIRED'];

export function bookingNotFound(): AppError {
  return AppError.notFound('Booking not found');
}

export function invalidTransition(status: BookingStatus, reason?: string): AppError {
  return new AppError(
    'INVALID_STATE_TRANSITION',
    `The booking is ${status}: this action is not allowed`,
    reason === undefined ? { status } : { status, reason },
  );
}

const iso = (value: Date | string) => new Date(value).toISOString();

function auditActor(by: TransitionBy): AuditActor {
  return { userId: by.userId ?? null, email: by.userEmail ?? null };
}

/** A merchant transition's audit event (14.21): ids, statuses and intervals, never addresses. */
async function auditMerchant(
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

async function setStatus(
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
}

async function notifyCustomer(
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
async function settlePendingChangeRequest(
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

async function readAllocationRows(trx: Kysely<Database>, organizationId: string, bookingId: string) {
  return trx
    .selectFrom('booking_allocations')
    .select(['requirement_id', 'resource_id', 'quantity', 'selection'])
    .where('organization_id', '=', organizationId)
    .where('booking_id', '=', bookingId)
    .orderBy('position')
    .execute();
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
async function claimFor(
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

/** Takes the capacity lock (14.19 rule 3) over `resourceIds` in the caller's transaction. */
async function lockCapacity(trx: Kysely<Database>, ctx: BookingTransitionContext, resourceIds: string[]) {
  await lockResources(trx, ctx.organizationId, resourceIds, { clock: ctx.at });
}

function assertSelections(
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

// ─── Approve ──────────────────────────────────────────────────────────────────

export interface ApproveInput {
  resourceSelections?: readonly ResourceSelection[];
  note?: string | null;
}

/**
 * Merchant approval of a `REQUESTED` booking (14.14): claims its resources
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
  const preferred = (await readAllocationRows(trx, ctx.organizationId, booking.id)).map((row) => ({
    requirementId: row.requirement_id,
    resourceId: row.resource_id,
    quantity: row.quantity,
    selection: row.selection,
  }));
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

// ─── Decline ──────────────────────────────────────────────────────────────────

/** Merchant decline of a `REQUESTED` booking: `DECLINED`, emailed (14.14). */
export async function declineBooking(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  by: TransitionBy,
): Promise<void> {
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  if (booking.status !== 'REQUESTED') throw invalidTransition(booking.status);
  if (booking.group_id !== null) throw invalidTransition(booking.status, 'GROUP_MEMBER');
  await setStatus(trx, ctx, booking, 'DECLINED', by);
  await settlePendingChangeRequest(trx, ctx, booking.id, 'WITHDRAWN');
  await notifyCustomer(trx, ctx, booking.id, 'DECLINED', by, { message: by.reason ?? null });
  await auditMerchant(trx, ctx, by, 'booking.declined', booking, { from: booking.status, to: 'DECLINED' });
}

// ─── Cancel ───────────────────────────────────────────────────────────────────

/**
 * Cancels a booking (14.14): `PENDING_PAYMENT` closes its payment (the
 * provider call is the returned after-commit work) and releases its claim;
 * `CONFIRMED` releases its claim, with no automatic refund; a customer or
 * guest may also cancel a `REQUESTED` booking (a merchant declines it). A
 * pending change request is withdrawn. The customer is emailed (unless
 * `notifyCustomer` is false), the merchant when the customer cancelled.
 * `options.changeRequest` marks the pending request `APPROVED` instead (the
 * merchant approving a cancel request) and sends that email instead.
 */
export async function cancelBooking(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  by: TransitionBy,
  options: { approvingChangeRequest?: boolean } = {},
): Promise<{ afterCommit: () => Promise<void> }> {
  await lockBookingPaymentSessions(trx, ctx.organizationId, bookingId);
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  const isCustomer = by.actor === 'CUSTOMER' || by.actor === 'GUEST';
  if (TERMINAL.includes(booking.status)) throw invalidTransition(booking.status);
  if (booking.status === 'REQUESTED' && !isCustomer)
    throw invalidTransition(booking.status, 'DECLINE_INSTEAD');
  if (isCustomer && new Date(booking.ends_at).getTime() <= ctx.at.getTime()) {
    throw invalidTransition(booking.status, 'BOOKING_ENDED');
  }
  let afterCommit: () => Promise<void> = async () => {};
  if (booking.status === 'PENDING_PAYMENT') {
    afterCommit = await closeBookingPayment(trx, ctx, booking.id);
  } else if (booking.status === 'CONFIRMED') {
    // An open balance link must not take money for a cancelled booking.
    afterCommit = await closeBookingPaymentLinks(trx, ctx, booking.id);
  }
  await releaseClaims(trx, ctx, { kind: 'BOOKING', id: booking.id });
  await setStatus(trx, ctx, booking, 'CANCELLED', by);
  if (options.approvingChangeRequest) {
    await settlePendingChangeRequest(trx, ctx, booking.id, 'APPROVED', { userId: by.userId ?? null });
    await notifyCustomer(trx, ctx, booking.id, 'CHANGE_REQUEST_APPROVED', by);
  } else {
    await settlePendingChangeRequest(trx, ctx, booking.id, 'WITHDRAWN');
    await notifyCustomer(trx, ctx, booking.id, 'CANCELLED', by, {
      message: by.actor === 'MERCHANT' ? (by.reason ?? null) : null,
    });
  }
  if (isCustomer) await notifyBookingMerchant(trx, ctx, booking.id, 'CUSTOMER_CANCELLED');
  if (!options.approvingChangeRequest) {
    await auditMerchant(trx, ctx, by, 'booking.cancelled', booking, {
      from: booking.status,
      to: 'CANCELLED',
    });
  }
  return { afterCommit };
}

// ─── Reschedule ───────────────────────────────────────────────────────────────

export interface RescheduleInput {
  startsAt: Date;
  endsAt: Date;
  resourceSelections?: readonly ResourceSelection[];
  /** Skip hours, closures, lead time and maximum advance (merchant only); never capacity. */
  ignoreRules?: boolean;
}

/**
 * Moves a `CONFIRMED` booking (14.14, 14.19 rule 4): under the capacity lock
 * of the old and new resources, its claims are released and the new interval
 * claimed in the same transaction, so a move overlapping its own old interval
 * competes only with others, and a failure (`409 CAPACITY_UNAVAILABLE`, thrown
 * so the caller's transaction rolls back) keeps the original. The price stays
 * frozen. The interval is checked against the service's time rules unless
 * `ignoreRules` (a merchant's choice; `409 BOOKING_SLOT_UNAVAILABLE`), and a
 * customer's against its shape (grid, durations: `400`). Resources: the
 * chosen ones, else the booking's own, else others of the pools.
 */
export async function rescheduleBooking(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  input: RescheduleInput,
  by: TransitionBy,
  options: { approvingChangeRequest?: boolean } = {},
): Promise<void> {
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  if (booking.status !== 'CONFIRMED') throw invalidTransition(booking.status);
  const isCustomer = by.actor === 'CUSTOMER' || by.actor === 'GUEST';
  if (isCustomer && new Date(booking.ends_at).getTime() <= ctx.at.getTime()) {
    throw invalidTransition(booking.status, 'BOOKING_ENDED');
  }
  if (input.endsAt.getTime() <= input.startsAt.getTime()) {
    throw AppError.validation([{ path: 'endsAt', message: 'must be after startsAt' }]);
  }
  const terms = await loadServiceTerms(trx, ctx.organizationId, booking.service_id, booking.currency);
  const startMinute = input.startsAt.getTime() / MS_PER_MINUTE;
  const endMinute = input.endsAt.getTime() / MS_PER_MINUTE;
  if (by.actor !== 'MERCHANT') {
    const issues = intervalShapeIssues(terms.rules, startMinute, endMinute);
    if (issues.length > 0) throw AppError.validation(issues);
  }
  assertSelections(terms, booking.quantity, input.resourceSelections);
  if (!(by.actor === 'MERCHANT' && input.ignoreRules === true)) {
    const reason = unavailableReason(terms.rules, ctx.at, startMinute, endMinute);
    if (reason !== null) {
      throw new AppError('BOOKING_SLOT_UNAVAILABLE', 'The interval is not offered now', { reason });
    }
  }

  const previous = await claimedResourceIds(trx, ctx.organizationId, { kind: 'BOOKING', id: booking.id });
  await lockCapacity(trx, ctx, [...previous, ...poolOf(terms)]);
  await releaseClaims(trx, ctx, { kind: 'BOOKING', id: booking.id });
  const preferred = (await readAllocationRows(trx, ctx.organizationId, booking.id)).map((row) => ({
    requirementId: row.requirement_id,
    resourceId: row.resource_id,
    quantity: row.quantity,
    selection: row.selection,
  }));
  const plan = await planClaims(trx, ctx, terms, {
    startsAt: input.startsAt,
    endsAt: input.endsAt,
    quantity: booking.quantity,
    selections: input.resourceSelections ?? [],
    preferred,
  });
  if (!plan.ok) throw capacityUnavailable(plan);
  await claimFor(trx, ctx, booking.id, plan, null);
  await writeAllocations(trx, ctx, booking.id, terms, plan.allocations);
  await setStatus(trx, ctx, booking, 'CONFIRMED', by, { starts_at: input.startsAt, ends_at: input.endsAt });

  const intervals = {
    from: booking.status,
    to: 'CONFIRMED',
    oldStartsAt: iso(booking.starts_at),
    oldEndsAt: iso(booking.ends_at),
    newStartsAt: input.startsAt.toISOString(),
    newEndsAt: input.endsAt.toISOString(),
  };
  if (options.approvingChangeRequest) {
    await settlePendingChangeRequest(trx, ctx, booking.id, 'APPROVED', { userId: by.userId ?? null });
    await notifyCustomer(trx, ctx, booking.id, 'CHANGE_REQUEST_APPROVED', by);
    return;
  }
  await notifyCustomer(trx, ctx, booking.id, 'RESCHEDULED', by);
  await auditMerchant(trx, ctx, by, 'booking.rescheduled', booking, intervals);
}

// ─── Change requests ──────────────────────────────────────────────────────────

async function lockPendingChangeRequest(
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

/** The merchant declines a pending change request: `DECLINED`, the booking unchanged, the customer emailed. */
export async function declineChangeRequest(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  changeRequestId: string,
  by: TransitionBy,
): Promise<void> {
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  const request = await lockPendingChangeRequest(trx, ctx, bookingId, changeRequestId);
  await trx
    .updateTable('booking_change_requests')
    .set({
      status: 'DECLINED',
      decided_at: ctx.at,
      decided_by_user_id: by.userId ?? null,
      decision_reason: by.reason ?? null,
      updated_at: ctx.at,
    })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', request.id)
    .execute();
  await notifyCustomer(trx, ctx, booking.id, 'CHANGE_REQUEST_DECLINED', by, { message: by.reason ?? null });
  await auditMerchant(trx, ctx, by, 'booking.change_request_declined', booking, {
    changeRequestId,
    kind: request.kind,
  });
}

// ─── Assignees ────────────────────────────────────────────────────────────────

export const MAX_ASSIGNEES = 20;

/**
 * Replaces the booking's assignees (14.2): at most 20 distinct users, each
 * an active member of the tenant, else `400 VALIDATION_FAILED`.
 */
export async function setBookingAssignees(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
  userIds: readonly string[],
  by: TransitionBy,
): Promise<void> {
  const booking = await lockBooking(trx, ctx.organizationId, bookingId);
  const wanted = [...new Set(userIds)];
  if (wanted.length > MAX_ASSIGNEES) {
    throw AppError.validation([{ path: 'userIds', message: `at most ${MAX_ASSIGNEES} users` }]);
  }
  if (wanted.length > 0) {
    const members = await trx
      .selectFrom('memberships')
      .select('user_id')
      .where('organization_id', '=', ctx.organizationId)
      .where('status', '=', 'ACTIVE')
      .where('user_id', 'in', wanted)
      .execute();
    const known = new Set(members.map((member) => member.user_id));
    const issues = wanted.flatMap((userId, index) =>
      known.has(userId)
        ? []
        : [{ path: `userIds.${index}`, message: 'is not a member of this organization' }],
    );
    if (issues.length > 0) throw AppError.validation(issues);
  }
  await trx
    .updateTable('bookings')
    .set({ assignee_user_ids: wanted, updated_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', booking.id)
    .execute();
  await auditMerchant(trx, ctx, by, 'booking.assignees_updated', booking, {
    fromUserIds: booking.assignee_user_ids,
    toUserIds: wanted,
  });
}

// ─── Worker transitions ───────────────────────────────────────────────────────

/**
 * Expires a booking whose window passed (14.20), by the system: a
 * `PENDING_PAYMENT` one past `paymentExpiresAt` (claim released, payment
 * closed; the provider call is the after-commit work), a `REQUESTED` one past
 * `requestExpiresAt`; the customer is emailed. Anything else is left as it
 * is (answers null), so a second run changes nothing.
 */
export async function expireBooking(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  bookingId: string,
): Promise<{ afterCommit: () => Promise<void> } | null> {
  const booking = await findBooking(trx, ctx.organizationId, bookingId, { forUpdate: true });
  if (!booking) return null;
  const at = ctx.at.getTime();
  const by: TransitionBy = { actor: 'SYSTEM' };
  if (
    booking.status === 'PENDING_PAYMENT' &&
    booking.payment_expires_at !== null &&
    new Date(booking.payment_expires_at).getTime() <= at
  ) {
    const afterCommit = await closeBookingPayment(trx, ctx, booking.id);
    await releaseClaims(trx, ctx, { kind: 'BOOKING', id: booking.id });
    await setStatus(trx, ctx, booking, 'EXPIRED', by);
    await settlePendingChangeRequest(trx, ctx, booking.id, 'WITHDRAWN');
    await notifyBookingCustomer(trx, ctx, booking.id, 'EXPIRED');
    return { afterCommit };
  }
  if (
    booking.status === 'REQUESTED' &&
    booking.request_expires_at !== null &&
    new Date(booking.request_expires_at).getTime() <= at
  ) {
    await setStatus(trx, ctx, booking, 'EXPIRED', by);
    await settlePendingChangeRequest(trx, ctx, booking.id, 'WITHDRAWN');
    await notifyBookingCustomer(trx, ctx, booking.id, 'EXPIRED');
    return { afterCommit: async () => {} };
  }
  return null;
}

import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ResourceSelection } from '../../availability/assign.ts';
import { unavailableReason } from '../../availability/rules.ts';
import { intervalShapeIssues } from '../../availability/validate.ts';
import { claimedResourceIds, releaseClaims } from '../../capacity/claims.ts';
import {
  capacityUnavailable,
  loadServiceTerms,
  MS_PER_MINUTE,
  planClaims,
  poolOf,
} from '../booking-claims.ts';
import { lockBooking } from '../lock-booking.ts';
import {
  assertSelections,
  auditMerchant,
  type BookingTransitionContext,
  claimFor,
  invalidTransition,
  iso,
  lockCapacity,
  notifyCustomer,
  preferredAllocations,
  setStatus,
  settlePendingChangeRequest,
  type TransitionBy,
  writeAllocations,
} from './transition-steps.ts';

export interface RescheduleInput {
  startsAt: Date;
  endsAt: Date;
  resourceSelections?: readonly ResourceSelection[];
  /** Skip hours, closures, lead time and maximum advance (merchant only); never capacity. */
  ignoreRules?: boolean;
}

/**
 * Moves a `CONFIRMED` booking: under the capacity lock
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
  const preferred = await preferredAllocations(trx, ctx.organizationId, booking.id);
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

import { AppError } from '@commerce/core';
import type { BookingStatus } from '@commerce/db';
import { type Policies, policiesSchema } from '../services/schemas.ts';
import { addLocalDays, toEpochMinutes } from '../time/zone.ts';

/**
 * What a customer or guest may do with a booking (docs/bookings.md
 * "Customer and guest routes"): the policy table as one pure function, so
 * the read model's `actions` and the mutations decide alike.
 */

/** `APPLY`: done at once; `REQUEST`: a pending change request for the merchant; `NONE`: refused. */
export type CustomerActionOutcome = 'APPLY' | 'REQUEST' | 'NONE';
export type CustomerActionKind = 'CANCEL' | 'RESCHEDULE';

/**
 * Why an action is `NONE`, sent as `details.reason` of `409 INVALID_STATE_TRANSITION`:
 * the policy; the booking's state (terminal, or a `REQUESTED`/`PENDING_PAYMENT`
 * reschedule); started (a change request would be withdrawn at once);
 * ended (no customer action after `endsAt`); a pending change request;
 * a guest token already used.
 */
export type CustomerActionRefusal =
  | 'POLICY'
  | 'STATUS'
  | 'BOOKING_STARTED'
  | 'BOOKING_ENDED'
  | 'CHANGE_REQUEST_PENDING'
  | 'TOKEN_CONSUMED';

export type CustomerActionDecision =
  | { outcome: 'APPLY' | 'REQUEST' }
  | { outcome: 'NONE'; reason: CustomerActionRefusal };

/** The booking facts the policy reads. `policies` is the snapshot taken at conversion. */
export interface PolicySubject {
  status: BookingStatus;
  startsAt: Date;
  endsAt: Date;
  timezone: string;
  policies: Policies;
  hasPendingChangeRequest?: boolean;
  /** A guest whose `m1_` token already made its one mutation. */
  isTokenConsumed?: boolean;
}

/** `actions` of the customer detail. */
export interface BookingActions {
  cancel: CustomerActionOutcome;
  reschedule: CustomerActionOutcome;
  /** Until this instant a `SELF_SERVICE` action applies at once; null where the instant changes nothing. */
  cancelCutoffAt: string | null;
  rescheduleCutoffAt: string | null;
}

const DEFAULT_POLICY = { mode: 'REQUEST', cutoffMinutes: 0 } as const;
const MINUTES_PER_DAY = 1_440;
const MS_PER_MINUTE = 60_000;

function policyOf(policies: Policies | null | undefined, kind: CustomerActionKind) {
  return (kind === 'CANCEL' ? policies?.cancellation : policies?.reschedule) ?? DEFAULT_POLICY;
}

/**
 * `startsAt` − cutoff, the cutoff read as a booking duration: a whole multiple
 * of 1,440 minutes counts local days in the booking's zone (same wall time n
 * days earlier), any other cutoff elapsed minutes.
 */
export function cutoffInstant(startsAt: Date, cutoffMinutes: number, timezone: string): Date {
  const start = toEpochMinutes(startsAt.getTime());
  const cutoff =
    cutoffMinutes > 0 && cutoffMinutes % MINUTES_PER_DAY === 0
      ? addLocalDays(timezone, start, -cutoffMinutes / MINUTES_PER_DAY)
      : start - cutoffMinutes;
  return new Date(cutoff * MS_PER_MINUTE);
}

/** The instant a `SELF_SERVICE` action turns into a request, for a `CONFIRMED` booking; else null. */
function cutoffAt(subject: PolicySubject, kind: CustomerActionKind): Date | null {
  const policy = policyOf(subject.policies, kind);
  if (subject.status !== 'CONFIRMED' || policy.mode !== 'SELF_SERVICE') return null;
  return cutoffInstant(subject.startsAt, policy.cutoffMinutes, subject.timezone);
}

/**
 * The policy table at `at`, within the rules of the booking's status: terminal
 * bookings take nothing; after `endsAt` nothing; `REQUESTED` and
 * `PENDING_PAYMENT` are cancelled at once and never rescheduled; a `CONFIRMED`
 * booking follows its policy (`SELF_SERVICE` applies before `startsAt` − cutoff
 * and requests after, `REQUEST` requests, `NONE` refuses). A request is not
 * offered once the booking started (the worker withdraws pending ones then) nor
 * while another is pending.
 */
export function decideCustomerAction(
  subject: PolicySubject,
  kind: CustomerActionKind,
  at: Date,
): CustomerActionDecision {
  if (subject.isTokenConsumed) return { outcome: 'NONE', reason: 'TOKEN_CONSUMED' };
  if (subject.status === 'DECLINED' || subject.status === 'CANCELLED' || subject.status === 'EXPIRED') {
    return { outcome: 'NONE', reason: 'STATUS' };
  }
  const now = at.getTime();
  if (now >= subject.endsAt.getTime()) return { outcome: 'NONE', reason: 'BOOKING_ENDED' };
  if (subject.status === 'REQUESTED' || subject.status === 'PENDING_PAYMENT') {
    return kind === 'CANCEL' ? { outcome: 'APPLY' } : { outcome: 'NONE', reason: 'STATUS' };
  }
  const policy = policyOf(subject.policies, kind);
  if (policy.mode === 'NONE') return { outcome: 'NONE', reason: 'POLICY' };
  const cutoff = cutoffAt(subject, kind);
  if (cutoff !== null && now < cutoff.getTime()) return { outcome: 'APPLY' };
  if (now >= subject.startsAt.getTime()) return { outcome: 'NONE', reason: 'BOOKING_STARTED' };
  if (subject.hasPendingChangeRequest) return { outcome: 'NONE', reason: 'CHANGE_REQUEST_PENDING' };
  return { outcome: 'REQUEST' };
}

/** The detail's `actions` at `at`. */
export function bookingActions(subject: PolicySubject, at: Date): BookingActions {
  const cancelCutoff = cutoffAt(subject, 'CANCEL');
  const rescheduleCutoff = cutoffAt(subject, 'RESCHEDULE');
  return {
    cancel: decideCustomerAction(subject, 'CANCEL', at).outcome,
    reschedule: decideCustomerAction(subject, 'RESCHEDULE', at).outcome,
    cancelCutoffAt: cancelCutoff?.toISOString() ?? null,
    rescheduleCutoffAt: rescheduleCutoff?.toISOString() ?? null,
  };
}

/** The `409 INVALID_STATE_TRANSITION` of a refused action, `details.reason` saying why. */
export function customerActionRefused(kind: CustomerActionKind, reason: CustomerActionRefusal): AppError {
  const messages: Record<CustomerActionRefusal, string> = {
    POLICY: `The service's policy does not allow this ${kind === 'CANCEL' ? 'cancellation' : 'reschedule'}`,
    STATUS: 'The booking cannot be changed in its current state',
    BOOKING_STARTED: 'The booking has started',
    BOOKING_ENDED: 'The booking has ended',
    CHANGE_REQUEST_PENDING: 'The booking already has a pending change request',
    TOKEN_CONSUMED: 'This link was already used for another change',
  };
  return new AppError('INVALID_STATE_TRANSITION', messages[reason], { reason });
}

/**
 * Decides an action and returns `APPLY` or `REQUEST`, or throws the refusal.
 */
export function requireCustomerAction(
  subject: PolicySubject,
  kind: CustomerActionKind,
  at: Date,
): 'APPLY' | 'REQUEST' {
  const decision = decideCustomerAction(subject, kind, at);
  if (decision.outcome === 'NONE') throw customerActionRefused(kind, decision.reason);
  return decision.outcome;
}

/**
 * The policies a booking follows: those frozen in its snapshot at conversion,
 * else (an older or partial snapshot) the service's present ones, else the
 * default `REQUEST` with no cutoff.
 */
export function resolveBookingPolicies(snapshot: unknown, servicePolicies: unknown): Policies {
  const frozen = (snapshot as { policies?: unknown } | null)?.policies;
  for (const candidate of [frozen, servicePolicies]) {
    if (candidate === undefined || candidate === null) continue;
    const parsed = policiesSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return policiesSchema.parse({});
}

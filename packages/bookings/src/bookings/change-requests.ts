import { AppError, newId } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { BookingRow } from './booking-read.ts';
import { recordTransition } from './history.ts';
import { type BookingNotifyContext, notifyBookingCustomer, notifyBookingMerchant } from './notify.ts';
import { customerActionRefused } from './policy.ts';
import { rescheduleBooking } from './transitions/reschedule-booking.ts';

/**
 * A customer's or guest's change request: a `PENDING` request the merchant
 * approves or declines through the merchant routes. It holds no capacity; a
 * reschedule is first checked against the service's rules and capacity as its
 * approval would be, so a request that could never be approved is refused now
 * (409). One pending request per booking, kept by the unique partial index
 * `booking_change_requests_pending_key`.
 */

export interface ChangeRequestInput {
  kind: 'CANCEL' | 'RESCHEDULE';
  /** `RESCHEDULE` only. */
  startsAt?: Date;
  endsAt?: Date;
  reason?: string | null;
  actor: 'CUSTOMER' | 'GUEST';
}

const CHECK_SAVEPOINT = 'change_request_check';

/**
 * Whether a `CONFIRMED` booking could move to the interval now: the reschedule
 * itself (shape 400, time rules `409 BOOKING_SLOT_UNAVAILABLE`, capacity
 * `409 CAPACITY_UNAVAILABLE` with the booking's own claims released) run in a
 * savepoint that is always rolled back, so the checks are exactly the
 * approval's and nothing of the trial (claims, status, emails) remains.
 */
async function checkReschedule(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  booking: BookingRow,
  input: { startsAt: Date; endsAt: Date; actor: 'CUSTOMER' | 'GUEST' },
): Promise<void> {
  await sql.raw(`savepoint ${CHECK_SAVEPOINT}`).execute(trx);
  let failure: unknown = null;
  try {
    await rescheduleBooking(
      trx,
      ctx,
      booking.id,
      { startsAt: input.startsAt, endsAt: input.endsAt },
      { actor: input.actor, notifyCustomer: false },
    );
  } catch (error) {
    failure = error;
  }
  await sql.raw(`rollback to savepoint ${CHECK_SAVEPOINT}`).execute(trx);
  await sql.raw(`release savepoint ${CHECK_SAVEPOINT}`).execute(trx);
  if (failure !== null) throw failure;
}

/**
 * Records a `PENDING` change request for a booking the caller has locked and
 * whose policy answered `REQUEST`: checks a reschedule first, inserts the
 * request (a second pending one is `409 INVALID_STATE_TRANSITION`,
 * `details.reason: CHANGE_REQUEST_PENDING`), appends a history entry (the
 * status does not change; `reason` names the request), and emails the
 * merchant `CHANGE_REQUESTED` and the customer `CHANGE_REQUEST_RECEIVED`.
 * Answers the request's id.
 */
export async function createChangeRequest(
  trx: Kysely<Database>,
  ctx: BookingNotifyContext,
  booking: BookingRow,
  input: ChangeRequestInput,
): Promise<string> {
  const isReschedule = input.kind === 'RESCHEDULE';
  if (isReschedule) {
    if (!input.startsAt || !input.endsAt) {
      throw AppError.validation([{ path: 'startsAt', message: 'is required for a reschedule' }]);
    }
    await checkReschedule(trx, ctx, booking, {
      startsAt: input.startsAt,
      endsAt: input.endsAt,
      actor: input.actor,
    });
  }
  const id = newId('bcr', ctx.at);
  const inserted = await trx
    .insertInto('booking_change_requests')
    .values({
      organization_id: ctx.organizationId,
      id,
      booking_id: booking.id,
      kind: input.kind,
      status: 'PENDING',
      starts_at: isReschedule ? (input.startsAt ?? null) : null,
      ends_at: isReschedule ? (input.endsAt ?? null) : null,
      reason: input.reason ?? null,
      actor: input.actor,
      decided_by_user_id: null,
      decision_reason: null,
      decided_at: null,
      created_at: ctx.at,
      updated_at: ctx.at,
    })
    // The partial unique index decides between concurrent requests without aborting the transaction.
    .onConflict((conflict) =>
      conflict.columns(['organization_id', 'booking_id']).where('status', '=', 'PENDING').doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  if (!inserted) throw customerActionRefused(input.kind, 'CHANGE_REQUEST_PENDING');

  await recordTransition(trx, ctx, booking.id, {
    from: booking.status,
    to: booking.status,
    actor: input.actor,
    reason: `${input.kind === 'CANCEL' ? 'Cancellation' : 'Reschedule'} requested (${id})`,
  });
  await notifyBookingMerchant(trx, ctx, booking.id, 'CHANGE_REQUESTED');
  await notifyBookingCustomer(trx, ctx, booking.id, 'CHANGE_REQUEST_RECEIVED');
  return id;
}

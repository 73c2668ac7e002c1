import type { BookingStatus, Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { BookingClockContext } from '../context.ts';

/** Who moved a booking. Only MERCHANT transitions also go to the audit log. */
export type BookingActor = 'CUSTOMER' | 'GUEST' | 'MERCHANT' | 'SYSTEM' | 'WEBHOOK';

/** One entry of a booking's `history[]`; `from` is null for the conversion that created it. */
export interface BookingHistoryEntry {
  at: string;
  from: BookingStatus | null;
  to: BookingStatus;
  actor: BookingActor;
  userId?: string;
  reason?: string;
}

export interface BookingTransition {
  from: BookingStatus | null;
  to: BookingStatus;
  actor: BookingActor;
  userId?: string | null;
  reason?: string | null;
}

/** The history entry of a transition at the context's instant, without empty optional keys. */
export function historyEntry(ctx: BookingClockContext, transition: BookingTransition): BookingHistoryEntry {
  return {
    at: ctx.at.toISOString(),
    from: transition.from,
    to: transition.to,
    actor: transition.actor,
    ...(transition.userId ? { userId: transition.userId } : {}),
    ...(transition.reason ? { reason: transition.reason } : {}),
  };
}

/**
 * The `history` value that appends one entry to the stored array, for the SET
 * of the UPDATE that makes the transition: the array is never rewritten from
 * a value read earlier, so concurrent appends cannot lose one.
 */
export function appendHistory(ctx: BookingClockContext, transition: BookingTransition) {
  return sql<string>`history || jsonb_build_array(${JSON.stringify(historyEntry(ctx, transition))}::jsonb)`;
}

/** Records a transition of a booking whose status is set by the caller in the same transaction. */
export async function recordTransition(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  bookingId: string,
  transition: BookingTransition,
): Promise<void> {
  await trx
    .updateTable('bookings')
    .set({ history: appendHistory(ctx, transition), updated_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', bookingId)
    .execute();
}

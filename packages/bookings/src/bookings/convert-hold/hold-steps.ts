import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { releaseClaims } from '../../capacity/claims.ts';
import type { BookingClockContext } from '../../context.ts';
import type { HoldRow } from './hold-terms.ts';

/**
 * Marks a hold that will never convert (its expiry or release found at
 * conversion), releasing its claims; a hold already marked is left as is.
 */
export async function retireHold(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  hold: HoldRow,
  status: 'EXPIRED' | 'RELEASED',
) {
  if (hold.status !== 'ACTIVE') return;
  await trx
    .updateTable('booking_holds')
    .set({ status, updated_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', hold.id)
    .execute();
  await releaseClaims(trx, ctx, { kind: 'HOLD', id: hold.id });
}

/** The hold is now a booking: `CONVERTED` (its claims were released or moved to the booking). */
export async function markHoldConverted(trx: Kysely<Database>, ctx: BookingClockContext, hold: HoldRow) {
  await trx
    .updateTable('booking_holds')
    .set({ status: 'CONVERTED', updated_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', hold.id)
    .execute();
}

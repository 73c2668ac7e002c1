import { hashToken, newToken } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { BookingClockContext } from '../context.ts';

/** A management token (`m1_`) works until 30 days after the booking ends. */
export const MANAGEMENT_TOKEN_DAYS_AFTER_END = 30;
const MS_PER_DAY = 86_400_000;

/** When a token issued for a booking ending at `endsAt` stops working. */
export function managementTokenExpiry(endsAt: Date): Date {
  return new Date(endsAt.getTime() + MANAGEMENT_TOKEN_DAYS_AFTER_END * MS_PER_DAY);
}

/**
 * Issues a fresh `m1_` for a booking (stored as its SHA-256 only, expiring 30
 * days after `endsAt`) and revokes the booking's previous unused tokens
 * (neither consumed nor revoked): each email carries the one link that works. `keepPrevious`
 * (the confirmation of a paid booking) revokes none: the link of the "Payment required" email the
 * customer paid from keeps managing the booking after the payment.
 * A consumed token keeps its recorded result, so its mutation still replays.
 * Answers the plaintext, which only the email carries.
 */
export async function issueManagementToken(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  booking: { id: string; endsAt: Date },
  options: { keepPrevious?: boolean } = {},
): Promise<string> {
  if (options.keepPrevious !== true)
    await trx
      .updateTable('booking_management_tokens')
      .set({ revoked_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('booking_id', '=', booking.id)
      .where('consumed_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
  const token = newToken('bookingManagement');
  await trx
    .insertInto('booking_management_tokens')
    .values({
      token_hash: hashToken(token),
      organization_id: ctx.organizationId,
      booking_id: booking.id,
      expires_at: managementTokenExpiry(booking.endsAt),
      created_at: ctx.at,
    })
    .execute();
  return token;
}

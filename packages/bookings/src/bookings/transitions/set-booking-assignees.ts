import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { lockBooking } from '../lock-booking.ts';
import { MAX_ASSIGNEES } from '../merchant-schemas.ts';
import { auditMerchant, type BookingTransitionContext, type TransitionBy } from './transition-steps.ts';

/**
 * Replaces the booking's assignees: at most 20 distinct users, each
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

import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { lockBooking } from '../lock-booking.ts';
import {
  auditMerchant,
  type BookingTransitionContext,
  lockPendingChangeRequest,
  notifyCustomer,
  type TransitionBy,
} from './transition-steps.ts';

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

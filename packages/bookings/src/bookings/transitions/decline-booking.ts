import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { lockBooking } from '../lock-booking.ts';
import {
  auditMerchant,
  type BookingTransitionContext,
  invalidTransition,
  notifyCustomer,
  setStatus,
  settlePendingChangeRequest,
  type TransitionBy,
} from './transition-steps.ts';

/** Merchant decline of a `REQUESTED` booking: `DECLINED`, emailed. */
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

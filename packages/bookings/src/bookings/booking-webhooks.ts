import type { BookingStatus, Database } from '@commerce/db';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import type { Kysely } from 'kysely';
import type { BookingClockContext } from '../context.ts';
import { readBookingDetail } from './booking-read.ts';

type BookingEventType =
  | 'booking.requested'
  | 'booking.confirmed'
  | 'booking.cancelled'
  | 'booking.rescheduled';

/** The webhook a move to `status` sends (docs/webhooks.md "Events"); none for the other states. */
export function bookingEventOf(status: BookingStatus): BookingEventType | undefined {
  if (status === 'REQUESTED') return 'booking.requested';
  if (status === 'CONFIRMED') return 'booking.confirmed';
  if (status === 'CANCELLED') return 'booking.cancelled';
  return undefined;
}

/**
 * Queues a booking webhook in the caller's transaction, with the booking as the merchant reads it
 * (`GET /merchant/bookings/{id}`). A booking's events reach each endpoint in the order queued.
 */
export async function emitBookingEvent(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  bookingId: string,
  type: BookingEventType | undefined,
): Promise<void> {
  if (type === undefined) return;
  await enqueueWebhookEvent(trx, {
    organizationId: ctx.organizationId,
    type,
    objectId: bookingId,
    data: () => readBookingDetail(trx, ctx, bookingId, 'MERCHANT'),
    at: ctx.at,
  });
}

import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';

/** Reads a booking row of the tenant locked for an update; an unknown one is the 404. */
export async function lockBooking(trx: Kysely<Database>, organizationId: string, bookingId: string) {
  const booking = await trx
    .selectFrom('bookings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', bookingId)
    .forUpdate()
    .executeTakeFirst();
  if (!booking) throw AppError.notFound('Booking not found');
  return booking;
}

import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';

/** The neutral 404 of a hold: unknown, another tenant's, or not proven by its key. */
export const holdNotFound = () => AppError.notFound('Booking hold not found');

/** Reads a hold row of the tenant, optionally locked for an update. */
export function findHold(
  db: Kysely<Database>,
  organizationId: string,
  holdId: string,
  options: { forUpdate?: boolean } = {},
) {
  return db
    .selectFrom('booking_holds')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', holdId)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate())
    .executeTakeFirst();
}

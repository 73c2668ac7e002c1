import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ShippingRateRead } from './schemas.ts';
import { findShippingRate, toShippingRateRead } from './shipping-read.ts';

/** A rate of the organization, archived or not (a rate of an archived zone too). */
export async function getShippingRate(
  db: Kysely<Database>,
  organizationId: string,
  rateId: string,
): Promise<ShippingRateRead> {
  return toShippingRateRead(await findShippingRate(db, organizationId, rateId));
}

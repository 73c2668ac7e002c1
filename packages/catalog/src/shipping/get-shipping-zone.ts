import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ShippingZoneRead } from './schemas.ts';
import { findShippingZone, readShippingZone } from './shipping-read.ts';

/** A zone of the organization, archived or not, with every rate (archived ones carry `archivedAt`). */
export async function getShippingZone(
  db: Kysely<Database>,
  organizationId: string,
  zoneId: string,
): Promise<ShippingZoneRead> {
  return readShippingZone(db, organizationId, await findShippingZone(db, organizationId, zoneId));
}

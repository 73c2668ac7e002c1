import type { Database, ShipmentCancellation } from '@commerce/db';
import type { Kysely } from 'kysely';

/** The fulfillment's open cancellation (`PENDING` or `EXHAUSTED`), if any. */
export async function openCancellationOf(
  db: Kysely<Database>,
  organizationId: string,
  fulfillmentId: string,
): Promise<ShipmentCancellation | undefined> {
  return db
    .selectFrom('shipment_cancellations')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('fulfillment_id', '=', fulfillmentId)
    .where('status', 'in', ['PENDING', 'EXHAUSTED'])
    .executeTakeFirst();
}

import type { Page } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ShippingZoneListQuery, ShippingZoneRead } from './schemas.ts';
import { ratesOfZones, toShippingRateRead, toShippingZoneRead } from './shipping-read.ts';
import { zonePage } from './zone-page.ts';

/**
 * The merchant list: zones in display order (sortOrder, name, id), each with
 * its rates inlined, keyset-paginated by zone id. By default active zones
 * with their active rates; `archived=true` includes archived zones and
 * archived rates (each with `archivedAt`). Two queries per page.
 */
export async function listShippingZones(
  db: Kysely<Database>,
  organizationId: string,
  query: ShippingZoneListQuery,
): Promise<Page<ShippingZoneRead>> {
  const includeArchived = query.archived;
  const zones = await zonePage(db, organizationId, {
    rows: query.limit + 1,
    cursor: query.cursor,
    includeArchived,
  });
  const shown = zones.slice(0, query.limit);
  const rates = await ratesOfZones(
    db,
    organizationId,
    shown.map((zone) => zone.id),
    { includeArchived },
  );
  return {
    data: shown.map((zone) => toShippingZoneRead(zone, rates.get(zone.id)!.map(toShippingRateRead))),
    // The extra row only says that another page exists; its rates are never read.
    nextCursor: zones.length > query.limit ? shown[shown.length - 1]!.id : null,
  };
}

import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { PublicShippingZoneListQuery, PublicShippingZoneRead } from './schemas.ts';
import { ratesOfZones } from './shipping-read.ts';
import { zonePage } from './zone-page.ts';

/**
 * The storefront's shipping zones (GET /public/shipping/zones): active zones
 * in display order (sortOrder, name, id), each with its active rates
 * (sortOrder, name, id). A flat array; the next page starts after the id of
 * the last zone. Two queries: the zones, then the rates of those zones.
 */
export async function listPublicShippingZones(
  db: Kysely<Database>,
  organizationId: string,
  query: PublicShippingZoneListQuery,
): Promise<PublicShippingZoneRead[]> {
  const zones = await zonePage(db, organizationId, {
    rows: query.limit,
    cursor: query.cursor,
    includeArchived: false,
  });
  const rates = await ratesOfZones(
    db,
    organizationId,
    zones.map((zone) => zone.id),
    { includeArchived: false },
  );
  return zones.map((zone) => ({
    id: zone.id,
    name: zone.name,
    countries: zone.countries,
    rates: rates.get(zone.id)!.map((rate) => ({
      id: rate.id,
      name: rate.name,
      priceInCents: rate.price_in_cents,
      minimumSubtotalInCents: rate.minimum_subtotal_in_cents,
      estimatedDelivery: rate.estimated_delivery,
      sortOrder: rate.sort_order,
    })),
  }));
}

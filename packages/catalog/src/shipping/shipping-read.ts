import { AppError } from '@commerce/core';
import type { Database, ShippingRate, ShippingZone } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ShippingRateRead, ShippingZoneRead } from './schemas.ts';

export function toShippingRateRead(row: ShippingRate): ShippingRateRead {
  return {
    id: row.id,
    zoneId: row.zone_id,
    name: row.name,
    priceInCents: row.price_in_cents,
    minimumSubtotalInCents: row.minimum_subtotal_in_cents,
    estimatedDelivery: row.estimated_delivery,
    sortOrder: row.sort_order,
    archivedAt: row.archived_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export function toShippingZoneRead(row: ShippingZone, rates: ShippingRateRead[]): ShippingZoneRead {
  return {
    id: row.id,
    name: row.name,
    countries: row.countries,
    sortOrder: row.sort_order,
    archivedAt: row.archived_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    rates,
  };
}

/**
 * The rates of some zones in one query, grouped by zone in display order
 * (sortOrder, then name, then id): the index `shipping_rates_order_idx`.
 */
export async function ratesOfZones(
  db: Kysely<Database>,
  organizationId: string,
  zoneIds: string[],
  options: { includeArchived: boolean },
): Promise<Map<string, ShippingRate[]>> {
  const byZone = new Map<string, ShippingRate[]>(zoneIds.map((id) => [id, []]));
  if (zoneIds.length === 0) return byZone;
  const rows = await db
    .selectFrom('shipping_rates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('zone_id', 'in', zoneIds)
    .$if(!options.includeArchived, (qb) => qb.where('archived_at', 'is', null))
    .orderBy('zone_id')
    .orderBy('sort_order')
    .orderBy('name')
    .orderBy('id')
    .execute();
  for (const row of rows) byZone.get(row.zone_id)?.push(row);
  return byZone;
}

/** A zone of the organization with every rate, archived ones included (the detail read). */
export async function readShippingZone(
  db: Kysely<Database>,
  organizationId: string,
  zone: ShippingZone,
): Promise<ShippingZoneRead> {
  const rates = (await ratesOfZones(db, organizationId, [zone.id], { includeArchived: true })).get(zone.id)!;
  return toShippingZoneRead(zone, rates.map(toShippingRateRead));
}

/** The zone row, locked for update when asked; a missing or foreign zone is a neutral 404. */
export async function findShippingZone(
  db: Kysely<Database>,
  organizationId: string,
  zoneId: string,
  lock?: 'update' | 'share',
): Promise<ShippingZone> {
  const zone = await db
    .selectFrom('shipping_zones')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', zoneId)
    .$if(lock === 'update', (qb) => qb.forUpdate())
    .$if(lock === 'share', (qb) => qb.forShare())
    .executeTakeFirst();
  if (!zone) throw AppError.notFound('Shipping zone not found');
  return zone;
}

/** The rate row, locked for update when asked; a missing or foreign rate is a neutral 404. */
export async function findShippingRate(
  db: Kysely<Database>,
  organizationId: string,
  rateId: string,
  lock?: 'update',
): Promise<ShippingRate> {
  const rate = await db
    .selectFrom('shipping_rates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', rateId)
    .$if(lock === 'update', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!rate) throw AppError.notFound('Shipping rate not found');
  return rate;
}

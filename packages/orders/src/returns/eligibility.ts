import type { Database, Order } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import {
  LIVE_RETURN_STATUSES,
  type ReturnableLine,
  type ReturnEligibility,
  type ReturnIneligibility,
} from './schemas.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Where the return window starts: the latest `deliveredAt`, else
 * `shippedAt`, of the order's SHIPPED and DELIVERED fulfillments, so the
 * window covers the last shipment. Null while nothing has shipped.
 */
export async function returnWindowStartOf(db: Kysely<Database>, order: Order): Promise<Date | null> {
  const row = await db
    .selectFrom('fulfillments')
    .select(sql<Date | string | null>`max(coalesce(delivered_at, shipped_at))`.as('startsAt'))
    .where('organization_id', '=', order.organization_id)
    .where('sales_record_id', '=', order.sales_record_id)
    .where('status', 'in', ['SHIPPED', 'DELIVERED'])
    .executeTakeFirst();
  return row?.startsAt ? new Date(row.startsAt) : null;
}

/**
 * The order's PRODUCT lines with the quantity left to return: the
 * units in SHIPPED and DELIVERED fulfillments (the line's `shipped_quantity`)
 * minus what live returns (REQUESTED, APPROVED, RECEIVED, COMPLETED) claim.
 * Other line types (services, fees, deposits, adjustments) are not goods to
 * send back. Exact only under the order's row lock, which every return
 * creation takes; returns never change fulfillments or their counters.
 */
export async function returnableLinesOf(db: Kysely<Database>, order: Order): Promise<ReturnableLine[]> {
  const [lines, claimed] = [
    await db
      .selectFrom('sales_record_lines')
      .select(['id', 'item_id', 'variant_id', 'name', 'quantity', 'shipped_quantity', 'unit_price_in_cents'])
      .where('organization_id', '=', order.organization_id)
      .where('sales_record_id', '=', order.sales_record_id)
      .where('type', '=', 'PRODUCT')
      .orderBy('position')
      .execute(),
    await db
      .selectFrom('return_lines')
      .innerJoin('returns', (join) =>
        join
          .onRef('returns.organization_id', '=', 'return_lines.organization_id')
          .onRef('returns.id', '=', 'return_lines.return_id'),
      )
      .select([
        'return_lines.sales_record_line_id',
        (eb) => eb.fn.sum<string>('return_lines.quantity').as('claimed'),
      ])
      .where('returns.organization_id', '=', order.organization_id)
      .where('returns.order_id', '=', order.id)
      .where('returns.status', 'in', LIVE_RETURN_STATUSES)
      .groupBy('return_lines.sales_record_line_id')
      .execute(),
  ];
  const claimedByLine = new Map(claimed.map((row) => [row.sales_record_line_id, Number(row.claimed)]));
  return lines.map((line) => ({
    lineId: line.id,
    itemId: line.item_id,
    variantId: line.variant_id,
    name: line.name,
    unitPriceInCents: Number(line.unit_price_in_cents),
    purchasedQuantity: line.quantity,
    shippedQuantity: line.shipped_quantity,
    returnableQuantity: Math.max(0, line.shipped_quantity - (claimedByLine.get(line.id) ?? 0)),
  }));
}

/**
 * Whether a return can be requested now (docs/orders.md "Returns"): something of the order has
 * shipped, the store's window (`checkoutSettings.returnWindowDays`, 0 = off)
 * counted from the last delivery, else shipment, has not closed (`at` < end),
 * and some PRODUCT line has shipped units left to return. The order's status
 * plays no part.
 */
export async function assessReturnEligibility(
  db: Kysely<Database>,
  order: Order,
  returnWindowDays: number,
  at: Date,
): Promise<ReturnEligibility & { windowEnd: Date | null }> {
  const lines = await returnableLinesOf(db, order);
  const startsAt = await returnWindowStartOf(db, order);
  const windowEnd = startsAt ? new Date(startsAt.getTime() + returnWindowDays * DAY_MS) : null;
  let reason: ReturnIneligibility | null = null;
  if (windowEnd === null) reason = 'NOT_SHIPPED';
  else if (returnWindowDays === 0) reason = 'RETURNS_DISABLED';
  else if (at.getTime() >= windowEnd.getTime()) reason = 'WINDOW_CLOSED';
  else if (!lines.some((line) => line.returnableQuantity > 0)) reason = 'NOTHING_TO_RETURN';
  return {
    eligible: reason === null,
    reason,
    windowEndsAt: windowEnd?.toISOString() ?? null,
    windowEnd,
    lines,
  };
}

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
 * When the order became COMPLETED: its `order.status_changed` audit row to
 * COMPLETED, written in the same transaction as the change (COMPLETED is
 * terminal, so there is one). An order completed without one (imported data)
 * falls back to its `updated_at`. Null while the order is not COMPLETED.
 */
export async function completedAtOf(db: Kysely<Database>, order: Order): Promise<Date | null> {
  if (order.status !== 'COMPLETED') return null;
  const row = await db
    .selectFrom('audit_logs')
    .select('created_at')
    .where('organization_id', '=', order.organization_id)
    .where('target_type', '=', 'order')
    .where('target_id', '=', order.id)
    .where('action', '=', 'order.status_changed')
    .where(sql<string>`metadata->>'to'`, '=', 'COMPLETED')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? order.updated_at;
}

/**
 * The order's PRODUCT lines with the quantity left to return: purchased minus
 * what live returns (REQUESTED, APPROVED, RECEIVED, COMPLETED) claim. Other
 * line types (services, fees, deposits, adjustments) are not goods to send
 * back. Exact only under the order's row lock, which every return creation takes.
 */
export async function returnableLinesOf(db: Kysely<Database>, order: Order): Promise<ReturnableLine[]> {
  const [lines, claimed] = [
    await db
      .selectFrom('sales_record_lines')
      .select(['id', 'item_id', 'variant_id', 'name', 'quantity', 'unit_price_in_cents'])
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
    returnableQuantity: Math.max(0, line.quantity - (claimedByLine.get(line.id) ?? 0)),
  }));
}

/**
 * Whether a return can be requested now (docs/decisions.md "Returns"): the
 * order is COMPLETED (delivered; a CANCELLED order never is), the store's
 * window (`checkoutSettings.returnWindowDays`, 0 = off) counted from when it
 * became COMPLETED has not closed (`at` < end), and some PRODUCT line has
 * quantity left to return.
 */
export async function assessReturnEligibility(
  db: Kysely<Database>,
  order: Order,
  returnWindowDays: number,
  at: Date,
): Promise<ReturnEligibility & { windowEnd: Date | null }> {
  const lines = await returnableLinesOf(db, order);
  const completedAt = await completedAtOf(db, order);
  const windowEnd = completedAt ? new Date(completedAt.getTime() + returnWindowDays * DAY_MS) : null;
  let reason: ReturnIneligibility | null = null;
  if (windowEnd === null) reason = 'ORDER_NOT_COMPLETED';
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

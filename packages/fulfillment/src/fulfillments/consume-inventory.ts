import { emitLowStockCrossings } from '@commerce/catalog';
import { newId } from '@commerce/core';
import type { Database, FulfillmentLine } from '@commerce/db';
import { type Kysely, sql } from 'kysely';

/**
 * Consumes the stock of a fulfillment moving to SHIPPED, once. The
 * lines' tracked variants are locked `FOR UPDATE` in id order; per line a
 * CONSUME movement is inserted, unique per (fulfillment, line, kind): when
 * it already exists the stock was consumed and nothing happens again.
 *
 * Checkout took a paid order's units off `inventory_quantity` when it
 * reserved them (its reservation is CONSUMED): those units are drawn from the
 * reservation (`fulfilled_quantity`), not from the variant a second time, so
 * the order's own reservation never blocks or double-counts its shipment. The
 * rest (a legacy order's units) comes off the variant, which stops at zero;
 * what it lacked is the movement's `shortfall_quantity` and the shipment
 * stands. Untracked variants and lines without one record nothing.
 */
export async function consumeInventory(
  trx: Kysely<Database>,
  input: { organizationId: string; fulfillmentId: string; orderId: string | null; at: Date },
  lines: readonly Pick<FulfillmentLine, 'line_id' | 'variant_id' | 'quantity'>[],
): Promise<void> {
  const withVariant = lines.filter((line) => line.variant_id !== null);
  if (withVariant.length === 0) return;
  const variantIds = [...new Set(withVariant.map((line) => line.variant_id!))].sort();
  const variants = await trx
    .selectFrom('variants')
    .select(['id', 'inventory_quantity'])
    .where('organization_id', '=', input.organizationId)
    .where('id', 'in', variantIds)
    .orderBy('id')
    .forUpdate()
    .execute();
  const onHand = new Map(
    variants
      .filter((variant) => variant.inventory_quantity !== null)
      .map((variant) => [variant.id, variant.inventory_quantity!]),
  );
  if (onHand.size === 0) return;
  const before = new Map(onHand);
  const reserved = input.orderId === null ? [] : await lockReservations(trx, input, [...onHand.keys()]);

  for (const line of withVariant) {
    const variantId = line.variant_id!;
    const stock = onHand.get(variantId);
    if (stock === undefined) continue;
    const draws: { id: string; quantity: number }[] = [];
    let uncovered = line.quantity;
    for (const reservation of reserved) {
      if (uncovered === 0) break;
      if (reservation.variantId !== variantId || reservation.left === 0) continue;
      const quantity = Math.min(uncovered, reservation.left);
      draws.push({ id: reservation.id, quantity });
      uncovered -= quantity;
    }
    const taken = Math.min(uncovered, stock);
    const inserted = await trx
      .insertInto('inventory_movements')
      .values({
        organization_id: input.organizationId,
        id: newId('inm', input.at),
        kind: 'CONSUME',
        fulfillment_id: input.fulfillmentId,
        line_id: line.line_id,
        variant_id: variantId,
        quantity: line.quantity,
        shortfall_quantity: uncovered - taken,
        created_at: input.at,
      })
      .onConflict((conflict) =>
        conflict.columns(['organization_id', 'fulfillment_id', 'line_id', 'kind']).doNothing(),
      )
      .returning('id')
      .executeTakeFirst();
    if (!inserted) continue;
    for (const draw of draws) {
      await trx
        .updateTable('inventory_reservations')
        .set({ fulfilled_quantity: sql`fulfilled_quantity + ${draw.quantity}`, updated_at: input.at })
        .where('organization_id', '=', input.organizationId)
        .where('id', '=', draw.id)
        .execute();
      const reservation = reserved.find((entry) => entry.id === draw.id)!;
      reservation.left -= draw.quantity;
    }
    if (taken > 0) {
      // A decrement never sends back-in-stock mail: it only lowers stock.
      await trx
        .updateTable('variants')
        .set({ inventory_quantity: sql`inventory_quantity - ${taken}`, updated_at: input.at })
        .where('organization_id', '=', input.organizationId)
        .where('id', '=', variantId)
        .execute();
      onHand.set(variantId, stock - taken);
    }
  }
  await emitLowStockCrossings(
    trx,
    input,
    [...before].map(([variantId, stock]) => ({ variantId, before: stock, after: onHand.get(variantId)! })),
  );
}

/** The order's CONSUMED checkout reservations of these variants with units left, locked, oldest first. */
async function lockReservations(
  trx: Kysely<Database>,
  input: { organizationId: string; orderId: string | null },
  variantIds: string[],
): Promise<{ id: string; variantId: string; left: number }[]> {
  const rows = await trx
    .selectFrom('inventory_reservations as r')
    .innerJoin('checkout_sessions as s', (join) =>
      join.onRef('s.organization_id', '=', 'r.organization_id').onRef('s.id', '=', 'r.checkout_session_id'),
    )
    .select(['r.id', 'r.variant_id', 'r.quantity', 'r.fulfilled_quantity'])
    .where('s.organization_id', '=', input.organizationId)
    .where('s.order_id', '=', input.orderId)
    .where('r.variant_id', 'in', variantIds)
    .where('r.status', '=', 'CONSUMED')
    .whereRef('r.fulfilled_quantity', '<', 'r.quantity')
    .orderBy('r.id')
    .forUpdate('r')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    variantId: row.variant_id,
    left: row.quantity - row.fulfilled_quantity,
  }));
}

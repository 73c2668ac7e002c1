import { queueBackInStockEmails } from '@commerce/catalog';
import { AppError, newId } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import { type Kysely, sql } from 'kysely';

export interface StockScope {
  organizationId: string;
  checkoutSessionId: string;
  at: Date;
}

/** The quantity of each variant over some lines, by variant id in ascending order (the lock order). */
function quantitiesByVariant(
  lines: readonly { variantId: string | null; quantity: number }[],
): Map<string, number> {
  const wanted = new Map<string, number>();
  for (const line of lines)
    if (line.variantId) wanted.set(line.variantId, (wanted.get(line.variantId) ?? 0) + line.quantity);
  return new Map([...wanted.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * Takes the lines' quantities off their tracked variants (`inventory_quantity`
 * not null; untracked variants are unlimited) and records them as ACTIVE
 * reservations of the session. The variant rows are locked `for update` in id
 * order, so concurrent checkouts queue on them without deadlocking, and every
 * shortfall is checked before anything is taken: either all lines are
 * reserved or none (409 INSUFFICIENT_STOCK, with what is available). Call in
 * the binding transaction.
 */
export async function reserveStock(
  trx: Kysely<Database>,
  scope: StockScope,
  lines: readonly { variantId: string | null; quantity: number }[],
): Promise<void> {
  const wanted = quantitiesByVariant(lines);
  if (wanted.size === 0) return;
  const variants = await trx
    .selectFrom('variants')
    .select(['id', 'inventory_quantity'])
    .where('organization_id', '=', scope.organizationId)
    .where('id', 'in', [...wanted.keys()])
    .orderBy('id')
    .forUpdate()
    .execute();
  const tracked = variants.filter(
    (variant): variant is { id: string; inventory_quantity: number } => variant.inventory_quantity !== null,
  );
  const shortages = tracked
    .filter((variant) => variant.inventory_quantity < wanted.get(variant.id)!)
    .map((variant) => ({
      variantId: variant.id,
      requestedQuantity: wanted.get(variant.id)!,
      availableQuantity: variant.inventory_quantity,
    }));
  if (shortages.length > 0)
    throw new AppError('INSUFFICIENT_STOCK', 'Not enough stock for the requested quantities', { shortages });
  for (const variant of tracked) {
    await trx
      .updateTable('variants')
      .set({ inventory_quantity: sql`inventory_quantity - ${wanted.get(variant.id)!}`, updated_at: scope.at })
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', variant.id)
      .execute();
  }
  if (tracked.length === 0) return;
  await trx
    .insertInto('inventory_reservations')
    .values(
      tracked.map((variant) => ({
        organization_id: scope.organizationId,
        id: newId('rsv', scope.at),
        checkout_session_id: scope.checkoutSessionId,
        variant_id: variant.id,
        quantity: wanted.get(variant.id)!,
        status: 'ACTIVE' as const,
        created_at: scope.at,
        updated_at: scope.at,
      })),
    )
    .execute();
}

/**
 * Puts the session's ACTIVE reservations back on their variants (in id order)
 * and marks them RELEASED. A variant that goes from 0 to a positive stock
 * queues its BACK_IN_STOCK emails in the same transaction. Returns how many
 * reservations were released; none is a no-op.
 */
export async function releaseReservations(
  trx: Kysely<Database>,
  scope: StockScope & { email: CustomerEmailConfig },
): Promise<number> {
  const released = await trx
    .updateTable('inventory_reservations')
    .set({ status: 'RELEASED', updated_at: scope.at })
    .where('organization_id', '=', scope.organizationId)
    .where('checkout_session_id', '=', scope.checkoutSessionId)
    .where('status', '=', 'ACTIVE')
    .returning(['variant_id', 'quantity'])
    .execute();
  const giveBack = quantitiesByVariant(
    released.map((row) => ({ variantId: row.variant_id, quantity: row.quantity })),
  );
  for (const [variantId, quantity] of giveBack) {
    const restocked = await trx
      .updateTable('variants')
      .set({ inventory_quantity: sql`inventory_quantity + ${quantity}`, updated_at: scope.at })
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', variantId)
      .where('inventory_quantity', 'is not', null)
      .returning(['item_id', 'inventory_quantity'])
      .executeTakeFirst();
    if (restocked && restocked.inventory_quantity === quantity) {
      await queueBackInStockEmails(trx, {
        organizationId: scope.organizationId,
        itemId: restocked.item_id,
        variantId,
        at: scope.at,
        email: scope.email,
      });
    }
  }
  return released.length;
}

/** The reservations become the sale's for good: CONSUMED, the stock stays taken. */
export async function consumeReservations(trx: Kysely<Database>, scope: StockScope): Promise<number> {
  const consumed = await trx
    .updateTable('inventory_reservations')
    .set({ status: 'CONSUMED', updated_at: scope.at })
    .where('organization_id', '=', scope.organizationId)
    .where('checkout_session_id', '=', scope.checkoutSessionId)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(consumed.numUpdatedRows);
}

/**
 * A payment that succeeds after it was reported failed (its stock released)
 * takes the lines' quantities again, recorded as CONSUMED reservations. The
 * money is taken, so the sale stands: a variant sold out meanwhile is floored
 * at 0 rather than refused, and the merchant sees the paid order.
 */
export async function retakeStock(
  trx: Kysely<Database>,
  scope: StockScope,
  lines: readonly { variantId: string | null; quantity: number }[],
): Promise<void> {
  const take = quantitiesByVariant(lines);
  const taken: { variantId: string; quantity: number }[] = [];
  for (const [variantId, quantity] of take) {
    const row = await trx
      .updateTable('variants')
      .set({ inventory_quantity: sql`greatest(inventory_quantity - ${quantity}, 0)`, updated_at: scope.at })
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', variantId)
      .where('inventory_quantity', 'is not', null)
      .returning('id')
      .executeTakeFirst();
    if (row) taken.push({ variantId, quantity });
  }
  if (taken.length === 0) return;
  await trx
    .insertInto('inventory_reservations')
    .values(
      taken.map((line) => ({
        organization_id: scope.organizationId,
        id: newId('rsv', scope.at),
        checkout_session_id: scope.checkoutSessionId,
        variant_id: line.variantId,
        quantity: line.quantity,
        status: 'CONSUMED' as const,
        created_at: scope.at,
        updated_at: scope.at,
      })),
    )
    .execute();
}

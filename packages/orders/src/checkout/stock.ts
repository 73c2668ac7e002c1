import { emitLowStockCrossings, queueBackInStockEmails } from '@commerce/catalog';
import { AppError, newId } from '@commerce/core';
import { type Database, lockForTransaction } from '@commerce/db';
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

/** A line to reserve for: its index in the client's cart (`position`, else its place here) names it in a shortage. */
export interface StockLine {
  itemId: string;
  variantId: string | null;
  quantity: number;
  position?: number;
}

/**
 * The per-client cap on held units (CHECKOUT_MAX_HELD_UNITS_PER_CLIENT): the
 * client is the SHA-256 key of tenant and client address the rate limiter
 * uses; `maxUnits` is the most units its sessions may hold at once.
 */
export interface HoldCap {
  clientKey: string;
  maxUnits: number;
  /** For Retry-After when every hold of the client awaits its payment. */
  holdMinutes: number;
}

/**
 * Takes the lines' quantities off their tracked variants (`inventory_quantity`
 * not null; untracked variants are unlimited) and records them as ACTIVE
 * reservations of the session. The variant rows are locked `for update` in id
 * order, so concurrent checkouts queue on them without deadlocking, and every
 * shortfall is checked before anything is taken: either all lines are
 * reserved or none (409 INSUFFICIENT_STOCK naming each short line by its
 * path, never the quantity available). With a `cap`, the client's binds are
 * serialized by a transaction-scoped advisory lock on (tenant, client) taken
 * before the variant locks, and the units its other sessions hold plus these
 * may not pass the cap (429 RATE_LIMIT_EXCEEDED, Retry-After: until its next
 * hold ends; `details: { reason: 'HELD_UNITS_CAP', maxUnits, requestedUnits }`). Call in the binding transaction.
 */
export async function reserveStock(
  trx: Kysely<Database>,
  scope: StockScope & { cap?: HoldCap },
  lines: readonly StockLine[],
): Promise<void> {
  const wanted = quantitiesByVariant(lines);
  if (wanted.size === 0) return;
  if (scope.cap) await lockClientHolds(trx, scope.organizationId, scope.cap.clientKey);
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
  if (tracked.length === 0) return;
  if (scope.cap) {
    const units = tracked.reduce((sum, variant) => sum + wanted.get(variant.id)!, 0);
    await assertHoldRoom(trx, scope, scope.cap, units);
  }
  const shortages = tracked
    .filter((variant) => variant.inventory_quantity < wanted.get(variant.id)!)
    .map((variant) => {
      const index = lines.findIndex((line) => line.variantId === variant.id);
      const line = lines[index]!;
      return {
        path: `lines.${line.position ?? index}`,
        itemId: line.itemId,
        variantId: variant.id,
        requestedQuantity: wanted.get(variant.id)!,
      };
    })
    .sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
  if (shortages.length > 0)
    throw new AppError(
      'INSUFFICIENT_STOCK',
      `Not enough stock for ${shortages.map((shortage) => shortage.path).join(', ')}`,
      { shortages },
    );
  for (const variant of tracked) {
    await trx
      .updateTable('variants')
      .set({ inventory_quantity: sql`inventory_quantity - ${wanted.get(variant.id)!}`, updated_at: scope.at })
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', variant.id)
      .execute();
  }
  // The rows were read under their lock above, so the levels before and after are exact.
  await emitLowStockCrossings(
    trx,
    scope,
    tracked.map((variant) => ({
      variantId: variant.id,
      before: variant.inventory_quantity,
      after: variant.inventory_quantity - wanted.get(variant.id)!,
    })),
  );
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
 * Serializes the binds of one client in one tenant until the transaction
 * ends: its held units are counted and added to under this lock, so
 * concurrent binds cannot pass the cap together. A 64-bit key from SHA-256.
 */
async function lockClientHolds(trx: Kysely<Database>, organizationId: string, clientKey: string) {
  await lockForTransaction(trx, 'checkout-hold', organizationId, clientKey);
}

/** 429 when the client's other sessions hold so many units that `units` more would pass the cap. */
async function assertHoldRoom(trx: Kysely<Database>, scope: StockScope, cap: HoldCap, units: number) {
  const held = await trx
    .selectFrom('inventory_reservations as r')
    .innerJoin('checkout_sessions as s', (join) =>
      join.onRef('s.organization_id', '=', 'r.organization_id').onRef('s.id', '=', 'r.checkout_session_id'),
    )
    .select([
      sql<string | null>`sum(r.quantity)`.as('units'),
      sql<Date | string | null>`min(case when s.status = 'BOUND' then s.expires_at end)`.as('nextEnd'),
    ])
    .where('s.organization_id', '=', scope.organizationId)
    .where('s.hold_client_key', '=', cap.clientKey)
    .where('s.id', '<>', scope.checkoutSessionId)
    .where('r.status', '=', 'ACTIVE')
    .executeTakeFirstOrThrow();
  if (Number(held.units ?? 0) + units <= cap.maxUnits) return;
  const retryAfterSeconds = held.nextEnd
    ? (new Date(held.nextEnd).getTime() - scope.at.getTime()) / 1000
    : cap.holdMinutes * 60;
  // `details` tell this refusal from a request-rate limit, which the same route can also answer: a
  // cart above the cap alone (`requestedUnits > maxUnits`) never binds, whatever the wait.
  throw new AppError(
    'RATE_LIMIT_EXCEEDED',
    `One client may hold at most ${cap.maxUnits} units of this store at once; retry when a hold ends`,
    { reason: 'HELD_UNITS_CAP', maxUnits: cap.maxUnits, requestedUnits: units },
    { retryAfterSeconds },
  );
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

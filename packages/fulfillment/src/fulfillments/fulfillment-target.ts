import { AppError } from '@commerce/core';
import { type Database, type FulfillmentStatus, type SalesRecordLine, sqlState } from '@commerce/db';
import type { LockedRecord } from '@commerce/orders';
import { type Kysely, sql } from 'kysely';
import type { FulfillmentLinesInput } from './schemas.ts';

/** Why new fulfillment work is refused (`CANCELLED`, `AWAITING_PAYMENT`, `FAILED`), or null: the quote's blocker too. */
export function unfulfillableReason({ record, order }: LockedRecord): string | null {
  return order?.status === 'CANCELLED'
    ? 'CANCELLED'
    : record.payment_status === 'AWAITING_PAYMENT' || record.payment_status === 'FAILED'
      ? record.payment_status
      : null;
}

/**
 * New fulfillment work is refused on a cancelled order or an unpaid record
 * (`AWAITING_PAYMENT`, `FAILED`; a voided booking payment is `FAILED`):
 * 409 ORDER_NOT_FULFILLABLE. Cancellation and reads stay allowed.
 */
export function assertFulfillable(target: LockedRecord): void {
  const reason = unfulfillableReason(target);
  if (reason !== null)
    throw new AppError('ORDER_NOT_FULFILLABLE', 'The order cannot be fulfilled now', { reason });
}

/**
 * The requested lines of the record, locked `FOR UPDATE` in id order,
 * with the counters as they are under the lock. A line of another record, an
 * unknown line or a non-PRODUCT line is 400 at `lines.N.lineId`.
 */
export async function lockRequestedLines(
  trx: Kysely<Database>,
  organizationId: string,
  salesRecordId: string,
  lines: FulfillmentLinesInput,
): Promise<Map<string, SalesRecordLine>> {
  const rows = await trx
    .selectFrom('sales_record_lines')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .where(
      'id',
      'in',
      lines.map((line) => line.lineId),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  const issues = lines.flatMap((line, index) =>
    byId.get(line.lineId)?.type === 'PRODUCT'
      ? []
      : [{ path: `lines.${index}.lineId`, message: 'does not name a PRODUCT line of this order' }],
  );
  if (issues.length > 0) throw AppError.validation(issues);
  return byId;
}

/** 409 OVER_FULFILLMENT unless every requested quantity fits what the line has left. */
export function assertAvailable(lines: FulfillmentLinesInput, locked: Map<string, SalesRecordLine>): void {
  const over = lines
    .map((line) => {
      const row = locked.get(line.lineId)!;
      return {
        lineId: line.lineId,
        requested: line.quantity,
        available: row.quantity - row.shipped_quantity - row.allocated_quantity,
      };
    })
    .filter((line) => line.requested > line.available);
  if (over.length > 0) throw overFulfillment(over);
}

export function overFulfillment(lines: { lineId: string; requested: number; available: number }[]): AppError {
  return new AppError('OVER_FULFILLMENT', 'The fulfillment would exceed the quantity left on a line', {
    lines,
  });
}

export type CounterChange = { lineId: string; shipped: number; allocated: number };

const COUNTERS_CHECK = 'sales_record_lines_fulfillment_counters';

/**
 * Moves the line counters by single `SET x = x + n` statements, then writes
 * the derived `fulfillmentStatus` on the record and its legacy order.
 * The lines must be locked and checked already, so the CHECK never fires; if
 * it did, the answer would be 409 OVER_FULFILLMENT and nothing would change.
 */
export async function changeCounters(
  trx: Kysely<Database>,
  target: LockedRecord,
  changes: readonly CounterChange[],
  at: Date,
): Promise<FulfillmentStatus> {
  const { organization_id: organizationId, id: salesRecordId } = target.record;
  for (const change of [...changes].sort((a, b) => (a.lineId < b.lineId ? -1 : 1))) {
    await trx
      .updateTable('sales_record_lines')
      .set((eb) => ({
        shipped_quantity: eb('shipped_quantity', '+', change.shipped),
        allocated_quantity: eb('allocated_quantity', '+', change.allocated),
      }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', change.lineId)
      .execute()
      .catch((error: unknown) => {
        // The counters' CHECK is the last line of defence: its violation is the same 409.
        if (sqlState(error) === '23514' && (error as { constraint?: string }).constraint === COUNTERS_CHECK)
          throw overFulfillment([
            { lineId: change.lineId, requested: change.shipped + change.allocated, available: 0 },
          ]);
        throw error;
      });
  }
  // The derived status (UNFULFILLED with nothing shipped or no PRODUCT line, FULFILLED with every
  // PRODUCT line shipped in full), written on the record and its legacy order: one statement.
  const { rows } = await sql<{ status: FulfillmentStatus }>`
    with products as (
      select coalesce(bool_or(shipped_quantity > 0), false) as any_shipped,
        coalesce(bool_and(shipped_quantity >= quantity), false) as all_shipped
      from sales_record_lines
      where organization_id = ${organizationId} and sales_record_id = ${salesRecordId} and type = 'PRODUCT'
    ),
    derived as (
      select case when not any_shipped then 'UNFULFILLED' when all_shipped then 'FULFILLED'
        else 'PARTIALLY_FULFILLED' end as status
      from products
    ),
    legacy as (
      update orders set fulfillment_status = derived.status, updated_at = ${at}
      from derived
      where orders.organization_id = ${organizationId} and orders.id = ${target.order?.id ?? null}
    )
    update sales_records set fulfillment_status = derived.status, updated_at = ${at}
    from derived
    where sales_records.organization_id = ${organizationId} and sales_records.id = ${salesRecordId}
    returning sales_records.fulfillment_status as status
  `.execute(trx);
  return rows[0]!.status;
}

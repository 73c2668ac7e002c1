import { AppError } from '@commerce/core';
import type { Database, Return } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { ReturnLineRead, ReturnRead } from './schemas.ts';

type ReturnOrder = { order_reference: string | null; order_number: number };

/** The lines of some returns in one query, by return id, in the order they were sent. */
export async function linesOfReturns(
  db: Kysely<Database>,
  organizationId: string,
  returnIds: readonly string[],
): Promise<Map<string, ReturnLineRead[]>> {
  const byReturn = new Map<string, ReturnLineRead[]>(returnIds.map((id) => [id, []]));
  if (returnIds.length === 0) return byReturn;
  const rows = await db
    .selectFrom('return_lines')
    .innerJoin('sales_record_lines', (join) =>
      join
        .onRef('sales_record_lines.organization_id', '=', 'return_lines.organization_id')
        .onRef('sales_record_lines.id', '=', 'return_lines.sales_record_line_id'),
    )
    .select([
      'return_lines.return_id',
      'return_lines.sales_record_line_id',
      'return_lines.quantity',
      'return_lines.reason',
      'return_lines.note',
      'sales_record_lines.item_id',
      'sales_record_lines.variant_id',
      'sales_record_lines.name',
      'sales_record_lines.unit_price_in_cents',
    ])
    .where('return_lines.organization_id', '=', organizationId)
    .where('return_lines.return_id', 'in', [...byReturn.keys()])
    .orderBy('return_lines.return_id')
    .orderBy('return_lines.position')
    .execute();
  for (const row of rows) {
    const unitPrice = Number(row.unit_price_in_cents);
    byReturn.get(row.return_id)?.push({
      lineId: row.sales_record_line_id,
      itemId: row.item_id,
      variantId: row.variant_id,
      name: row.name,
      quantity: row.quantity,
      unitPriceInCents: unitPrice,
      totalInCents: unitPrice * row.quantity,
      reason: row.reason,
      note: row.note,
    });
  }
  return byReturn;
}

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

export function toReturnRead(row: Return & ReturnOrder, lines: ReturnLineRead[]): ReturnRead {
  return {
    id: row.id,
    orderId: row.order_id,
    orderReference: row.order_reference,
    orderNumber: Number(row.order_number),
    status: row.status,
    channel: row.channel,
    customerEmail: row.customer_email,
    currency: row.currency,
    refundTotalInCents: Number(row.refund_total_in_cents),
    rejectionReason: row.rejection_reason,
    lines,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    approvedAt: iso(row.approved_at),
    receivedAt: iso(row.received_at),
    completedAt: iso(row.completed_at),
    rejectedAt: iso(row.rejected_at),
    cancelledAt: iso(row.cancelled_at),
  };
}

/** Returns with their order's reference and number: the base of every return read. */
export function selectReturns(db: Kysely<Database>, organizationId: string) {
  return db
    .selectFrom('returns')
    .innerJoin('orders', (join) =>
      join
        .onRef('orders.organization_id', '=', 'returns.organization_id')
        .onRef('orders.id', '=', 'returns.order_id'),
    )
    .selectAll('returns')
    .select(['orders.order_reference', 'orders.order_number'])
    .where('returns.organization_id', '=', organizationId);
}

/** Some return rows as reads, their lines in one query. */
export async function readReturns(
  db: Kysely<Database>,
  organizationId: string,
  rows: readonly (Return & ReturnOrder)[],
): Promise<ReturnRead[]> {
  const lines = await linesOfReturns(
    db,
    organizationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toReturnRead(row, lines.get(row.id)!));
}

export async function readReturn(
  db: Kysely<Database>,
  organizationId: string,
  returnId: string,
): Promise<ReturnRead> {
  const row = await selectReturns(db, organizationId).where('returns.id', '=', returnId).executeTakeFirst();
  if (!row) throw AppError.notFound('Return not found');
  const [read] = await readReturns(db, organizationId, [row]);
  return read!;
}

/** The return row, locked for update when asked; a missing or foreign return is a neutral 404. */
export async function findReturn(
  db: Kysely<Database>,
  organizationId: string,
  returnId: string,
  lock?: 'update',
): Promise<Return> {
  const row = await db
    .selectFrom('returns')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', returnId)
    .$if(lock === 'update', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Return not found');
  return row;
}

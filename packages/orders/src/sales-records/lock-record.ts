import { AppError } from '@commerce/core';
import type { Database, Order, SalesRecord } from '@commerce/db';
import type { Kysely } from 'kysely';

const notFound = () => AppError.notFound('Order not found');

/**
 * The sales record a path names: `sal_…` is the record, `ord_…` its legacy
 * order. Unknown, foreign and other ids are the same neutral 404.
 * Ids never change, so this runs before the write's transaction: the
 * idempotency intent hashes the resolved record id, whichever id was sent.
 */
export async function resolveRecordId(
  db: Kysely<Database>,
  organizationId: string,
  recordId: string,
): Promise<string> {
  if (recordId.startsWith('sal_')) {
    const record = await db
      .selectFrom('sales_records')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', recordId)
      .executeTakeFirst();
    if (record) return record.id;
  } else if (recordId.startsWith('ord_')) {
    const order = await db
      .selectFrom('orders')
      .select('sales_record_id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', recordId)
      .executeTakeFirst();
    if (order) return order.sales_record_id;
  }
  throw notFound();
}

export interface LockedRecord {
  record: SalesRecord;
  order: Order | null;
}

/**
 * Locks the record for a write (a fulfillment, a label, an address change): its legacy order first,
 * then the record, both `FOR UPDATE`. The payment paths lock an order before
 * its record too, so the two never wait on each other in a circle.
 */
export async function lockRecord(
  trx: Kysely<Database>,
  organizationId: string,
  salesRecordId: string,
): Promise<LockedRecord> {
  const order =
    (await trx
      .selectFrom('orders')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('sales_record_id', '=', salesRecordId)
      .forUpdate()
      .executeTakeFirst()) ?? null;
  const record = await trx
    .selectFrom('sales_records')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', salesRecordId)
    .forUpdate()
    .executeTakeFirst();
  if (!record) throw notFound();
  return { record, order };
}

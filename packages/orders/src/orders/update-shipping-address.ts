import { AppError } from '@commerce/core';
import { type Database, inTransaction, recordAudit, type ShippingAddressSnapshot } from '@commerce/db';
import type { Kysely } from 'kysely';
import { lockRecord } from '../sales-records/lock-record.ts';
import { readOrder } from './order-read.ts';
import type { OrderRead, OrderWriteContext, UpdateShippingAddressInput } from './schemas.ts';

const ADDRESS_FIELDS = ['name', 'line1', 'line2', 'city', 'state', 'postalCode', 'country', 'phone'] as const;

/**
 * The legacy order an id names: `ord_…` itself, `sal_…` the order projecting
 * that record. A record without an order (a booking's), another prefix, an
 * unknown or a foreign id is the neutral 404: the route answers an order.
 */
async function orderIdOf(db: Kysely<Database>, organizationId: string, id: string): Promise<string> {
  const column = id.startsWith('ord_') ? 'id' : id.startsWith('sal_') ? 'sales_record_id' : null;
  const order =
    column === null
      ? undefined
      : await db
          .selectFrom('orders')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where(column, '=', id)
          .executeTakeFirst();
  if (!order) throw AppError.notFound('Order not found');
  return order.id;
}

/**
 * `PUT /merchant/orders/{id}/shipping-address`: replaces the ship-to
 * snapshot on the sales record and its order in one transaction, under the
 * order and record locks fulfillment writes take. Postage already bought or
 * recorded is left as it is. A `CANCELLED` order, or one whose PRODUCT units
 * have all shipped (`FULFILLED`), will get no further parcel: its ship-to is
 * frozen, `409 ORDER_NOT_FULFILLABLE` (`reason` `CANCELLED` or `FULFILLED`).
 * The same address again writes nothing; a change is audited as
 * `order.shipping_address_updated` with the changed `fields`.
 */
export async function updateShippingAddress(
  db: Kysely<Database>,
  ctx: OrderWriteContext,
  input: UpdateShippingAddressInput,
): Promise<OrderRead> {
  const orderId = await orderIdOf(db, ctx.organizationId, input.id);
  const { id: _id, ...address } = input;
  const next: ShippingAddressSnapshot = {
    name: address.name,
    line1: address.line1,
    line2: address.line2,
    city: address.city,
    state: address.state,
    postalCode: address.postalCode,
    country: address.country,
    phone: address.phone,
  };
  return inTransaction(db, async (trx) => {
    const salesRecordId = (
      await trx
        .selectFrom('orders')
        .select('sales_record_id')
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', orderId)
        .executeTakeFirstOrThrow()
    ).sales_record_id;
    const { record, order } = await lockRecord(trx, ctx.organizationId, salesRecordId);
    const reason =
      order?.status === 'CANCELLED'
        ? 'CANCELLED'
        : record.fulfillment_status === 'FULFILLED'
          ? 'FULFILLED'
          : null;
    if (reason !== null)
      throw new AppError('ORDER_NOT_FULFILLABLE', 'The order will ship nothing more; its address is frozen', {
        reason,
      });
    const previous = record.shipping_address;
    const fields = ADDRESS_FIELDS.filter((field) => (previous?.[field] ?? null) !== next[field]);
    if (fields.length === 0) return readOrder(trx, ctx.organizationId, order!);
    const stored = JSON.stringify(next);
    await trx
      .updateTable('sales_records')
      .set({ shipping_address: stored, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', salesRecordId)
      .execute();
    const updated = await trx
      .updateTable('orders')
      .set({ shipping_address: stored, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', orderId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'order.shipping_address_updated',
      targetType: 'order',
      targetId: orderId,
      metadata: { orderId, recordId: salesRecordId, fields },
      at: ctx.at,
    });
    return readOrder(trx, ctx.organizationId, updated);
  });
}

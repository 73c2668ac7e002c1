import { newId } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';

/**
 * Shipment seeding for the tests of orders, returns and return actions: they
 * read what a shipment leaves behind (the fulfillment's status and instants,
 * the lines' `shipped_quantity`, the derived `fulfillmentStatus`) but may not
 * call `@commerce/fulfillment`, which depends on this package. These helpers
 * write those rows directly, as a direct fulfillment without notification
 * leaves them (stock, audit and idempotency rows aside).
 */

export interface SeededShipment {
  fulfillmentId: string;
  salesRecordId: string;
}

/**
 * A fulfillment of the order (`ord_…`) for `lines`: `SHIPPED` at `at` (units
 * shipped), or `READY` (units allocated, not shipped: a prepared shipment),
 * with the record's and order's `fulfillmentStatus` derived again.
 */
export async function seedShipment(
  db: Kysely<Database>,
  input: {
    organizationId: string;
    orderId: string;
    lines: { lineId: string; quantity: number }[];
    at: Date;
    status?: 'SHIPPED' | 'READY';
  },
): Promise<SeededShipment> {
  const { organizationId, orderId, at } = input;
  const status = input.status ?? 'SHIPPED';
  const shipped = status === 'SHIPPED';
  const { sales_record_id: salesRecordId } = await db
    .selectFrom('orders')
    .select('sales_record_id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', orderId)
    .executeTakeFirstOrThrow();
  const fulfillmentId = newId('ful', at);
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('fulfillments')
      .values({
        organization_id: organizationId,
        id: fulfillmentId,
        sales_record_id: salesRecordId,
        order_id: orderId,
        status,
        origin: shipped ? 'DIRECT' : 'PLANNED',
        tracking_carrier: null,
        tracking_number: null,
        tracking_url: null,
        note: null,
        notification_decision: shipped ? 'SUPPRESS' : null,
        notification_decided_at: shipped ? at : null,
        notification_decided_by: null,
        inventory_consumed_at: shipped ? at : null,
        shipped_at: shipped ? at : null,
        delivered_at: null,
        cancelled_at: null,
        cancel_reason: null,
        created_by: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
    for (const [position, line] of input.lines.entries()) {
      const row = await trx
        .updateTable('sales_record_lines')
        .set((eb) =>
          shipped
            ? { shipped_quantity: eb('shipped_quantity', '+', line.quantity) }
            : { allocated_quantity: eb('allocated_quantity', '+', line.quantity) },
        )
        .where('organization_id', '=', organizationId)
        .where('id', '=', line.lineId)
        .returning(['item_id', 'variant_id', 'name'])
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('fulfillment_lines')
        .values({
          organization_id: organizationId,
          fulfillment_id: fulfillmentId,
          line_id: line.lineId,
          position,
          item_id: row.item_id,
          variant_id: row.variant_id,
          sku: null,
          name: row.name,
          quantity: line.quantity,
        })
        .execute();
    }
    await sql`
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
        where orders.organization_id = ${organizationId} and orders.id = ${orderId}
      )
      update sales_records set fulfillment_status = derived.status, updated_at = ${at}
      from derived
      where sales_records.organization_id = ${organizationId} and sales_records.id = ${salesRecordId}
    `.execute(trx);
  });
  return { fulfillmentId, salesRecordId };
}

/** Marks a seeded `SHIPPED` fulfillment `DELIVERED` at `at`. */
export async function seedDelivery(
  db: Kysely<Database>,
  input: { organizationId: string; fulfillmentId: string; at: Date },
): Promise<void> {
  await db
    .updateTable('fulfillments')
    .set((eb) => ({
      status: 'DELIVERED',
      delivered_at: input.at,
      updated_at: input.at,
      version: eb('version', '+', 1),
    }))
    .where('organization_id', '=', input.organizationId)
    .where('id', '=', input.fulfillmentId)
    .execute();
}

/** External postage (`EXTERNAL`, `ACTIVE`) on a seeded `READY` fulfillment, as attaching a carrier's label leaves it. */
export async function seedExternalPostage(
  db: Kysely<Database>,
  input: { organizationId: string; fulfillmentId: string; carrier: string; trackingNumber: string; at: Date },
): Promise<string> {
  const id = newId('pst', input.at);
  await db
    .insertInto('fulfillment_postages')
    .values({
      organization_id: input.organizationId,
      id,
      fulfillment_id: input.fulfillmentId,
      source: 'EXTERNAL',
      status: 'ACTIVE',
      carrier: input.carrier,
      service: null,
      tracking_number: input.trackingNumber,
      tracking_url: null,
      charge_in_cents: null,
      currency: null,
      purchase_id: null,
      label_available: false,
      purchased_at: null,
      retired_at: null,
      retirement_evidence: null,
      created_at: input.at,
    })
    .execute();
  return id;
}

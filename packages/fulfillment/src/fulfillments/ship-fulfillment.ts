import { AppError } from '@commerce/core';
import type { Database, Fulfillment, FulfillmentLine } from '@commerce/db';
import { customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import type { LockedRecord } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { consumeInventory } from './consume-inventory.ts';
import { readFulfillment } from './fulfillment-read.ts';
import type { FulfillmentContext } from './schemas.ts';

/** The columns of a fulfillment shipped now: the notification decision, its stock consumed, its ship time. */
export function shippedColumns(ctx: FulfillmentContext, notifyCustomer: boolean, shippedAt: Date) {
  return {
    notification_decision: notifyCustomer ? ('SEND' as const) : ('SUPPRESS' as const),
    notification_decided_at: ctx.at,
    notification_decided_by: ctx.actor.userId,
    notification_email_queued: notifyCustomer,
    inventory_consumed_at: ctx.at,
    shipped_at: shippedAt,
  };
}

/**
 * A `shippedAt` (or `deliveredAt`) the client sent: not in the future, not
 * before `notBefore` (the record's creation, the shipment): else 400 at `path`.
 */
export function assertPastInstant(
  value: Date | undefined,
  input: { path: string; now: Date; notBefore: Date | null; notBeforeWhat: string },
): Date {
  if (value === undefined) return input.now;
  if (value.getTime() > input.now.getTime())
    throw AppError.validation([{ path: input.path, message: 'must not be in the future' }]);
  if (input.notBefore !== null && value.getTime() < new Date(input.notBefore).getTime())
    throw AppError.validation([{ path: input.path, message: `must not be before ${input.notBeforeWhat}` }]);
  return value;
}

/**
 * What every move to SHIPPED does besides its counters:
 * consumes the lines' stock once, records the notification decision, and
 * with `notifyCustomer` queues ORDER_SHIPPED through the outbox under the
 * dedupe key `ORDER_SHIPPED:<fulfillmentId>`, all in the caller's transaction.
 * The fulfillment row is inserted or already locked by the caller.
 */
export async function completeShipment(
  trx: Kysely<Database>,
  ctx: FulfillmentContext,
  target: LockedRecord,
  fulfillment: Fulfillment,
  lines: readonly FulfillmentLine[],
  notifyCustomer: boolean,
): Promise<void> {
  await consumeInventory(
    trx,
    {
      organizationId: ctx.organizationId,
      fulfillmentId: fulfillment.id,
      orderId: target.order?.id ?? null,
      at: ctx.at,
    },
    lines,
  );
  if (notifyCustomer) await enqueueShipmentEmail(trx, ctx, target, fulfillment, lines);
  await enqueueWebhookEvent(trx, {
    organizationId: ctx.organizationId,
    type: 'fulfillment.shipped',
    objectId: fulfillment.id,
    data: () => readFulfillment(trx, ctx.organizationId, fulfillment.sales_record_id, fulfillment.id),
    at: ctx.at,
  });
}

async function enqueueShipmentEmail(
  trx: Kysely<Database>,
  ctx: FulfillmentContext,
  { record, order }: LockedRecord,
  fulfillment: Fulfillment,
  lines: readonly FulfillmentLine[],
): Promise<void> {
  // A direct fulfillment ships as it is created: it never had postage.
  const postage =
    fulfillment.origin === 'DIRECT'
      ? undefined
      : await trx
          .selectFrom('fulfillment_postages')
          .select(['carrier', 'tracking_number', 'tracking_url'])
          .where('organization_id', '=', ctx.organizationId)
          .where('fulfillment_id', '=', fulfillment.id)
          .where('status', 'in', ['ACTIVE', 'VOID_PENDING'])
          .executeTakeFirst();
  const carrier = fulfillment.tracking_carrier ?? postage?.carrier ?? '';
  const trackingNumber = fulfillment.tracking_number ?? postage?.tracking_number ?? '';
  const trackingUrl = (fulfillment.tracking_carrier ? fulfillment.tracking_url : postage?.tracking_url) ?? '';
  // Without an order reference (records that predate it, or without a legacy order) the link is the account's orders page.
  const reference = order?.order_reference ?? null;
  await enqueueTemplatedEmail(trx, {
    organizationId: ctx.organizationId,
    type: 'ORDER_SHIPPED',
    to: record.customer_email,
    values: {
      'customer.name': record.customer_name,
      'order.number': order ? String(order.order_number) : '',
      'shipment.carrier': carrier,
      'shipment.trackingNumber': trackingNumber,
      'shipment.trackingUrl': trackingUrl.startsWith('https://') ? trackingUrl : '',
      'shipment.items': lines.map((line) => `${line.quantity} × ${line.name}`).join(', '),
      'shipment.shippedAt': new Date(fulfillment.shipped_at!).toISOString(),
    },
    links: {
      action: customerLink(ctx.email, reference ? `/account/orders/${reference}` : '/account/orders'),
    },
    emailFrom: ctx.email.emailFrom,
    metadata: { fulfillmentId: fulfillment.id, recordId: record.id, orderId: order?.id ?? null },
    dedupeKey: `ORDER_SHIPPED:${fulfillment.id}`,
    at: ctx.at,
  });
}

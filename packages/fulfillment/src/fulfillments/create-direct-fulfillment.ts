import { type Database, recordAudit } from '@commerce/db';
import { lockRecord } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { toFulfillmentRead } from './fulfillment-read.ts';
import {
  createKeyedOnRecord,
  insertLines,
  type KeyedOutcome,
  newFulfillmentOf,
  newFulfillmentRow,
} from './fulfillment-state.ts';
import {
  assertAvailable,
  assertFulfillable,
  changeCounters,
  lockRequestedLines,
} from './fulfillment-target.ts';
import type { CreateDirectFulfillmentInput, DirectFulfillmentRead, FulfillmentContext } from './schemas.ts';
import { assertPastInstant, completeShipment, shippedColumns } from './ship-fulfillment.ts';

/** The operation an idempotency key of this route is scoped to. */
export const DIRECT_FULFILLMENT_OPERATION = 'POST /merchant/commerce/orders/:recordId/fulfillments';

/**
 * `POST …/fulfillments`: a direct fulfillment, `SHIPPED` at once,
 * under the required key (30 days; the intent hashes the resolved record id,
 * so either id of the pair is the same request). One transaction locks the
 * key's record, the order and record, the lines in id order, then the
 * variants; under those locks a line without the units left is 409
 * OVER_FULFILLMENT. Ships the units, consumes their stock once, records the
 * notification decision and queues ORDER_SHIPPED when asked, audits
 * `fulfillment.created`. Answers 201 with `recordFulfillmentStatus`.
 */
export async function createDirectFulfillment(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  input: CreateDirectFulfillmentInput,
  idempotencyKey: string,
): Promise<KeyedOutcome<DirectFulfillmentRead>> {
  return createKeyedOnRecord(
    db,
    ctx,
    DIRECT_FULFILLMENT_OPERATION,
    input,
    idempotencyKey,
    (trx, salesRecordId) => shipDirect(trx, ctx, salesRecordId, input),
  );
}

async function shipDirect(
  trx: Kysely<Database>,
  ctx: FulfillmentContext,
  salesRecordId: string,
  input: CreateDirectFulfillmentInput,
): Promise<DirectFulfillmentRead> {
  const target = await lockRecord(trx, ctx.organizationId, salesRecordId);
  const locked = await lockRequestedLines(trx, ctx.organizationId, salesRecordId, input.lines);
  const shippedAt = assertPastInstant(input.shippedAt, {
    path: 'shippedAt',
    now: ctx.at,
    notBefore: target.record.created_at,
    notBeforeWhat: 'the order was created',
  });
  assertFulfillable(target);
  assertAvailable(input.lines, locked);

  const fulfillment = await trx
    .insertInto('fulfillments')
    .values(
      newFulfillmentRow(newFulfillmentOf(ctx, target, 'SHIPPED', 'DIRECT'), {
        tracking_carrier: input.tracking?.carrier ?? null,
        tracking_number: input.tracking?.trackingNumber ?? null,
        tracking_url: input.tracking?.trackingUrl ?? null,
        note: input.note ?? null,
        ...shippedColumns(ctx, input.notifyCustomer, shippedAt),
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
  const lines = await insertLines(trx, ctx, fulfillment.id, input.lines, locked);
  const recordFulfillmentStatus = await changeCounters(
    trx,
    target,
    input.lines.map((line) => ({ lineId: line.lineId, shipped: line.quantity, allocated: 0 })),
    ctx.at,
  );
  await completeShipment(trx, ctx, target, fulfillment, lines, input.notifyCustomer);
  await recordAudit(trx, {
    organizationId: ctx.organizationId,
    actor: ctx.actor,
    action: 'fulfillment.created',
    targetType: 'fulfillment',
    targetId: fulfillment.id,
    metadata: {
      fulfillmentId: fulfillment.id,
      recordId: salesRecordId,
      lines: input.lines.map((line) => ({ lineId: line.lineId, quantity: line.quantity })),
      notifyCustomer: input.notifyCustomer,
      hasTracking: input.tracking !== undefined,
    },
    at: ctx.at,
  });
  // Read from the rows just written: a new direct fulfillment has no postage.
  return { ...toFulfillmentRead(fulfillment, lines, []), recordFulfillmentStatus };
}

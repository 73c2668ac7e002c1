import { AppError } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import { resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { readFulfillment } from './fulfillment-read.ts';
import {
  currentPostage,
  invalidMove,
  type KeyedOutcome,
  keyedFulfillmentWrite,
  linesOf,
  lockFulfillment,
  postagesOf,
} from './fulfillment-state.ts';
import { assertFulfillable, changeCounters, lockRequestedLines } from './fulfillment-target.ts';
import { openCancellationOf } from './open-cancellation.ts';
import type { FulfillmentContext, FulfillmentRead, HandOffFulfillmentInput } from './schemas.ts';
import { assertPastInstant, completeShipment, shippedColumns } from './ship-fulfillment.ts';

/** The operation an idempotency key of this route is scoped to. */
export const HANDOFF_OPERATION =
  'POST /merchant/commerce/orders/:recordId/fulfillments/:fulfillmentId/handoff';

/**
 * `POST …/handoff`: a `READY` package with ACTIVE postage and no open
 * cancellation leaves in the carrier's custody: `SHIPPED`, its allocation
 * becomes shipped, its stock is consumed once, the notification decision is
 * recorded (ORDER_SHIPPED queued when asked). VOID_PENDING postage is 409
 * HANDOFF_BLOCKED `VOID_PENDING`, none current `POSTAGE_RETIRED`; another
 * state, a second handoff included, 409 INVALID_STATE_TRANSITION. With the
 * optional key the same request replays the recorded answer and consumes
 * nothing again. Audits `fulfillment.handed_off`.
 */
export async function handOffFulfillment(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  input: HandOffFulfillmentInput,
  idempotencyKey?: string,
): Promise<KeyedOutcome<FulfillmentRead>> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, input.recordId);
  const run = (trx: Kysely<Database>) => handOff(trx, ctx, salesRecordId, input);
  if (idempotencyKey === undefined) return { body: await inTransaction(db, run), replayed: false };
  const { recordId: _recordId, fulfillmentId, ...body } = input;
  return keyedFulfillmentWrite(
    db,
    ctx,
    {
      operation: HANDOFF_OPERATION,
      key: idempotencyKey,
      params: { recordId: salesRecordId, fulfillmentId },
      body,
      status: 200,
    },
    run,
  );
}

async function handOff(
  trx: Kysely<Database>,
  ctx: FulfillmentContext,
  salesRecordId: string,
  input: HandOffFulfillmentInput,
): Promise<FulfillmentRead> {
  const { target, fulfillment } = await lockFulfillment(trx, ctx, salesRecordId, input.fulfillmentId);
  const shippedAt = assertPastInstant(input.shippedAt, {
    path: 'shippedAt',
    now: ctx.at,
    notBefore: target.record.created_at,
    notBeforeWhat: 'the order was created',
  });
  if (fulfillment.status !== 'READY') throw invalidMove(fulfillment.status, 'SHIPPED');
  // An open cancellation (PENDING, or EXHAUSTED without evidence) blocks handoff until it closes.
  if (await openCancellationOf(trx, ctx.organizationId, fulfillment.id))
    throw new AppError('HANDOFF_BLOCKED', 'A void of the postage is open', { reason: 'VOID_PENDING' });
  const current = currentPostage(await postagesOf(trx, fulfillment));
  if (current === undefined)
    throw new AppError('HANDOFF_BLOCKED', 'The fulfillment has no current postage', {
      reason: 'POSTAGE_RETIRED',
    });
  if (current.status === 'VOID_PENDING')
    throw new AppError('HANDOFF_BLOCKED', 'A void of the postage is pending', { reason: 'VOID_PENDING' });
  assertFulfillable(target);

  const lines = await linesOf(trx, fulfillment);
  await lockRequestedLines(
    trx,
    ctx.organizationId,
    salesRecordId,
    lines.map((line) => ({ lineId: line.line_id, quantity: line.quantity })),
  );
  const shipped = await trx
    .updateTable('fulfillments')
    .set((eb) => ({
      status: 'SHIPPED',
      ...shippedColumns(ctx, input.notifyCustomer, shippedAt),
      updated_at: ctx.at,
      version: eb('version', '+', 1),
    }))
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', fulfillment.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await changeCounters(
    trx,
    target,
    lines.map((line) => ({ lineId: line.line_id, shipped: line.quantity, allocated: -line.quantity })),
    ctx.at,
  );
  await completeShipment(trx, ctx, target, shipped, lines, input.notifyCustomer);
  await recordAudit(trx, {
    organizationId: ctx.organizationId,
    actor: ctx.actor,
    action: 'fulfillment.handed_off',
    targetType: 'fulfillment',
    targetId: fulfillment.id,
    metadata: {
      fulfillmentId: fulfillment.id,
      recordId: salesRecordId,
      postageId: current.id,
      notifyCustomer: input.notifyCustomer,
    },
    at: ctx.at,
  });
  return readFulfillment(trx, ctx.organizationId, salesRecordId, fulfillment.id);
}

import { AppError } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import { resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { readFulfillment } from './fulfillment-read.ts';
import {
  assertNoUnsettledPurchase,
  currentPostage,
  invalidMove,
  isPaidNative,
  linesOf,
  lockFulfillment,
  postagesOf,
} from './fulfillment-state.ts';
import { changeCounters, lockRequestedLines } from './fulfillment-target.ts';
import type { CancelFulfillmentInput, FulfillmentContext, FulfillmentRead } from './schemas.ts';

/**
 * `POST …/cancel`, the canonical cancellation: `PLANNED`, or `READY`
 * without current paid native postage, → `CANCELLED`; its allocation is
 * released, once (a second cancel finds it `CANCELLED`: 409
 * INVALID_STATE_TRANSITION). `READY` with current paid native postage is 409
 * PAID_POSTAGE_ACTIVE. Allowed whatever the order's state; restores no stock
 * (none was consumed). Audits `fulfillment.cancelled`.
 */
export async function cancelFulfillment(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  input: CancelFulfillmentInput,
): Promise<FulfillmentRead> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, input.recordId);
  return inTransaction(db, async (trx) => {
    const { target, fulfillment } = await lockFulfillment(trx, ctx, salesRecordId, input.fulfillmentId);
    if (fulfillment.status !== 'PLANNED' && fulfillment.status !== 'READY')
      throw invalidMove(fulfillment.status, 'CANCELLED');
    if (fulfillment.status === 'READY' && isPaidNative(currentPostage(await postagesOf(trx, fulfillment))))
      throw new AppError('PAID_POSTAGE_ACTIVE', 'The fulfillment has current paid postage; void it first');
    await assertNoUnsettledPurchase(trx, fulfillment);
    const lines = await linesOf(trx, fulfillment);
    await lockRequestedLines(
      trx,
      ctx.organizationId,
      salesRecordId,
      lines.map((line) => ({ lineId: line.line_id, quantity: line.quantity })),
    );
    await trx
      .updateTable('fulfillments')
      .set((eb) => ({
        status: 'CANCELLED',
        cancelled_at: ctx.at,
        cancel_reason: input.reason ?? null,
        updated_at: ctx.at,
        version: eb('version', '+', 1),
      }))
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', fulfillment.id)
      .execute();
    await changeCounters(
      trx,
      target,
      lines.map((line) => ({ lineId: line.line_id, shipped: 0, allocated: -line.quantity })),
      ctx.at,
    );
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'fulfillment.cancelled',
      targetType: 'fulfillment',
      targetId: fulfillment.id,
      metadata: {
        fulfillmentId: fulfillment.id,
        recordId: salesRecordId,
        fromStatus: fulfillment.status,
        reason: input.reason ?? null,
      },
      at: ctx.at,
    });
    return readFulfillment(trx, ctx.organizationId, salesRecordId, fulfillment.id);
  });
}

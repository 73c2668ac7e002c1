import { type Database, recordAudit } from '@commerce/db';
import { lockRecord } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { packageColumns, resolvePackage } from './fulfillment-package.ts';
import { readFulfillment } from './fulfillment-read.ts';
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
import type { FulfillmentContext, FulfillmentRead, PlanFulfillmentInput } from './schemas.ts';

/** The operation an idempotency key of this route is scoped to. */
export const PLAN_FULFILLMENT_OPERATION = 'POST /merchant/commerce/orders/:recordId/planned-fulfillments';

/**
 * `POST …/planned-fulfillments`: a `PLANNED` fulfillment that allocates the
 * units and buys, ships and consumes nothing; the same key, locks and
 * OVER_FULFILLMENT as a direct fulfillment. Audits `fulfillment.planned`.
 */
export async function planFulfillment(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  input: PlanFulfillmentInput,
  idempotencyKey: string,
): Promise<KeyedOutcome<FulfillmentRead>> {
  return createKeyedOnRecord(
    db,
    ctx,
    PLAN_FULFILLMENT_OPERATION,
    input,
    idempotencyKey,
    (trx, salesRecordId) => plan(trx, ctx, salesRecordId, input),
  );
}

async function plan(
  trx: Kysely<Database>,
  ctx: FulfillmentContext,
  salesRecordId: string,
  input: PlanFulfillmentInput,
): Promise<FulfillmentRead> {
  const target = await lockRecord(trx, ctx.organizationId, salesRecordId);
  const locked = await lockRequestedLines(trx, ctx.organizationId, salesRecordId, input.lines);
  const resolved =
    input.package === undefined ? null : await resolvePackage(trx, ctx.organizationId, input.package);
  assertFulfillable(target);
  assertAvailable(input.lines, locked);
  const fulfillment = await trx
    .insertInto('fulfillments')
    .values(newFulfillmentRow(newFulfillmentOf(ctx, target, 'PLANNED', 'PLANNED'), packageColumns(resolved)))
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertLines(trx, ctx, fulfillment.id, input.lines, locked);
  await changeCounters(
    trx,
    target,
    input.lines.map((line) => ({ lineId: line.lineId, shipped: 0, allocated: line.quantity })),
    ctx.at,
  );
  await recordAudit(trx, {
    organizationId: ctx.organizationId,
    actor: ctx.actor,
    action: 'fulfillment.planned',
    targetType: 'fulfillment',
    targetId: fulfillment.id,
    metadata: {
      fulfillmentId: fulfillment.id,
      recordId: salesRecordId,
      lines: input.lines.map((line) => ({ lineId: line.lineId, quantity: line.quantity })),
      ...(resolved?.boxPresetId ? { boxPresetId: resolved.boxPresetId } : {}),
    },
    at: ctx.at,
  });
  return readFulfillment(trx, ctx.organizationId, salesRecordId, fulfillment.id);
}

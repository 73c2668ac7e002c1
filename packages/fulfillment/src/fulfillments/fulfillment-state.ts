import { AppError, newId } from '@commerce/core';
import {
  type Database,
  type Fulfillment,
  type FulfillmentLine,
  type FulfillmentOrigin,
  type FulfillmentPostage,
  type FulfillmentRecordStatus,
  type FulfillmentsTable,
  type SalesRecordLine,
  withIdempotency,
} from '@commerce/db';
import { type LockedRecord, lockRecord, resolveRecordId } from '@commerce/orders';
import type { Insertable, Kysely } from 'kysely';
import { findFulfillment } from './fulfillment-read.ts';
import type { FulfillmentContext, FulfillmentLinesInput } from './schemas.ts';

/** What a keyed write answers: its body, and whether it is the recorded answer of an earlier request. */
export interface KeyedOutcome<T> {
  body: T;
  replayed: boolean;
}

/**
 * Runs `run` at most once per idempotency key (kept 30 days); the intent is
 * the resolved record id (with any other path id in `params`) and the body, so either id of the
 * `ord_`/`sal_` pair is the same request. Answers `status` with what `run` gives, or the recorded answer.
 */
export async function keyedFulfillmentWrite<T>(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  request: { operation: string; key: string; params: Record<string, string>; body: unknown; status: number },
  run: (trx: Kysely<Database>) => Promise<T>,
): Promise<KeyedOutcome<T>> {
  const outcome = await withIdempotency<T>(
    db,
    {
      organizationId: ctx.organizationId,
      operation: request.operation,
      key: request.key,
      intent: { params: request.params, body: request.body },
      retention: 'money',
      now: ctx.at,
    },
    async (trx) => ({ status: request.status, body: await run(trx) }),
  );
  return { body: outcome.body, replayed: outcome.replayed };
}

/**
 * A new fulfillment of a record under the route's required key (201): the record id is resolved
 * first and the intent is it and the body without the path's id, so either id of the pair is the
 * same request. `create` runs once per key, in the key's transaction.
 */
export async function createKeyedOnRecord<I extends { recordId: string }, T>(
  db: Kysely<Database>,
  ctx: FulfillmentContext,
  operation: string,
  input: I,
  idempotencyKey: string,
  create: (trx: Kysely<Database>, salesRecordId: string) => Promise<T>,
): Promise<KeyedOutcome<T>> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, input.recordId);
  const { recordId: _recordId, ...body } = input;
  return keyedFulfillmentWrite(
    db,
    ctx,
    { operation, key: idempotencyKey, params: { recordId: salesRecordId }, body, status: 201 },
    (trx) => create(trx, salesRecordId),
  );
}

/** Who makes a new fulfillment, of which record, in which state. */
export interface NewFulfillment {
  organizationId: string;
  id: string;
  salesRecordId: string;
  orderId: string | null;
  status: FulfillmentRecordStatus;
  origin: FulfillmentOrigin;
  createdBy: string | null;
  at: Date;
}

/** A new fulfillment of the locked record, made now by the context's actor. */
export function newFulfillmentOf(
  ctx: FulfillmentContext,
  target: LockedRecord,
  status: FulfillmentRecordStatus,
  origin: FulfillmentOrigin,
): NewFulfillment {
  return {
    organizationId: ctx.organizationId,
    id: newId('ful', ctx.at),
    salesRecordId: target.record.id,
    orderId: target.order?.id ?? null,
    status,
    origin,
    createdBy: ctx.actor.userId,
    at: ctx.at,
  };
}

/**
 * A new fulfillment's row: untracked, undecided, unconsumed, unshipped and without a package,
 * except for what `columns` set.
 */
export function newFulfillmentRow(
  fulfillment: NewFulfillment,
  columns: Partial<Insertable<FulfillmentsTable>> = {},
): Insertable<FulfillmentsTable> {
  const row: Insertable<FulfillmentsTable> = {
    organization_id: fulfillment.organizationId,
    id: fulfillment.id,
    sales_record_id: fulfillment.salesRecordId,
    order_id: fulfillment.orderId,
    status: fulfillment.status,
    origin: fulfillment.origin,
    tracking_carrier: null,
    tracking_number: null,
    tracking_url: null,
    note: null,
    notification_decision: null,
    notification_decided_at: null,
    notification_decided_by: null,
    inventory_consumed_at: null,
    shipped_at: null,
    delivered_at: null,
    cancelled_at: null,
    cancel_reason: null,
    created_by: fulfillment.createdBy,
    created_at: fulfillment.at,
    updated_at: fulfillment.at,
  };
  return Object.assign(row, columns);
}

/** Every move the status table of docs/fulfillment.md does not list: 409 INVALID_STATE_TRANSITION. */
export function invalidMove(from: FulfillmentRecordStatus, to: FulfillmentRecordStatus): AppError {
  return new AppError('INVALID_STATE_TRANSITION', `A ${from} fulfillment cannot become ${to}`, { from, to });
}

/** The fulfillment's postage, newest first; the current one is ACTIVE or VOID_PENDING. */
export async function postagesOf(
  trx: Kysely<Database>,
  fulfillment: Fulfillment,
): Promise<FulfillmentPostage[]> {
  return trx
    .selectFrom('fulfillment_postages')
    .selectAll()
    .where('organization_id', '=', fulfillment.organization_id)
    .where('fulfillment_id', '=', fulfillment.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export const currentPostage = (postages: readonly FulfillmentPostage[]) =>
  postages.find((postage) => postage.status === 'ACTIVE' || postage.status === 'VOID_PENDING');

/** Source NATIVE or LEGACY in ACTIVE or VOID_PENDING: the "current paid native postage". */
export const isPaidNative = (postage: FulfillmentPostage | undefined) =>
  postage !== undefined && (postage.source === 'NATIVE' || postage.source === 'LEGACY');

/**
 * 409 LABEL_PURCHASE_UNSETTLED (`details.purchaseId`) while a `PENDING` or
 * `UNCERTAIN` label purchase holds the fulfillment: cancelling it or giving
 * it other postage then would leave a label bought for nothing, or two
 * current postages. Reconcile the purchase first.
 */
export async function assertNoUnsettledPurchase(
  trx: Kysely<Database>,
  fulfillment: Fulfillment,
): Promise<void> {
  const open = await trx
    .selectFrom('label_purchases')
    .select('id')
    .where('organization_id', '=', fulfillment.organization_id)
    .where('sales_record_id', '=', fulfillment.sales_record_id)
    .where('fulfillment_id', '=', fulfillment.id)
    .where('status', 'in', ['PENDING', 'UNCERTAIN'])
    .executeTakeFirst();
  if (open)
    throw new AppError('LABEL_PURCHASE_UNSETTLED', 'A label purchase for this fulfillment is unsettled', {
      purchaseId: open.id,
    });
}

/** Locks the record pair, then the fulfillment (lock order: record, fulfillment, lines, variants). */
export async function lockFulfillment(
  trx: Kysely<Database>,
  ctx: FulfillmentContext,
  salesRecordId: string,
  fulfillmentId: string,
): Promise<{ target: LockedRecord; fulfillment: Fulfillment }> {
  const target = await lockRecord(trx, ctx.organizationId, salesRecordId);
  const fulfillment = await findFulfillment(trx, ctx.organizationId, salesRecordId, fulfillmentId, 'update');
  return { target, fulfillment };
}

export async function linesOf(trx: Kysely<Database>, fulfillment: Fulfillment) {
  return trx
    .selectFrom('fulfillment_lines')
    .selectAll()
    .where('organization_id', '=', fulfillment.organization_id)
    .where('fulfillment_id', '=', fulfillment.id)
    .orderBy('position')
    .execute();
}

/** The fulfillment's lines, in request order, with the line's names and its variant's SKU as they are now. */
export async function insertLines(
  trx: Kysely<Database>,
  ctx: Pick<FulfillmentContext, 'organizationId'>,
  fulfillmentId: string,
  lines: FulfillmentLinesInput,
  locked: Map<string, SalesRecordLine>,
): Promise<FulfillmentLine[]> {
  const variantIds = [
    ...new Set(lines.map((line) => locked.get(line.lineId)!.variant_id).filter((id) => id !== null)),
  ];
  const skus =
    variantIds.length === 0
      ? new Map<string, string | null>()
      : new Map(
          (
            await trx
              .selectFrom('variants')
              .select(['id', 'sku'])
              .where('organization_id', '=', ctx.organizationId)
              .where('id', 'in', variantIds)
              .execute()
          ).map((variant) => [variant.id, variant.sku]),
        );
  const inserted = await trx
    .insertInto('fulfillment_lines')
    .values(
      lines.map((line, position) => {
        const row = locked.get(line.lineId)!;
        return {
          organization_id: ctx.organizationId,
          fulfillment_id: fulfillmentId,
          line_id: line.lineId,
          position,
          item_id: row.item_id,
          variant_id: row.variant_id,
          sku: row.variant_id === null ? null : (skus.get(row.variant_id) ?? null),
          name: row.name,
          quantity: line.quantity,
        };
      }),
    )
    .returningAll()
    .execute();
  return inserted.sort((a, b) => a.position - b.position);
}

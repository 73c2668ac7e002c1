import { AppError, type Clock, newId } from '@commerce/core';
import {
  type AuditActor,
  type Database,
  type LabelPurchase,
  type LabelPurchaseStatus,
  recordAudit,
  recordIdempotentAnswer,
  releaseIdempotencyKey,
} from '@commerce/db';
import { lockRecord } from '@commerce/orders';
import type { Kysely } from 'kysely';
import type { CarrierLabel, CarrierProvider } from '../carrier/carrier-provider.ts';
import { packageColumns } from '../fulfillments/fulfillment-package.ts';
import { findFulfillment, readFulfillment } from '../fulfillments/fulfillment-read.ts';
import { insertLines, newFulfillmentRow } from '../fulfillments/fulfillment-state.ts';
import { changeCounters, lockRequestedLines } from '../fulfillments/fulfillment-target.ts';
import type { FulfillmentPackageRead } from '../fulfillments/schemas.ts';
import { storeLabelDocument } from './label-documents.ts';
import { toLabelPurchaseRead } from './label-purchase-read.ts';
import type { LabelPurchaseRead, LabelPurchaseResult } from './schemas.ts';

/** The operation a label purchase's idempotency key is scoped to. */
export const PURCHASE_LABEL_OPERATION = 'POST /merchant/orders/:orderId/shipping-label';

/** Who buys, settles or reconciles labels, with which carrier, and when (the clock is read at each step). */
export interface LabelPurchaseContext {
  organizationId: string;
  actor: AuditActor;
  clock: Clock;
  carrier: CarrierProvider;
  /** CARRIER_TIMEOUT_MS: the in-flight window of a `PENDING` purchase is `max(120 s, 2 ×` this`)`. */
  carrierTimeoutMs: number;
}

/** The actor of the worker's writes: `actorUserId` null, `metadata.actor: "system"`. */
export const SYSTEM_ACTOR: AuditActor = { userId: null, email: null };

const keyOf = (organizationId: string, keyHash: string) => ({
  organizationId,
  operation: PURCHASE_LABEL_OPERATION,
  keyHash,
});

/** Compare-and-set: moves the purchase out of one of `from` or answers undefined (someone settled it first). */
async function compareAndSet(
  trx: Kysely<Database>,
  organizationId: string,
  purchaseId: string,
  from: readonly LabelPurchaseStatus[],
  changes: Partial<{
    status: LabelPurchaseStatus;
    failure: LabelPurchase['failure'];
    tracking_number: string;
    settled_at: Date;
    reconcile_outcome: LabelPurchase['reconcile_outcome'];
  }>,
): Promise<LabelPurchase | undefined> {
  return trx
    .updateTable('label_purchases')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', purchaseId)
    .where('status', 'in', [...from])
    .returningAll()
    .executeTakeFirst();
}

/** The purchase and its fulfillment as the `201` shows them, read now. */
export async function purchaseResultOf(
  db: Kysely<Database>,
  ctx: LabelPurchaseContext,
  purchase: LabelPurchase,
): Promise<LabelPurchaseResult> {
  return {
    purchase: toLabelPurchaseRead(purchase, ctx.clock.now(), ctx.carrierTimeoutMs),
    fulfillment: await readFulfillment(
      db,
      ctx.organizationId,
      purchase.sales_record_id,
      purchase.fulfillment_id!,
    ),
  };
}

export interface LabelSettleOptions {
  /** The states the compare-and-set accepts: `PENDING` for the original call; `UNCERTAIN` too for a reconcile. */
  from: readonly LabelPurchaseStatus[];
  /** Set when a reconcile settles it (`RESOLVED`). */
  reconciled: boolean;
}

/**
 * Settles the purchase `PURCHASED` (the carrier answered `OK`): postage `NATIVE
 * ACTIVE`, the fulfillment `READY` (the named one, or a new `NATIVE_LABEL`
 * one that takes over the claim's allocation), the `201` recorded on the key,
 * audited. After the transaction the label document is fetched and stored;
 * if that fails `labelAvailable` stays false and the worker retries. Answers
 * undefined when the purchase had already left `from` (nothing changed).
 */
export async function settlePurchased(
  db: Kysely<Database>,
  ctx: LabelPurchaseContext,
  purchaseId: string,
  label: CarrierLabel,
  options: LabelSettleOptions,
): Promise<LabelPurchaseResult | undefined> {
  const settled = await db.transaction().execute(async (trx) => {
    const at = ctx.clock.now();
    const row = await compareAndSet(trx, ctx.organizationId, purchaseId, options.from, {
      status: 'PURCHASED',
      tracking_number: label.trackingNumber,
      settled_at: at,
      ...(options.reconciled ? { reconcile_outcome: 'PURCHASED' as const } : {}),
    });
    if (!row) return undefined;
    // Lock order: the record before the fulfillment.
    await lockRecord(trx, ctx.organizationId, row.sales_record_id);
    const pkg = row.package as unknown as FulfillmentPackageRead;
    let fulfillmentId = row.fulfillment_id;
    if (fulfillmentId !== null) {
      await findFulfillment(trx, ctx.organizationId, row.sales_record_id, fulfillmentId, 'update');
      await trx
        .updateTable('fulfillments')
        .set((eb) => ({
          status: 'READY',
          ...packageColumns(pkg),
          updated_at: at,
          version: eb('version', '+', 1),
        }))
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', fulfillmentId)
        .execute();
    } else {
      // The claim allocated the units: the new fulfillment takes them over, no counter moves.
      fulfillmentId = newId('ful', at);
      await trx
        .insertInto('fulfillments')
        .values(
          newFulfillmentRow(
            {
              organizationId: ctx.organizationId,
              id: fulfillmentId,
              salesRecordId: row.sales_record_id,
              orderId: row.order_id,
              status: 'READY',
              origin: 'NATIVE_LABEL',
              createdBy: row.created_by,
              at,
            },
            packageColumns(pkg),
          ),
        )
        .execute();
      const lines = await trx
        .selectFrom('sales_record_lines')
        .selectAll()
        .where('organization_id', '=', ctx.organizationId)
        .where('sales_record_id', '=', row.sales_record_id)
        .where(
          'id',
          'in',
          row.lines.map((line) => line.lineId),
        )
        .execute();
      await insertLines(
        trx,
        { organizationId: ctx.organizationId },
        fulfillmentId,
        row.lines,
        new Map(lines.map((line) => [line.id, line])),
      );
      await trx
        .updateTable('label_purchases')
        .set({ fulfillment_id: fulfillmentId })
        .where('organization_id', '=', ctx.organizationId)
        .where('id', '=', row.id)
        .execute();
    }
    const postageId = newId('pst', at);
    await trx
      .insertInto('fulfillment_postages')
      .values({
        organization_id: ctx.organizationId,
        id: postageId,
        fulfillment_id: fulfillmentId,
        source: 'NATIVE',
        status: 'ACTIVE',
        carrier: row.carrier,
        service: row.service,
        tracking_number: label.trackingNumber,
        tracking_url: label.trackingUrl,
        charge_in_cents: row.charge_in_cents,
        currency: row.currency,
        purchase_id: row.id,
        label_available: false,
        purchased_at: at,
        retired_at: null,
        retirement_evidence: null,
        created_at: at,
        // Fetched right after this transaction; the worker retries from here if that fails.
        label_next_fetch_at: at,
      })
      .execute();
    const purchase = { ...row, fulfillment_id: fulfillmentId };
    const metadata = {
      purchaseId: row.id,
      recordId: row.sales_record_id,
      fulfillmentId,
      postageId,
      chargeInCents: row.charge_in_cents,
      trackingNumber: label.trackingNumber,
      ...(ctx.actor.userId === null ? { actor: 'system' } : {}),
    };
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'shipping_label.purchased',
      targetType: 'label_purchase',
      targetId: row.id,
      metadata,
      at,
    });
    if (options.reconciled)
      await recordAudit(trx, {
        organizationId: ctx.organizationId,
        actor: ctx.actor,
        action: 'shipping_label.reconciled',
        targetType: 'label_purchase',
        targetId: row.id,
        metadata: { ...metadata, outcome: 'PURCHASED' },
        at,
      });
    // The one success the idempotency key records: a same-key retry replays this 201.
    if (row.key_hash !== null)
      await recordIdempotentAnswer(trx, keyOf(ctx.organizationId, row.key_hash), {
        status: 201,
        body: await purchaseResultOf(trx, ctx, purchase),
      });
    return { purchase, postageId, trackingNumber: label.trackingNumber };
  });
  if (!settled) return undefined;
  await storeLabelDocument(db, ctx, {
    organizationId: ctx.organizationId,
    postageId: settled.postageId,
    purchaseId: settled.purchase.id,
    trackingNumber: settled.trackingNumber,
  });
  const fresh = await db
    .selectFrom('label_purchases')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', purchaseId)
    .executeTakeFirstOrThrow();
  return purchaseResultOf(db, ctx, fresh);
}

/**
 * Settles the purchase `FAILED` (`REJECTED` is `DECLINED`,
 * `UNAVAILABLE` `NOT_SENT`, a reconcile's `NOT_FOUND` `NOT_PURCHASED`): the
 * claim's allocation and the key are released, audited. Answers undefined
 * when the purchase had already left `from`.
 */
export async function settleFailed(
  db: Kysely<Database>,
  ctx: LabelPurchaseContext,
  purchaseId: string,
  failure: NonNullable<LabelPurchase['failure']>,
  options: LabelSettleOptions & { providerCode?: string },
): Promise<LabelPurchaseRead | undefined> {
  return db.transaction().execute(async (trx) => {
    const at = ctx.clock.now();
    const row = await compareAndSet(trx, ctx.organizationId, purchaseId, options.from, {
      status: 'FAILED',
      failure,
      settled_at: at,
      ...(options.reconciled ? { reconcile_outcome: 'NOT_PURCHASED' as const } : {}),
    });
    if (!row) return undefined;
    if (row.key_hash !== null) await releaseIdempotencyKey(trx, keyOf(ctx.organizationId, row.key_hash));
    // A purchase for a fulfillment holds that fulfillment's allocation, not one of its own.
    if (row.fulfillment_id === null) {
      const target = await lockRecord(trx, ctx.organizationId, row.sales_record_id);
      await lockRequestedLines(trx, ctx.organizationId, row.sales_record_id, row.lines);
      await changeCounters(
        trx,
        target,
        row.lines.map((line) => ({ lineId: line.lineId, shipped: 0, allocated: -line.quantity })),
        at,
      );
    }
    const metadata = {
      purchaseId: row.id,
      recordId: row.sales_record_id,
      ...(row.fulfillment_id === null ? {} : { fulfillmentId: row.fulfillment_id }),
      chargeInCents: row.charge_in_cents,
      ...(options.providerCode === undefined ? {} : { providerCode: options.providerCode }),
      ...(ctx.actor.userId === null ? { actor: 'system' } : {}),
    };
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: options.reconciled ? 'shipping_label.reconciled' : 'shipping_label.purchase_failed',
      targetType: 'label_purchase',
      targetId: row.id,
      metadata: options.reconciled ? { ...metadata, outcome: 'NOT_PURCHASED' } : metadata,
      at,
    });
    return toLabelPurchaseRead(row, at, ctx.carrierTimeoutMs);
  });
}

/** `UNCERTAIN`: lines, claim and key kept until a reconcile; audited. Undefined when already settled. */
export async function settleUncertain(
  db: Kysely<Database>,
  ctx: LabelPurchaseContext,
  purchaseId: string,
): Promise<LabelPurchaseRead | undefined> {
  return db.transaction().execute(async (trx) => {
    const at = ctx.clock.now();
    const row = await compareAndSet(trx, ctx.organizationId, purchaseId, ['PENDING'], {
      status: 'UNCERTAIN',
    });
    if (!row) return undefined;
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'shipping_label.purchase_uncertain',
      targetType: 'label_purchase',
      targetId: row.id,
      metadata: {
        purchaseId: row.id,
        recordId: row.sales_record_id,
        ...(row.fulfillment_id === null ? {} : { fulfillmentId: row.fulfillment_id }),
        chargeInCents: row.charge_in_cents,
      },
      at,
    });
    return toLabelPurchaseRead(row, at, ctx.carrierTimeoutMs);
  });
}

/**
 * What a request answers for a purchase it did not settle itself (a same-key
 * request, or a call whose settle lost the compare-and-set): `PURCHASED`
 * the `201` read now; `PENDING` within the in-flight window
 * 409 LABEL_PURCHASE_IN_PROGRESS; `PENDING` past it or `UNCERTAIN`
 * 503 LABEL_PURCHASE_UNCERTAIN with the reconciliation; `FAILED` (settled by
 * a reconcile as not bought) 503 PROVIDER_UNAVAILABLE.
 */
export async function answerFromPurchase(
  db: Kysely<Database>,
  ctx: LabelPurchaseContext,
  row: LabelPurchase,
): Promise<LabelPurchaseResult> {
  if (row.status === 'PURCHASED') return purchaseResultOf(db, ctx, row);
  const read = toLabelPurchaseRead(row, ctx.clock.now(), ctx.carrierTimeoutMs);
  if (row.status === 'FAILED')
    throw new AppError('PROVIDER_UNAVAILABLE', 'The label was not bought; nothing was spent', {
      purchaseId: row.id,
    });
  if (read.reconciliation.status === 'IN_FLIGHT')
    throw new AppError('LABEL_PURCHASE_IN_PROGRESS', undefined, { purchaseId: row.id });
  throw new AppError('LABEL_PURCHASE_UNCERTAIN', undefined, {
    purchaseId: row.id,
    reconciliation: read.reconciliation,
  });
}

import { AppError, newId } from '@commerce/core';
import {
  bindIdempotencyKey,
  type Database,
  type FulfillmentRecordStatus,
  type IdempotencyBinding,
  type IdempotencyRequest,
  idempotencyKeyHash,
  type LabelPurchase,
  readIdempotencyBinding,
  recordAudit,
} from '@commerce/db';
import { lockRecord, resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { findFulfillment } from '../fulfillments/fulfillment-read.ts';
import { currentPostage, invalidMove, postagesOf } from '../fulfillments/fulfillment-state.ts';
import {
  assertAvailable,
  assertFulfillable,
  changeCounters,
  lockRequestedLines,
  overFulfillment,
  unfulfillableReason,
} from '../fulfillments/fulfillment-target.ts';
import type { FulfillmentLinesInput } from '../fulfillments/schemas.ts';
import { assertFundsCover, committedSinceInCents } from './funding.ts';
import { labelSettingsOf } from './label-addresses.ts';
import { evaluateLabelSelection, type LabelSelection } from './quote-shipping-label.ts';
import type { LabelPurchaseResult, PurchaseShippingLabelInput } from './schemas.ts';
import {
  answerFromPurchase,
  type LabelPurchaseContext,
  PURCHASE_LABEL_OPERATION,
  purchaseResultOf,
  settleFailed,
  settlePurchased,
  settleUncertain,
} from './settle-label-purchase.ts';

export interface LabelPurchaseOutcome {
  body: LabelPurchaseResult;
  /** The recorded `201` of an earlier request with this key: send `idempotent-replayed: true`. */
  replayed: boolean;
}

const ADDRESS_SERVICE_PACKAGE_BLOCKERS = new Set([
  'SHIP_FROM_ADDRESS_MISSING',
  'SHIP_TO_ADDRESS_MISSING',
  'SERVICE_UNAVAILABLE',
  'PACKAGE_EXCEEDS_SERVICE_LIMITS',
]);

/**
 * `POST /merchant/orders/:orderId/shipping-label`: buys one label (docs/fulfillment.md
 * "Label purchase").
 *
 * 1. The key (required) is matched: a recorded `201` replays (read now); a
 *    key bound to an unsettled purchase answers from that purchase's state
 *    (`answerFromPurchase`), never by a second carrier call.
 * 2. to 5. The selection is recomputed as the quote computes it: blockers,
 *    the fingerprint, the acknowledgements and reasons, the funding preflight.
 * 6. The claim transaction binds the key, locks the record, the fulfillment,
 *    the lines and the tenant's `postage_accounts` row, re-checks the
 *    lines, unsettled purchases and funds under those locks, inserts the
 *    purchase `PENDING`, allocates the units (not for a fulfillment, which
 *    holds its own), audits `shipping_label.purchase_claimed`.
 * 7. One carrier `purchase`, outside any transaction, `clientReference` the
 *    purchase id.
 * 8. The settle transaction (compare-and-set on `PENDING`) per outcome.
 */
export async function purchaseShippingLabel(
  db: Kysely<Database>,
  ctx: LabelPurchaseContext,
  input: PurchaseShippingLabelInput,
  idempotencyKey: string,
): Promise<LabelPurchaseOutcome> {
  const { organizationId } = ctx;
  const salesRecordId = await resolveRecordId(db, organizationId, input.orderId);
  const { orderId: _orderId, ...body } = input;
  const keyRequest = (): IdempotencyRequest => ({
    organizationId,
    operation: PURCHASE_LABEL_OPERATION,
    key: idempotencyKey,
    intent: { params: { recordId: salesRecordId }, body },
    retention: 'money',
    now: ctx.clock.now(),
  });
  const keyHash = idempotencyKeyHash(idempotencyKey);

  const early = await readIdempotencyBinding(db, keyRequest());
  if (early.kind !== 'NONE') return answerFromBinding(db, ctx, keyHash, early);

  const { orderId, fulfillmentId, lines, package: pkg, carrier, service } = input;
  const balanceReadAt = ctx.clock.now();
  const evaluate = () =>
    evaluateLabelSelection(
      db,
      { organizationId, carrier: ctx.carrier },
      { orderId, lines, package: pkg, carrier, service, ...(fulfillmentId ? { fulfillmentId } : {}) },
    );
  let selection = await evaluate();
  // A purchase holding these lines may settle between the selection and its blocker reads: once
  // (it released them: declined or not purchased), the selection is made again.
  if ((await refuseBlocked(db, organizationId, salesRecordId, input, selection)) === 'SETTLED_MEANWHILE') {
    selection = await evaluate();
    if ((await refuseBlocked(db, organizationId, salesRecordId, input, selection)) === 'SETTLED_MEANWHILE')
      throw new AppError(
        'LABEL_PURCHASE_UNSETTLED',
        'Other purchases for these lines are settling; try again in a moment',
        {},
      );
  }
  const { quote } = selection;
  if (quote.selectionQuoteFingerprint !== input.selectionQuoteFingerprint)
    throw new AppError(
      'QUOTE_FINGERPRINT_MISMATCH',
      'The selection or its charge changed since the quote; here is a fresh one',
      { quote },
    );
  const missing = [
    ...quote.decision.acknowledgementsRequired.filter((code) => !input.acknowledgements.includes(code)),
    ...(quote.decision.overrideReasonRequired && input.overrideReason === undefined
      ? ['overrideReason']
      : []),
    ...(quote.decision.spendReasonRequired && input.reason === undefined ? ['reason'] : []),
  ];
  if (missing.length > 0)
    throw new AppError('LABEL_ACKNOWLEDGEMENT_REQUIRED', undefined, {
      missing,
      classification: quote.decision.classification,
    });
  const chargeInCents = quote.chargeInCents!;
  const balanceInCents = selection.balanceInCents;
  if (balanceInCents === null)
    throw new AppError('PROVIDER_UNAVAILABLE', 'The carrier balance could not be read; nothing was spent');
  assertFundsCover(balanceInCents, quote.funding.openClaimsInCents, chargeInCents);

  const claimed = await db.transaction().execute(async (trx) => {
    const binding = await bindIdempotencyKey(trx, keyRequest());
    if (binding.kind !== 'BOUND') return { kind: 'ANSWER' as const, binding };
    const at = ctx.clock.now();
    const target = await lockRecord(trx, organizationId, salesRecordId);
    if (fulfillmentId !== undefined) {
      const fulfillment = await findFulfillment(trx, organizationId, salesRecordId, fulfillmentId, 'update');
      assertLabelable(fulfillment.status, currentPostage(await postagesOf(trx, fulfillment)) !== undefined);
    }
    const locked = await lockRequestedLines(trx, organizationId, salesRecordId, lines);
    assertFulfillable(target);
    const holder = await unsettledHolder(trx, organizationId, salesRecordId, lines, fulfillmentId);
    if (holder) throw unsettled(holder);
    if (fulfillmentId === undefined) assertAvailable(lines, locked);
    await lockPostageAccount(trx, organizationId, at);
    assertFundsCover(
      balanceInCents,
      await committedSinceInCents(trx, organizationId, balanceReadAt),
      chargeInCents,
    );

    const purchase = await trx
      .insertInto('label_purchases')
      .values({
        organization_id: organizationId,
        id: newId('lbp', at),
        sales_record_id: salesRecordId,
        order_id: target.order?.id ?? null,
        fulfillment_id: fulfillmentId ?? null,
        status: 'PENDING',
        failure: null,
        carrier: quote.carrier,
        service: quote.service,
        charge_in_cents: chargeInCents,
        currency: quote.currency!,
        lines: JSON.stringify(lines),
        package: JSON.stringify(selection.package),
        selection_fingerprint: quote.selectionQuoteFingerprint!,
        classification: quote.decision.classification as LabelPurchase['classification'],
        acknowledgements: JSON.stringify(input.acknowledgements),
        override_reason: input.overrideReason ?? null,
        reason: input.reason ?? null,
        tracking_number: null,
        created_by: ctx.actor.userId,
        claimed_at: at,
        settled_at: null,
        last_reconciled_at: null,
        reconcile_outcome: null,
        key_hash: keyHash,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    if (fulfillmentId === undefined)
      await changeCounters(
        trx,
        target,
        lines.map((line) => ({ lineId: line.lineId, shipped: 0, allocated: line.quantity })),
        at,
      );
    await recordAudit(trx, {
      organizationId,
      actor: ctx.actor,
      action: 'shipping_label.purchase_claimed',
      targetType: 'label_purchase',
      targetId: purchase.id,
      metadata: {
        purchaseId: purchase.id,
        recordId: salesRecordId,
        ...(fulfillmentId === undefined ? {} : { fulfillmentId }),
        lines: lines.map((line) => ({ lineId: line.lineId, quantity: line.quantity })),
        carrier: purchase.carrier,
        service: purchase.service,
        chargeInCents,
        classification: purchase.classification,
        acknowledgements: input.acknowledgements,
        overrideReason: purchase.override_reason,
        reason: purchase.reason,
      },
      at,
    });
    return { kind: 'CLAIMED' as const, purchase };
  });
  if (claimed.kind === 'ANSWER') return answerFromBinding(db, ctx, keyHash, claimed.binding);
  const { purchase } = claimed;

  const { currency } = await labelSettingsOf(db, organizationId);
  const result = await ctx.carrier.purchase(
    { organizationId, currency },
    { ...selection.rateRequest!, clientReference: purchase.id },
  );

  const settledElsewhere = async (): Promise<LabelPurchaseOutcome> => ({
    body: await answerFromPurchase(db, ctx, await readPurchase(db, organizationId, purchase.id)),
    replayed: false,
  });
  const from = ['PENDING'] as const;
  switch (result.kind) {
    case 'OK': {
      const settled = await settlePurchased(db, ctx, purchase.id, result.value, { from, reconciled: false });
      return settled ? { body: settled, replayed: false } : settledElsewhere();
    }
    case 'REJECTED': {
      const settled = await settleFailed(db, ctx, purchase.id, 'DECLINED', {
        from,
        reconciled: false,
        providerCode: result.providerCode,
      });
      if (!settled) return settledElsewhere();
      throw new AppError('PROVIDER_ERROR', 'The carrier refused the label; nothing was spent', {
        purchaseId: purchase.id,
        providerCode: result.providerCode,
      });
    }
    case 'UNAVAILABLE': {
      const settled = await settleFailed(db, ctx, purchase.id, 'NOT_SENT', { from, reconciled: false });
      if (!settled) return settledElsewhere();
      throw new AppError('PROVIDER_UNAVAILABLE', 'The carrier could not be reached; nothing was spent', {
        purchaseId: purchase.id,
      });
    }
    case 'UNCERTAIN': {
      const settled = await settleUncertain(db, ctx, purchase.id);
      if (!settled) return settledElsewhere();
      throw new AppError('LABEL_PURCHASE_UNCERTAIN', undefined, {
        purchaseId: purchase.id,
        reconciliation: settled.reconciliation,
      });
    }
  }
}

async function readPurchase(
  db: Kysely<Database>,
  organizationId: string,
  purchaseId: string,
): Promise<LabelPurchase> {
  return db
    .selectFrom('label_purchases')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', purchaseId)
    .executeTakeFirstOrThrow();
}

/**
 * A key seen before: a recorded `201` replays, read now (the label may have
 * become available since); a bound key answers from its purchase's state.
 */
async function answerFromBinding(
  db: Kysely<Database>,
  ctx: LabelPurchaseContext,
  keyHash: string,
  binding: IdempotencyBinding,
): Promise<LabelPurchaseOutcome> {
  if (binding.kind === 'RECORDED') {
    const recorded = binding.body as { purchase: { id: string } };
    const row = await readPurchase(db, ctx.organizationId, recorded.purchase.id);
    return { body: await purchaseResultOf(db, ctx, row), replayed: true };
  }
  // A bound key was bound by a committed claim: its purchase exists and names the key.
  const row = await db
    .selectFrom('label_purchases')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('key_hash', '=', keyHash)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  return { body: await answerFromPurchase(db, ctx, row), replayed: row.status === 'PURCHASED' };
}

/** The open purchase holding one of these lines, or this fulfillment; null when none does. */
async function unsettledHolder(
  db: Kysely<Database>,
  organizationId: string,
  salesRecordId: string,
  lines: FulfillmentLinesInput,
  fulfillmentId: string | undefined,
): Promise<LabelPurchase | null> {
  const open = await db
    .selectFrom('label_purchases')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .where('status', 'in', ['PENDING', 'UNCERTAIN'])
    .orderBy('id')
    .execute();
  const requested = new Set(lines.map((line) => line.lineId));
  return (
    open.find(
      (purchase) =>
        (fulfillmentId !== undefined && purchase.fulfillment_id === fulfillmentId) ||
        purchase.lines.some((line) => requested.has(line.lineId)),
    ) ?? null
  );
}

const unsettled = (holder: LabelPurchase) =>
  new AppError('LABEL_PURCHASE_UNSETTLED', undefined, { purchaseId: holder.id });

/** A fulfillment is labelled when `PLANNED`, or `READY` without current postage. */
function assertLabelable(status: FulfillmentRecordStatus, hasCurrentPostage: boolean): void {
  if (status === 'PLANNED' || (status === 'READY' && !hasCurrentPostage)) return;
  if (status === 'READY')
    throw new AppError('PAID_POSTAGE_ACTIVE', 'The fulfillment has current postage: void or retire it first');
  throw invalidMove(status, 'READY');
}

/** Opens (first use) and locks the tenant's `postage_accounts` row: claims re-sum open charges one at a time. */
async function lockPostageAccount(trx: Kysely<Database>, organizationId: string, at: Date): Promise<void> {
  await trx
    .insertInto('postage_accounts')
    .values({ organization_id: organizationId, created_at: at })
    .onConflict((conflict) => conflict.column('organization_id').doNothing())
    .execute();
  await trx
    .selectFrom('postage_accounts')
    .select('organization_id')
    .where('organization_id', '=', organizationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * Step 2 of the purchase: the recomputed selection's blockers as errors, the first that
 * applies: ORDER_NOT_FULFILLABLE; LABEL_PURCHASE_UNSETTLED (`details.purchaseId`);
 * OVER_FULFILLMENT (`details.lines`); for a fulfillment that cannot be
 * labelled PAID_POSTAGE_ACTIVE (current postage) or INVALID_STATE_TRANSITION;
 * LABEL_NOT_PURCHASABLE (`details.blockers`) for address, service and package.
 * `SETTLED_MEANWHILE` when the purchase that held the lines settled and released them between the
 * selection and these reads (the caller selects again); bought, its lines answer OVER_FULFILLMENT.
 */
async function refuseBlocked(
  db: Kysely<Database>,
  organizationId: string,
  salesRecordId: string,
  input: PurchaseShippingLabelInput,
  selection: LabelSelection,
): Promise<'CLEAR' | 'SETTLED_MEANWHILE'> {
  const codes = new Set(selection.quote.decision.blockers.map((blocker) => blocker.code));
  if (codes.size === 0) return 'CLEAR';
  if (codes.has('ORDER_NOT_FULFILLABLE')) {
    const [record, order] = await Promise.all([
      db
        .selectFrom('sales_records')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', salesRecordId)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('orders')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('sales_record_id', '=', salesRecordId)
        .executeTakeFirst(),
    ]);
    throw new AppError('ORDER_NOT_FULFILLABLE', 'The order cannot be fulfilled now', {
      reason: unfulfillableReason({ record, order: order ?? null }),
    });
  }
  const overLines = async () => {
    const rows = await db
      .selectFrom('sales_record_lines')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('sales_record_id', '=', salesRecordId)
      .where(
        'id',
        'in',
        input.lines.map((line) => line.lineId),
      )
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return input.lines
      .map((line) => {
        const row = byId.get(line.lineId)!;
        return {
          lineId: line.lineId,
          requested: line.quantity,
          available: row.quantity - row.shipped_quantity - row.allocated_quantity,
        };
      })
      .filter((line) => line.requested > line.available);
  };
  if (codes.has('LINES_HELD_BY_UNSETTLED_PURCHASE')) {
    const holder = await unsettledHolder(db, organizationId, salesRecordId, input.lines, input.fulfillmentId);
    if (holder) throw unsettled(holder);
    // The holder settled after the selection was made: bought, its lines are taken; else they are
    // free again and the selection is stale.
    const over = await overLines();
    if (over.length > 0) throw overFulfillment(over);
    return 'SETTLED_MEANWHILE';
  }
  if (codes.has('LINES_UNAVAILABLE')) throw overFulfillment(await overLines());
  if (codes.has('FULFILLMENT_NOT_LABELABLE')) {
    const fulfillment = await findFulfillment(db, organizationId, salesRecordId, input.fulfillmentId!);
    assertLabelable(fulfillment.status, currentPostage(await postagesOf(db, fulfillment)) !== undefined);
  }
  const blockers = selection.quote.decision.blockers.filter((blocker) =>
    ADDRESS_SERVICE_PACKAGE_BLOCKERS.has(blocker.code),
  );
  throw new AppError('LABEL_NOT_PURCHASABLE', undefined, { blockers });
}

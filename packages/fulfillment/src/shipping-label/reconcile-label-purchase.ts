import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import { resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { labelSettingsOf } from './label-addresses.ts';
import {
  findLabelPurchase,
  inFlightWindowMs,
  RECONCILE_COOLDOWN_MS,
  reconciliationOf,
  toLabelPurchaseRead,
} from './label-purchase-read.ts';
import type { LabelPurchasePath, LabelReconcileResult } from './schemas.ts';
import {
  type LabelPurchaseContext,
  purchaseResultOf,
  settleFailed,
  settlePurchased,
} from './settle-label-purchase.ts';

const notAllowed = (reconciliation: ReturnType<typeof reconciliationOf>) =>
  new AppError('RECONCILE_NOT_ALLOWED', undefined, { reconciliation });

/**
 * `POST …/shipping-label/purchases/:purchaseId/reconcile`: unless the
 * derived reconciliation is `allowed`, 409 RECONCILE_NOT_ALLOWED with it.
 * The attempt is recorded first by a compare-and-set (so of concurrent
 * reconciles one reads the carrier, the others are cooling down), then one
 * `findPurchase`, never a purchase: `PURCHASED` settles as the purchase's
 * step 8 (`200 { purchase, fulfillment }`, the `201` recorded on its key);
 * `NOT_FOUND` makes it `FAILED` (`NOT_PURCHASED`), releasing lines, claim and
 * key (`200 { purchase }`); `UNKNOWN` or a failed read changes nothing but
 * the attempt: 503 PROVIDER_UNAVAILABLE.
 */
export async function reconcileLabelPurchase(
  db: Kysely<Database>,
  ctx: LabelPurchaseContext,
  input: LabelPurchasePath,
): Promise<LabelReconcileResult> {
  const { organizationId } = ctx;
  const salesRecordId = await resolveRecordId(db, organizationId, input.orderId);
  const row = await findLabelPurchase(db, organizationId, salesRecordId, input.purchaseId);
  const now = ctx.clock.now();
  const reconciliation = reconciliationOf(row, now, ctx.carrierTimeoutMs);
  if (!reconciliation.allowed) throw notAllowed(reconciliation);

  const attempt = await db
    .updateTable('label_purchases')
    .set((eb) => ({ reconcile_attempts: eb('reconcile_attempts', '+', 1), last_reconciled_at: now }))
    .where('organization_id', '=', organizationId)
    .where('id', '=', row.id)
    .where((eb) =>
      eb.or([
        eb('status', '=', 'UNCERTAIN'),
        eb.and([
          eb('status', '=', 'PENDING'),
          eb('claimed_at', '<=', new Date(now.getTime() - inFlightWindowMs(ctx.carrierTimeoutMs))),
        ]),
      ]),
    )
    .where((eb) =>
      eb.or([
        eb('last_reconciled_at', 'is', null),
        eb('last_reconciled_at', '<=', new Date(now.getTime() - RECONCILE_COOLDOWN_MS)),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
  if (!attempt) {
    const fresh = await findLabelPurchase(db, organizationId, salesRecordId, row.id);
    throw notAllowed(reconciliationOf(fresh, ctx.clock.now(), ctx.carrierTimeoutMs));
  }

  const { currency } = await labelSettingsOf(db, organizationId);
  const found = await ctx.carrier.findPurchase({ organizationId, currency }, row.id);
  if (found.kind !== 'OK' || found.value.status === 'UNKNOWN')
    throw new AppError('PROVIDER_UNAVAILABLE', 'The carrier could not say whether the label was bought', {
      purchaseId: row.id,
    });

  const from = ['PENDING', 'UNCERTAIN'] as const;
  if (found.value.status === 'PURCHASED') {
    const settled = await settlePurchased(db, ctx, row.id, found.value.label, { from, reconciled: true });
    if (settled) return settled;
  } else {
    const settled = await settleFailed(db, ctx, row.id, 'NOT_PURCHASED', { from, reconciled: true });
    if (settled) return { purchase: settled };
  }
  // The original call settled it meanwhile: answer what it settled.
  const current = await findLabelPurchase(db, organizationId, salesRecordId, row.id);
  if (current.status === 'PURCHASED') return purchaseResultOf(db, ctx, current);
  return { purchase: toLabelPurchaseRead(current, ctx.clock.now(), ctx.carrierTimeoutMs) };
}

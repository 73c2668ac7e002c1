import {
  type AuditActor,
  type Database,
  recordAudit,
  type ShipmentCancellation,
  type ShipmentCancellationStatus,
} from '@commerce/db';
import type { Kysely } from 'kysely';
import type { LabelState } from '../carrier/carrier-provider.ts';
import type { VoidEvidence } from '../fulfillments/schemas.ts';

/** How a void attempt ends: by evidence, or with the label still standing. */
export type CancellationClose =
  | { kind: 'VOIDED'; evidence: VoidEvidence }
  | { kind: 'REJECTED' }
  | { kind: 'NOT_SENT' };

export interface CloseContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

/** The audit metadata of a worker write says so: `actor: "system"`. */
export const actorMetadata = (actor: AuditActor) => (actor.userId === null ? { actor: 'system' } : {});

/** The evidence a carrier answer is, or null: only `VOIDED` is; "pending" never is. */
export function evidenceOf(
  state: LabelState,
  source: VoidEvidence['source'],
  trackingNumber: string,
  at: Date,
): VoidEvidence | null {
  if (state.status !== 'VOIDED') return null;
  return {
    source,
    providerStatus: state.rawStatus,
    providerReference: trackingNumber,
    observedAt: at.toISOString(),
    refundAmountInCents: state.refundAmountInCents,
  };
}

/**
 * Closes an open cancellation by compare-and-set on `from`, in the
 * caller's transaction (the record and fulfillment locked first): `VOIDED`
 * stores the evidence and moves the postage to `VOIDED` (retired, the refund
 * recorded); `REJECTED` and `NOT_SENT` give the postage back `ACTIVE`. The
 * fulfillment's version moves; audited `shipping_label.voided` or
 * `.void_rejected`. False when the cancellation had already left `from`.
 */
export async function closeCancellation(
  trx: Kysely<Database>,
  ctx: CloseContext,
  cancellation: Pick<ShipmentCancellation, 'id' | 'fulfillment_id' | 'postage_id'>,
  close: CancellationClose,
  from: readonly ShipmentCancellationStatus[],
): Promise<boolean> {
  const closed = await trx
    .updateTable('shipment_cancellations')
    .set({
      status: close.kind,
      evidence: close.kind === 'VOIDED' ? JSON.stringify(close.evidence) : null,
      next_poll_at: null,
      closed_at: ctx.at,
      updated_at: ctx.at,
    })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', cancellation.id)
    .where('status', 'in', [...from])
    .returning('id')
    .executeTakeFirst();
  if (!closed) return false;
  await trx
    .updateTable('fulfillment_postages')
    .set(
      close.kind === 'VOIDED'
        ? {
            status: 'VOIDED',
            retired_at: ctx.at,
            retirement_evidence: JSON.stringify(close.evidence),
            // A voided label is never printed: its document is no longer worth fetching.
            label_next_fetch_at: null,
          }
        : { status: 'ACTIVE' },
    )
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', cancellation.postage_id)
    .where('status', '=', 'VOID_PENDING')
    .execute();
  await trx
    .updateTable('fulfillments')
    .set((eb) => ({ updated_at: ctx.at, version: eb('version', '+', 1) }))
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', cancellation.fulfillment_id)
    .execute();
  await recordAudit(trx, {
    organizationId: ctx.organizationId,
    actor: ctx.actor,
    action: close.kind === 'VOIDED' ? 'shipping_label.voided' : 'shipping_label.void_rejected',
    targetType: 'fulfillment',
    targetId: cancellation.fulfillment_id,
    metadata: {
      fulfillmentId: cancellation.fulfillment_id,
      cancellationId: cancellation.id,
      postageId: cancellation.postage_id,
      ...(close.kind === 'VOIDED'
        ? {
            evidenceSource: close.evidence.source,
            refundAmountInCents: close.evidence.refundAmountInCents,
          }
        : { result: close.kind }),
      ...actorMetadata(ctx.actor),
    },
    at: ctx.at,
  });
  return true;
}

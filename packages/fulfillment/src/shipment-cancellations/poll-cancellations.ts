import type { Clock } from '@commerce/core';
import { type Database, recordAudit } from '@commerce/db';
import { lockRecord } from '@commerce/orders';
import { type Kysely, sql } from 'kysely';
import type { CarrierProvider } from '../carrier/carrier-provider.ts';
import { labelSettingsOf } from '../shipping-label/label-addresses.ts';
import { SYSTEM_ACTOR } from '../shipping-label/settle-label-purchase.ts';
import { VOID_POLL_OFFSETS_MS } from './cancel-prepared-shipment.ts';
import { actorMetadata, closeCancellation, evidenceOf } from './close-cancellation.ts';

/** How long a worker holds a cancellation it is reading before another may read it. */
const POLL_LEASE_MS = 5 * 60_000;

export interface PollSummary {
  read: number;
  voided: number;
  rejected: number;
  exhausted: number;
}

/**
 * The worker's status reads of pending voids: 1 min, 5 min, 30 min,
 * 2 h, 6 h, 24 h and 72 h after the void request, a failed read counting as
 * one. `VOIDED` closes it with evidence (`STATUS_READ`), `VOID_REJECTED` closes
 * it `REJECTED` with the label back `ACTIVE`; anything else waits for the next
 * read, and after the last the cancellation is `EXHAUSTED` (actor system):
 * handoff stays blocked until an Owner or Admin carrier check. Each due row is
 * taken under a lease (`FOR UPDATE SKIP LOCKED`), and every close is a
 * compare-and-set on the attempt it read, so concurrent workers read each once.
 */
export async function pollShipmentCancellations(
  db: Kysely<Database>,
  deps: { carrier: CarrierProvider; clock: Clock; batchSize?: number },
): Promise<PollSummary> {
  const at = deps.clock.now();
  const { rows: due } = await sql<{
    organization_id: string;
    id: string;
    fulfillment_id: string;
    postage_id: string;
    poll_attempts: number;
    void_requested_at: Date;
  }>`
    update shipment_cancellations set next_poll_at = ${new Date(at.getTime() + POLL_LEASE_MS)}
    where (organization_id, id) in (
      select organization_id, id from shipment_cancellations
      where status = 'PENDING' and next_poll_at is not null and next_poll_at <= ${at}
      order by next_poll_at
      limit ${deps.batchSize ?? 50}
      for update skip locked)
    returning organization_id, id, fulfillment_id, postage_id, poll_attempts, void_requested_at
  `.execute(db);
  const summary: PollSummary = { read: 0, voided: 0, rejected: 0, exhausted: 0 };
  for (const row of due) {
    const postage = await db
      .selectFrom('fulfillment_postages')
      .select('tracking_number')
      .where('organization_id', '=', row.organization_id)
      .where('id', '=', row.postage_id)
      .executeTakeFirstOrThrow();
    const { currency } = await labelSettingsOf(db, row.organization_id);
    const state = await deps.carrier.readLabel(
      { organizationId: row.organization_id, currency },
      { trackingNumber: postage.tracking_number },
    );
    summary.read += 1;
    const outcome = await db.transaction().execute(async (trx) => {
      const now = deps.clock.now();
      const fulfillment = await trx
        .selectFrom('fulfillments')
        .select('sales_record_id')
        .where('organization_id', '=', row.organization_id)
        .where('id', '=', row.fulfillment_id)
        .executeTakeFirstOrThrow();
      await lockRecord(trx, row.organization_id, fulfillment.sales_record_id);
      await trx
        .selectFrom('fulfillments')
        .select('id')
        .where('organization_id', '=', row.organization_id)
        .where('id', '=', row.fulfillment_id)
        .forUpdate()
        .execute();
      // Only the attempt this worker read may move it on.
      const current = await trx
        .selectFrom('shipment_cancellations')
        .select(['status', 'poll_attempts'])
        .where('organization_id', '=', row.organization_id)
        .where('id', '=', row.id)
        .executeTakeFirstOrThrow();
      if (current.status !== 'PENDING' || current.poll_attempts !== row.poll_attempts) return 'SKIPPED';
      const closeCtx = { organizationId: row.organization_id, actor: SYSTEM_ACTOR, at: now };
      if (state.kind === 'OK') {
        const evidence = evidenceOf(state.value, 'STATUS_READ', postage.tracking_number, now);
        if (evidence) {
          await closeCancellation(trx, closeCtx, row, { kind: 'VOIDED', evidence }, ['PENDING']);
          return 'VOIDED';
        }
        if (state.value.status === 'VOID_REJECTED') {
          await closeCancellation(trx, closeCtx, row, { kind: 'REJECTED' }, ['PENDING']);
          return 'REJECTED';
        }
      }
      const attempts = row.poll_attempts + 1;
      const isLast = attempts >= VOID_POLL_OFFSETS_MS.length;
      await trx
        .updateTable('shipment_cancellations')
        .set({
          poll_attempts: attempts,
          status: isLast ? 'EXHAUSTED' : 'PENDING',
          next_poll_at: isLast
            ? null
            : new Date(new Date(row.void_requested_at).getTime() + VOID_POLL_OFFSETS_MS[attempts]!),
          updated_at: now,
        })
        .where('organization_id', '=', row.organization_id)
        .where('id', '=', row.id)
        .execute();
      if (!isLast) return 'WAITING';
      await trx
        .updateTable('fulfillments')
        .set((eb) => ({ updated_at: now, version: eb('version', '+', 1) }))
        .where('organization_id', '=', row.organization_id)
        .where('id', '=', row.fulfillment_id)
        .execute();
      await recordAudit(trx, {
        organizationId: row.organization_id,
        actor: SYSTEM_ACTOR,
        action: 'shipping_label.void_exhausted',
        targetType: 'fulfillment',
        targetId: row.fulfillment_id,
        metadata: {
          fulfillmentId: row.fulfillment_id,
          cancellationId: row.id,
          postageId: row.postage_id,
          pollAttempts: attempts,
          ...actorMetadata(SYSTEM_ACTOR),
        },
        at: now,
      });
      return 'EXHAUSTED';
    });
    if (outcome === 'VOIDED') summary.voided += 1;
    else if (outcome === 'REJECTED') summary.rejected += 1;
    else if (outcome === 'EXHAUSTED') summary.exhausted += 1;
  }
  return summary;
}

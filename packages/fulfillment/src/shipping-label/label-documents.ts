import type { Clock } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { CarrierProvider } from '../carrier/carrier-provider.ts';
import { labelSettingsOf } from './label-addresses.ts';
import { storeLabelArtifact } from './label-artifacts.ts';

/** The first retry a minute after a failed fetch, doubling, at most an hour apart (docs/fulfillment.md). */
export const LABEL_FETCH_BACKOFF_MS = { first: 60_000, max: 60 * 60_000 } as const;
/** How long a worker holds a label it is fetching before another may try it. */
const LABEL_FETCH_LEASE_MS = 5 * 60_000;

export const labelFetchDelayMs = (failedAttempts: number) =>
  Math.min(LABEL_FETCH_BACKOFF_MS.max, LABEL_FETCH_BACKOFF_MS.first * 2 ** Math.max(0, failedAttempts - 1));

export interface LabelToFetch {
  organizationId: string;
  postageId: string;
  purchaseId: string;
  trackingNumber: string;
}

/**
 * Fetches a native label's document from the carrier (never in a transaction)
 * and stores it once (`label_artifacts`), then marks the postage
 * `labelAvailable`. A failed fetch leaves it unavailable and schedules the
 * worker's retry; a document the store cannot hold (empty, over 2 MiB) is
 * never retried: that label stays unavailable. Answers whether it is stored.
 */
export async function storeLabelDocument(
  db: Kysely<Database>,
  deps: { carrier: CarrierProvider; clock: Clock },
  label: LabelToFetch,
): Promise<boolean> {
  const { currency } = await labelSettingsOf(db, label.organizationId);
  const document = await deps.carrier.labelDocument(
    { organizationId: label.organizationId, currency },
    { trackingNumber: label.trackingNumber },
  );
  const at = deps.clock.now();
  return db.transaction().execute(async (trx) => {
    const postage = trx
      .updateTable('fulfillment_postages')
      .where('organization_id', '=', label.organizationId)
      .where('id', '=', label.postageId);
    if (document.kind === 'OK') {
      const stored = await storeLabelArtifact(trx, {
        organizationId: label.organizationId,
        purchaseId: label.purchaseId,
        contentType: 'application/pdf',
        bytes: document.value,
        at,
      });
      if (stored === 'STORED') {
        await postage.set({ label_available: true, label_next_fetch_at: null }).execute();
        return true;
      }
      await postage
        .set((eb) => ({
          label_fetch_attempts: eb('label_fetch_attempts', '+', 1),
          label_next_fetch_at: null,
        }))
        .execute();
      return false;
    }
    const row = await postage
      .set((eb) => ({ label_fetch_attempts: eb('label_fetch_attempts', '+', 1) }))
      .returning('label_fetch_attempts')
      .executeTakeFirst();
    await postage
      .set({
        label_next_fetch_at: new Date(at.getTime() + labelFetchDelayMs(row?.label_fetch_attempts ?? 1)),
      })
      .execute();
    return false;
  });
}

/**
 * The worker's retry of label documents: native labels whose document is due, over every
 * tenant, each taken under a lease (`FOR UPDATE SKIP LOCKED`, then its next
 * try moved past the lease) so concurrent workers fetch each once. Answers
 * how many were stored.
 */
export async function retryLabelDocuments(
  db: Kysely<Database>,
  deps: { carrier: CarrierProvider; clock: Clock; batchSize?: number },
): Promise<number> {
  const at = deps.clock.now();
  const { rows } = await sql<{
    organization_id: string;
    id: string;
    purchase_id: string;
    tracking_number: string;
  }>`
    update fulfillment_postages set label_next_fetch_at = ${new Date(at.getTime() + LABEL_FETCH_LEASE_MS)}
    where (organization_id, id) in (
      select organization_id, id from fulfillment_postages
      where label_next_fetch_at is not null and label_next_fetch_at <= ${at}
        and source = 'NATIVE' and purchase_id is not null and status in ('ACTIVE', 'VOID_PENDING')
      order by label_next_fetch_at
      limit ${deps.batchSize ?? 50}
      for update skip locked)
    returning organization_id, id, purchase_id, tracking_number
  `.execute(db);
  let stored = 0;
  for (const row of rows) {
    const isStored = await storeLabelDocument(db, deps, {
      organizationId: row.organization_id,
      postageId: row.id,
      purchaseId: row.purchase_id,
      trackingNumber: row.tracking_number,
    });
    if (isStored) stored += 1;
  }
  return stored;
}

import { AppError, keysetAfter, type Page } from '@commerce/core';
import type { Database, LabelPurchase } from '@commerce/db';
import { resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import type {
  LabelAcknowledgement,
  LabelPurchaseListQuery,
  LabelPurchasePath,
  LabelPurchaseRead,
  Reconciliation,
} from './schemas.ts';

/** A reconcile waits this long after the last one, answered or not. */
export const RECONCILE_COOLDOWN_MS = 30_000;
/** The in-flight window is at least this long, and at least twice the carrier deadline. */
export const MIN_IN_FLIGHT_WINDOW_MS = 120_000;

/** `max(120 s, 2 × CARRIER_TIMEOUT_MS)`: a `PENDING` purchase younger than this may still be settled by its call. */
export const inFlightWindowMs = (carrierTimeoutMs: number) =>
  Math.max(MIN_IN_FLIGHT_WINDOW_MS, 2 * carrierTimeoutMs);

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The `reconciliation` object, derived on every read from the row and the time. */
export function reconciliationOf(
  row: Pick<
    LabelPurchase,
    'status' | 'claimed_at' | 'reconcile_attempts' | 'last_reconciled_at' | 'reconcile_outcome'
  >,
  now: Date,
  carrierTimeoutMs: number,
): Reconciliation {
  const base = {
    attempts: row.reconcile_attempts,
    lastCheckedAt: iso(row.last_reconciled_at),
    outcome: row.reconcile_outcome,
  };
  if (row.status === 'PURCHASED' || row.status === 'FAILED')
    return {
      ...base,
      status: row.reconcile_outcome === null ? 'NOT_REQUIRED' : 'RESOLVED',
      allowed: false,
      allowedAfter: null,
    };
  const inFlightUntil = new Date(row.claimed_at).getTime() + inFlightWindowMs(carrierTimeoutMs);
  if (row.status === 'PENDING' && now.getTime() < inFlightUntil)
    return { ...base, status: 'IN_FLIGHT', allowed: false, allowedAfter: iso(new Date(inFlightUntil)) };
  const coolingUntil =
    row.last_reconciled_at === null
      ? null
      : new Date(row.last_reconciled_at).getTime() + RECONCILE_COOLDOWN_MS;
  if (coolingUntil !== null && now.getTime() < coolingUntil)
    return { ...base, status: 'COOLING_DOWN', allowed: false, allowedAfter: iso(new Date(coolingUntil)) };
  return { ...base, status: 'ALLOWED', allowed: true, allowedAfter: null };
}

export function toLabelPurchaseRead(
  row: LabelPurchase,
  now: Date,
  carrierTimeoutMs: number,
): LabelPurchaseRead {
  return {
    id: row.id,
    recordId: row.sales_record_id,
    orderId: row.order_id,
    fulfillmentId: row.fulfillment_id,
    status: row.status,
    failure: row.failure,
    carrier: row.carrier,
    service: row.service,
    chargeInCents: row.charge_in_cents,
    currency: row.currency,
    classification: row.classification,
    acknowledgements: row.acknowledgements as LabelAcknowledgement[],
    overrideReason: row.override_reason,
    reason: row.reason,
    trackingNumber: row.tracking_number,
    createdBy: row.created_by,
    claimedAt: new Date(row.claimed_at).toISOString(),
    settledAt: iso(row.settled_at),
    reconciliation: reconciliationOf(row, now, carrierTimeoutMs),
  };
}

/** One purchase of the record; of another record, foreign or unknown: the neutral 404. */
export async function findLabelPurchase(
  db: Kysely<Database>,
  organizationId: string,
  salesRecordId: string,
  purchaseId: string,
): Promise<LabelPurchase> {
  const row = await db
    .selectFrom('label_purchases')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .where('id', '=', purchaseId)
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Label purchase not found');
  return row;
}

export interface LabelReadContext {
  organizationId: string;
  now: Date;
  carrierTimeoutMs: number;
}

/** `GET /merchant/orders/:orderId/shipping-label/purchases/:purchaseId`: either id of the record pair. */
export async function getLabelPurchase(
  db: Kysely<Database>,
  ctx: LabelReadContext,
  input: LabelPurchasePath,
): Promise<LabelPurchaseRead> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, input.orderId);
  const row = await findLabelPurchase(db, ctx.organizationId, salesRecordId, input.purchaseId);
  return toLabelPurchaseRead(row, ctx.now, ctx.carrierTimeoutMs);
}

/**
 * `GET /merchant/orders/:orderId/shipping-label/purchases`: the record's
 * purchases oldest first by id (ids are time-ordered; the index
 * `label_purchases_by_record`), keyset-paginated; a cursor naming no
 * purchase of the record is 400.
 */
export async function listLabelPurchases(
  db: Kysely<Database>,
  ctx: LabelReadContext,
  query: LabelPurchaseListQuery,
): Promise<Page<LabelPurchaseRead>> {
  const salesRecordId = await resolveRecordId(db, ctx.organizationId, query.orderId);
  if (query.cursor !== undefined) {
    const cursorRow = await db
      .selectFrom('label_purchases')
      .select('id')
      .where('organization_id', '=', ctx.organizationId)
      .where('sales_record_id', '=', salesRecordId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursorRow)
      throw AppError.validation([
        { path: 'cursor', message: 'does not name a label purchase of this order' },
      ]);
  }
  const rows = await db
    .selectFrom('label_purchases')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .$if(query.cursor !== undefined, (qb) =>
      qb.where((eb) => keysetAfter(eb, [{ column: 'id', direction: 'asc', value: query.cursor! }])),
    )
    .orderBy('id')
    .limit(query.limit + 1)
    .execute();
  const shown = rows.slice(0, query.limit);
  return {
    data: shown.map((row) => toLabelPurchaseRead(row, ctx.now, ctx.carrierTimeoutMs)),
    nextCursor: rows.length > query.limit ? shown[shown.length - 1]!.id : null,
  };
}

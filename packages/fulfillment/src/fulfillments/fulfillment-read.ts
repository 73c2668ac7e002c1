import { AppError, keysetAfter, type Page } from '@commerce/core';
import type {
  Database,
  Fulfillment,
  FulfillmentLine,
  FulfillmentPostage,
  ShipmentCancellation,
} from '@commerce/db';
import { resolveRecordId } from '@commerce/orders';
import type { Kysely } from 'kysely';
import { packageOf } from './fulfillment-package.ts';
import type {
  FulfillmentListQuery,
  FulfillmentRead,
  ShipmentCancellationRead,
  VoidEvidence,
} from './schemas.ts';

const iso = (value: Date | null) => (value === null ? null : new Date(value).toISOString());

function toPostageRead(row: FulfillmentPostage): NonNullable<FulfillmentRead['postage']> {
  return {
    id: row.id,
    source: row.source,
    status: row.status,
    carrier: row.carrier,
    service: row.service,
    trackingNumber: row.tracking_number,
    trackingUrl: row.tracking_url,
    chargeInCents: row.charge_in_cents === null ? null : Number(row.charge_in_cents),
    currency: row.currency,
    purchaseId: row.purchase_id,
    labelAvailable: row.label_available,
    purchasedAt: iso(row.purchased_at),
    retiredAt: iso(row.retired_at),
    retirementEvidence: row.retirement_evidence,
  };
}

export interface EffectiveTracking {
  carrier: string | null;
  trackingNumber: string | null;
  trackingUrl: string | null;
}

/**
 * A fulfillment's tracking: its own columns when they hold a carrier and
 * number (a direct body) or were repaired (cleared ones included),
 * else its current postage's, else none.
 */
export function trackingOf(
  row: Pick<Fulfillment, 'tracking_carrier' | 'tracking_number' | 'tracking_url' | 'tracking_repaired_at'>,
  current: Pick<FulfillmentPostage, 'carrier' | 'tracking_number' | 'tracking_url'> | null | undefined,
): EffectiveTracking {
  if (row.tracking_repaired_at !== null || (row.tracking_carrier !== null && row.tracking_number !== null))
    return {
      carrier: row.tracking_carrier,
      trackingNumber: row.tracking_number,
      trackingUrl: row.tracking_url,
    };
  if (current)
    return {
      carrier: current.carrier,
      trackingNumber: current.tracking_number,
      trackingUrl: current.tracking_url,
    };
  return { carrier: null, trackingNumber: null, trackingUrl: null };
}

const isCurrent = (postage: FulfillmentPostage) =>
  postage.status === 'ACTIVE' || postage.status === 'VOID_PENDING';

export function toCancellationRead(row: ShipmentCancellation): ShipmentCancellationRead {
  return {
    id: row.id,
    status: row.status,
    reason: row.reason,
    requestedBy: row.requested_by,
    requestedAt: new Date(row.requested_at).toISOString(),
    voidRequestedAt: iso(row.void_requested_at),
    voidRequestCount: row.void_request_count,
    pollAttempts: row.poll_attempts,
    evidence: row.evidence as VoidEvidence | null,
    checks: row.checks as ShipmentCancellationRead['checks'],
    closedAt: iso(row.closed_at),
  };
}

export function toFulfillmentRead(
  row: Fulfillment,
  lines: readonly FulfillmentLine[],
  postages: readonly FulfillmentPostage[],
  latestCancellation: ShipmentCancellation | null = null,
): FulfillmentRead {
  const current = postages.find(isCurrent) ?? null;
  const effective = trackingOf(row, current);
  const tracking =
    effective.carrier !== null && effective.trackingNumber !== null
      ? {
          carrier: effective.carrier,
          trackingNumber: effective.trackingNumber,
          trackingUrl: effective.trackingUrl,
        }
      : null;
  return {
    id: row.id,
    recordId: row.sales_record_id,
    orderId: row.order_id,
    status: row.status,
    origin: row.origin,
    lines: lines.map((line) => ({
      lineId: line.line_id,
      itemId: line.item_id,
      variantId: line.variant_id,
      sku: line.sku,
      name: line.name,
      quantity: line.quantity,
    })),
    tracking,
    package: packageOf(row),
    postage: current ? toPostageRead(current) : null,
    retiredPostage: postages.filter((postage) => !isCurrent(postage)).map(toPostageRead),
    cancellation: latestCancellation ? toCancellationRead(latestCancellation) : null,
    notification:
      row.shipped_at === null
        ? null
        : {
            decision: row.notification_decision,
            decidedAt: iso(row.notification_decided_at),
            decidedBy: row.notification_decided_by,
            emailQueued: row.notification_email_queued,
          },
    note: row.note,
    inventoryConsumedAt: iso(row.inventory_consumed_at),
    shippedAt: iso(row.shipped_at),
    deliveredAt: iso(row.delivered_at),
    cancelledAt: iso(row.cancelled_at),
    cancelReason: row.cancel_reason,
    createdBy: row.created_by,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    version: row.version,
  };
}

/** Several fulfillments read in four queries (rows, lines, postages, cancellations), in the order of `rows`. */
export async function readFulfillmentRows(
  db: Kysely<Database>,
  organizationId: string,
  rows: readonly Fulfillment[],
): Promise<FulfillmentRead[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [lines, postages, cancellations] = await Promise.all([
    db
      .selectFrom('fulfillment_lines')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('fulfillment_id', 'in', ids)
      .orderBy('fulfillment_id')
      .orderBy('position')
      .execute(),
    db
      .selectFrom('fulfillment_postages')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('fulfillment_id', 'in', ids)
      .orderBy('fulfillment_id')
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
    // The latest cancellation of each (index shipment_cancellations_fulfillment).
    db
      .selectFrom('shipment_cancellations')
      .selectAll()
      .distinctOn('fulfillment_id')
      .where('organization_id', '=', organizationId)
      .where('fulfillment_id', 'in', ids)
      .orderBy('fulfillment_id')
      .orderBy('requested_at', 'desc')
      .orderBy('id', 'desc')
      .execute(),
  ]);
  const latest = new Map(cancellations.map((row) => [row.fulfillment_id, row]));
  return rows.map((row) =>
    toFulfillmentRead(
      row,
      lines.filter((line) => line.fulfillment_id === row.id),
      postages.filter((postage) => postage.fulfillment_id === row.id),
      latest.get(row.id) ?? null,
    ),
  );
}

/** One fulfillment of the record, locked when asked; of another record, foreign or unknown: the neutral 404. */
export async function findFulfillment(
  db: Kysely<Database>,
  organizationId: string,
  salesRecordId: string,
  fulfillmentId: string,
  lock?: 'update',
): Promise<Fulfillment> {
  const row = await db
    .selectFrom('fulfillments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .where('id', '=', fulfillmentId)
    .$if(lock === 'update', (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw AppError.notFound('Fulfillment not found');
  return row;
}

export async function readFulfillment(
  db: Kysely<Database>,
  organizationId: string,
  salesRecordId: string,
  fulfillmentId: string,
): Promise<FulfillmentRead> {
  const row = await findFulfillment(db, organizationId, salesRecordId, fulfillmentId);
  return (await readFulfillmentRows(db, organizationId, [row]))[0]!;
}

/** `GET …/fulfillments/{fulfillmentId}`: either id of the record pair. */
export async function getFulfillment(
  db: Kysely<Database>,
  organizationId: string,
  input: { recordId: string; fulfillmentId: string },
): Promise<FulfillmentRead> {
  const salesRecordId = await resolveRecordId(db, organizationId, input.recordId);
  return readFulfillment(db, organizationId, salesRecordId, input.fulfillmentId);
}

/**
 * `GET …/fulfillments`: the record's fulfillments oldest first (createdAt,
 * then id: the index `fulfillments_record_idx`), keyset-paginated; a cursor
 * naming no fulfillment of the record is 400.
 */
export async function listFulfillments(
  db: Kysely<Database>,
  organizationId: string,
  query: FulfillmentListQuery,
): Promise<Page<FulfillmentRead>> {
  const salesRecordId = await resolveRecordId(db, organizationId, query.recordId);
  let cursorRow: { created_at: Date; id: string } | undefined;
  if (query.cursor !== undefined) {
    cursorRow = await db
      .selectFrom('fulfillments')
      .select(['created_at', 'id'])
      .where('organization_id', '=', organizationId)
      .where('sales_record_id', '=', salesRecordId)
      .where('id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursorRow)
      throw AppError.validation([{ path: 'cursor', message: 'does not name a fulfillment of this order' }]);
  }
  const rows = await db
    .selectFrom('fulfillments')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('sales_record_id', '=', salesRecordId)
    .$if(cursorRow !== undefined, (qb) =>
      qb.where((eb) =>
        keysetAfter(eb, [
          { column: 'created_at', direction: 'asc', value: cursorRow!.created_at },
          { column: 'id', direction: 'asc', value: cursorRow!.id },
        ]),
      ),
    )
    .orderBy('created_at')
    .orderBy('id')
    .limit(query.limit + 1)
    .execute();
  const shown = rows.slice(0, query.limit);
  return {
    data: await readFulfillmentRows(db, organizationId, shown),
    nextCursor: rows.length > query.limit ? shown[shown.length - 1]!.id : null,
  };
}

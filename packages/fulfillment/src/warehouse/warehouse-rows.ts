import type { Database, ShippingAddressSnapshot } from '@commerce/db';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { packageOf } from '../fulfillments/fulfillment-package.ts';
import { shipToOf } from '../shipping-label/label-addresses.ts';
import type {
  LabelEligibility,
  LabelEligibilityReason,
  WarehouseOutput,
  WarehouseStatus,
} from './schemas.ts';

/**
 * One fulfillment as the warehouse outputs read it: the fulfillment, its
 * record and legacy order, its current postage (at most one: the unique
 * partial index `fulfillment_postages_current_idx`), whether that postage's
 * label is stored, and whether a label purchase for it is unsettled.
 */
export interface WarehouseRow {
  id: string;
  salesRecordId: string;
  orderId: string | null;
  status: 'PLANNED' | 'READY' | 'SHIPPED' | 'DELIVERED' | 'CANCELLED';
  createdAt: Date;
  package: WarehouseOutput['package'];
  orderNumber: number | null;
  orderReference: string | null;
  orderDate: Date;
  customerName: string;
  shipTo: ShippingAddressSnapshot | null;
  postage: {
    source: 'NATIVE' | 'EXTERNAL' | 'LEGACY';
    status: 'ACTIVE' | 'VOID_PENDING';
    carrier: string;
    service: string | null;
    trackingNumber: string;
    purchaseId: string | null;
  } | null;
  /** The stored label document's size, when the current postage has one. */
  labelBytes: number | null;
  hasUnsettledPurchase: boolean;
  /** A shipment cancellation is open, `PENDING` or `EXHAUSTED`: the label may be voided. */
  hasOpenCancellation: boolean;
  lines: WarehouseLine[];
}

export interface WarehouseLine {
  lineId: string;
  sku: string | null;
  name: string;
  variantName: string | null;
  quantity: number;
}

type Narrow = (
  query: SelectQueryBuilder<Database, 'fulfillments', object>,
) => SelectQueryBuilder<Database, 'fulfillments', object>;

/**
 * The warehouse rows of the organization that `narrow` selects (ids, or a
 * page: its filter, order and limit), in two queries whatever their number:
 * the rows with everything but their lines, then every line of those rows.
 * Label bytes are never read here.
 */
export async function readWarehouseRows(
  db: Kysely<Database>,
  organizationId: string,
  narrow: Narrow,
): Promise<WarehouseRow[]> {
  const base = narrow(
    db.selectFrom('fulfillments').where('fulfillments.organization_id', '=', organizationId),
  );
  const rows = await base
    .innerJoin('sales_records', (join) =>
      join
        .onRef('sales_records.organization_id', '=', 'fulfillments.organization_id')
        .onRef('sales_records.id', '=', 'fulfillments.sales_record_id'),
    )
    .leftJoin('orders', (join) =>
      join
        .onRef('orders.organization_id', '=', 'fulfillments.organization_id')
        .onRef('orders.id', '=', 'fulfillments.order_id'),
    )
    .leftJoin('fulfillment_postages', (join) =>
      join
        .onRef('fulfillment_postages.organization_id', '=', 'fulfillments.organization_id')
        .onRef('fulfillment_postages.fulfillment_id', '=', 'fulfillments.id')
        .on('fulfillment_postages.status', 'in', ['ACTIVE', 'VOID_PENDING']),
    )
    .leftJoin('label_artifacts', (join) =>
      join
        .onRef('label_artifacts.organization_id', '=', 'fulfillments.organization_id')
        .onRef('label_artifacts.purchase_id', '=', 'fulfillment_postages.purchase_id'),
    )
    .select((eb) => [
      'fulfillments.id',
      'fulfillments.sales_record_id',
      'fulfillments.order_id',
      'fulfillments.status',
      'fulfillments.created_at',
      'fulfillments.package_box_preset_id',
      'fulfillments.package_box_preset_revision',
      'fulfillments.package_length_mm',
      'fulfillments.package_width_mm',
      'fulfillments.package_height_mm',
      'fulfillments.package_loaded_weight_grams',
      'sales_records.created_at as record_created_at',
      'sales_records.customer_name',
      'sales_records.shipping_address',
      'orders.order_number',
      'orders.order_reference',
      'fulfillment_postages.source as postage_source',
      'fulfillment_postages.status as postage_status',
      'fulfillment_postages.carrier as postage_carrier',
      'fulfillment_postages.service as postage_service',
      'fulfillment_postages.tracking_number as postage_tracking_number',
      'fulfillment_postages.purchase_id as postage_purchase_id',
      'label_artifacts.byte_size as label_bytes',
      // Served by `label_purchases_open` (the record's open purchases).
      eb
        .exists(
          eb
            .selectFrom('label_purchases')
            .select(sql<number>`1`.as('one'))
            .whereRef('label_purchases.organization_id', '=', 'fulfillments.organization_id')
            .whereRef('label_purchases.sales_record_id', '=', 'fulfillments.sales_record_id')
            .whereRef('label_purchases.fulfillment_id', '=', 'fulfillments.id')
            .where('label_purchases.status', 'in', ['PENDING', 'UNCERTAIN']),
        )
        .as('has_unsettled_purchase'),
      // Served by `shipment_cancellations_open` (at most one open per fulfillment).
      eb
        .exists(
          eb
            .selectFrom('shipment_cancellations')
            .select(sql<number>`1`.as('one'))
            .whereRef('shipment_cancellations.organization_id', '=', 'fulfillments.organization_id')
            .whereRef('shipment_cancellations.fulfillment_id', '=', 'fulfillments.id')
            .where('shipment_cancellations.status', 'in', ['PENDING', 'EXHAUSTED']),
        )
        .as('has_open_cancellation'),
    ])
    .execute();
  if (rows.length === 0) return [];

  const lines = await db
    .selectFrom('fulfillment_lines')
    .leftJoin('variants', (join) =>
      join
        .onRef('variants.organization_id', '=', 'fulfillment_lines.organization_id')
        .onRef('variants.id', '=', 'fulfillment_lines.variant_id'),
    )
    .select([
      'fulfillment_lines.fulfillment_id',
      'fulfillment_lines.line_id',
      'fulfillment_lines.sku',
      'fulfillment_lines.name',
      'fulfillment_lines.quantity',
      'variants.name as variant_name',
    ])
    .where('fulfillment_lines.organization_id', '=', organizationId)
    .where(
      'fulfillment_lines.fulfillment_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('fulfillment_lines.fulfillment_id')
    .orderBy('fulfillment_lines.position')
    .execute();
  const linesOf = new Map<string, WarehouseLine[]>();
  for (const line of lines) {
    const list = linesOf.get(line.fulfillment_id) ?? [];
    list.push({
      lineId: line.line_id,
      sku: line.sku,
      name: line.name,
      variantName: line.variant_name,
      quantity: line.quantity,
    });
    linesOf.set(line.fulfillment_id, list);
  }

  return rows.map((row) => ({
    id: row.id,
    salesRecordId: row.sales_record_id,
    orderId: row.order_id,
    status: row.status,
    createdAt: new Date(row.created_at),
    package: packageOf({
      package_box_preset_id: row.package_box_preset_id,
      package_box_preset_revision: row.package_box_preset_revision,
      package_length_mm: row.package_length_mm,
      package_width_mm: row.package_width_mm,
      package_height_mm: row.package_height_mm,
      package_loaded_weight_grams: row.package_loaded_weight_grams,
    }),
    orderNumber: row.order_number,
    orderReference: row.order_reference,
    orderDate: new Date(row.record_created_at),
    customerName: row.customer_name,
    shipTo: row.shipping_address,
    postage:
      row.postage_source === null
        ? null
        : {
            source: row.postage_source,
            status: row.postage_status as 'ACTIVE' | 'VOID_PENDING',
            carrier: row.postage_carrier!,
            service: row.postage_service,
            trackingNumber: row.postage_tracking_number!,
            purchaseId: row.postage_purchase_id,
          },
    labelBytes: row.label_bytes,
    hasUnsettledPurchase: Boolean(row.has_unsettled_purchase),
    hasOpenCancellation: Boolean(row.has_open_cancellation),
    lines: linesOf.get(row.id) ?? [],
  }));
}

/** Whether the labels batch can take the row, and else what stands in the way. */
export function labelEligibilityOf(row: WarehouseRow): LabelEligibility {
  const refused = (reason: LabelEligibilityReason, canPurchase = false): LabelEligibility => ({
    canPrint: false,
    canPurchase,
    reason,
  });
  const { postage } = row;
  if (postage !== null) {
    // Postage being voided, or a cancellation still open (pending, or exhausted without evidence).
    if (postage.status === 'VOID_PENDING' || row.hasOpenCancellation) return refused('VOID_PENDING');
    if (postage.source === 'EXTERNAL') return refused('EXTERNAL_POSTAGE');
    // Legacy postage has no label the current provider can address: nothing here to print.
    if (postage.source === 'LEGACY' || row.labelBytes === null) return refused('LABEL_MISSING');
    if (row.status === 'READY') return { canPrint: true, canPurchase: false, reason: null };
    return refused('LABEL_MISSING');
  }
  // No current postage: a plan, or a READY fulfillment whose postage was voided or retired.
  if (row.hasUnsettledPurchase) return refused('PURCHASE_UNSETTLED');
  if (shipToOf(row.shipTo) === null) return refused('SHIP_TO_ADDRESS_MISSING');
  return refused(row.status === 'PLANNED' ? 'NO_POSTAGE' : 'POSTAGE_RETIRED', true);
}

export function toWarehouseOutput(row: WarehouseRow): WarehouseOutput {
  return {
    fulfillmentId: row.id,
    recordId: row.salesRecordId,
    orderId: row.orderId,
    orderNumber: row.orderNumber,
    orderReference: row.orderReference,
    status: row.status as WarehouseStatus,
    createdAt: row.createdAt.toISOString(),
    package: row.package,
    postage:
      row.postage === null
        ? null
        : {
            source: row.postage.source,
            status: row.postage.status,
            carrier: row.postage.carrier,
            service: row.postage.service,
            trackingNumber: row.postage.trackingNumber,
          },
    packingSlip: {
      orderNumber: row.orderNumber,
      orderDate: row.orderDate.toISOString(),
      customerName: row.customerName,
      shipTo: row.shipTo,
      lines: row.lines,
    },
    labelEligibility: labelEligibilityOf(row),
  };
}

export const isWarehouseStatus = (status: WarehouseRow['status']): status is WarehouseStatus =>
  status === 'PLANNED' || status === 'READY';

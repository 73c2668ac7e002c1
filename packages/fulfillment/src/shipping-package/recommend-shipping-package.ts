import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import {
  type CandidatePreset,
  type PackLine,
  recommendPackage,
  type UnitDimensions,
} from './recommend-package.ts';
import type { RecommendShippingPackageInput, ShippingPackageRecommendationRead } from './schemas.ts';

const orderNotFound = () => AppError.notFound('Order not found');

/**
 * The order's lines, each with its item's and variant's shipping dimensions,
 * in one query; the order is named by its id (`ord_…`) or its sales record's
 * (`sal_…`). Another prefix, an unknown or another tenant's id is the neutral
 * 404. An order always has lines; a row with no line id only says it exists.
 */
async function orderLinesWithDimensions(db: Kysely<Database>, organizationId: string, id: string) {
  const column = id.startsWith('ord_') ? 'o.id' : id.startsWith('sal_') ? 'o.sales_record_id' : null;
  if (column === null) throw orderNotFound();
  const rows = await db
    .selectFrom('orders as o')
    .leftJoin('sales_record_lines as l', (join) =>
      join
        .onRef('l.organization_id', '=', 'o.organization_id')
        .onRef('l.sales_record_id', '=', 'o.sales_record_id'),
    )
    .leftJoin('items as i', (join) =>
      join.onRef('i.organization_id', '=', 'l.organization_id').onRef('i.id', '=', 'l.item_id'),
    )
    .leftJoin('variants as v', (join) =>
      join
        .onRef('v.organization_id', '=', 'l.organization_id')
        .onRef('v.id', '=', 'l.variant_id')
        .onRef('v.item_id', '=', 'l.item_id'),
    )
    .select([
      'l.id as line_id',
      'l.type',
      'l.item_id',
      'l.variant_id',
      'l.quantity',
      'l.shipped_quantity',
      'l.allocated_quantity',
      'i.id as found_item_id',
      'i.shipping_weight_grams as item_weight',
      'i.shipping_length_mm as item_length',
      'i.shipping_width_mm as item_width',
      'i.shipping_height_mm as item_height',
      'v.id as found_variant_id',
      'v.shipping_weight_grams as variant_weight',
      'v.shipping_length_mm as variant_length',
      'v.shipping_width_mm as variant_width',
      'v.shipping_height_mm as variant_height',
    ])
    .where('o.organization_id', '=', organizationId)
    .where(column, '=', id)
    .orderBy('l.position')
    .execute();
  if (rows.length === 0) throw orderNotFound();
  return rows.filter((row) => row.line_id !== null);
}

const dimensions = (
  found: string | null,
  weight: number | null,
  length: number | null,
  width: number | null,
  height: number | null,
): UnitDimensions | null =>
  found === null
    ? null
    : {
        shippingWeightGrams: weight,
        shippingLengthMm: length,
        shippingWidthMm: width,
        shippingHeightMm: height,
      };

/**
 * `POST /merchant/orders/:id/shipping-package/recommendation`: reads the
 * order's lines with their dimensions and the tenant's active presets (two
 * queries), then runs the pure `recommendPackage`. Writes nothing. Without
 * `lines`, every PRODUCT line at its available quantity (ordered, less
 * shipped and allocated units; lines with none left are skipped). A selected
 * line that is not a PRODUCT line of the order, or a quantity above the
 * available one, is `400` naming `lines.N.lineId` or `lines.N.quantity`.
 */
export async function recommendShippingPackage(
  db: Kysely<Database>,
  organizationId: string,
  input: RecommendShippingPackageInput,
): Promise<ShippingPackageRecommendationRead> {
  const { rows, presets } = await recommendationInputs(db, organizationId, input.id);
  const productLines = productLinesOf(rows);
  const available = (row: OrderLineWithDimensions) =>
    row.quantity! - (row.shipped_quantity ?? 0) - (row.allocated_quantity ?? 0);

  let selection: { lineId: string; quantity: number }[];
  if (input.lines === undefined) {
    selection = [...productLines.values()]
      .map((row) => ({ lineId: row.line_id!, quantity: available(row) }))
      .filter((line) => line.quantity > 0);
  } else {
    const issues = input.lines.flatMap((line, index) => {
      const row = productLines.get(line.lineId);
      if (!row) return [{ path: `lines.${index}.lineId`, message: 'is not a PRODUCT line of the order' }];
      if (line.quantity > available(row)) {
        return [{ path: `lines.${index}.quantity`, message: `is more than the ${available(row)} available` }];
      }
      return [];
    });
    if (issues.length > 0) throw AppError.validation(issues);
    selection = input.lines;
  }
  return recommendFrom(productLines, presets, selection);
}

/**
 * The proven fit for lines a caller has checked already (PRODUCT lines of the
 * order, quantities it vouches for): the quote rates a package against it,
 * whatever the lines' availability (a planned fulfillment's units are
 * allocated to it). Reads and writes like `recommendShippingPackage`.
 */
export async function recommendPackageForLines(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  selection: readonly { lineId: string; quantity: number }[],
): Promise<ShippingPackageRecommendationRead> {
  const { rows, presets } = await recommendationInputs(db, organizationId, id);
  return recommendFrom(productLinesOf(rows), presets, selection);
}

type OrderLineWithDimensions = Awaited<ReturnType<typeof orderLinesWithDimensions>>[number];
type PresetRow = Awaited<ReturnType<typeof recommendationInputs>>['presets'][number];

async function recommendationInputs(db: Kysely<Database>, organizationId: string, id: string) {
  const [rows, presets] = await Promise.all([
    orderLinesWithDimensions(db, organizationId, id),
    db
      .selectFrom('box_presets')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('archived_at', 'is', null)
      .execute(),
  ]);
  return { rows, presets };
}

const productLinesOf = (rows: OrderLineWithDimensions[]) =>
  new Map(rows.filter((row) => row.type === 'PRODUCT').map((row) => [row.line_id!, row] as const));

function recommendFrom(
  productLines: Map<string, OrderLineWithDimensions>,
  presets: PresetRow[],
  selection: readonly { lineId: string; quantity: number }[],
): ShippingPackageRecommendationRead {
  const packLines: PackLine[] = selection.map(({ lineId, quantity }) => {
    const row = productLines.get(lineId)!;
    return {
      lineId,
      itemId: row.item_id,
      variantId: row.variant_id,
      quantity,
      item: dimensions(row.found_item_id, row.item_weight, row.item_length, row.item_width, row.item_height),
      variant: dimensions(
        row.found_variant_id,
        row.variant_weight,
        row.variant_length,
        row.variant_width,
        row.variant_height,
      ),
    };
  });
  const candidates: CandidatePreset[] = presets.map((preset) => ({
    id: preset.id,
    revision: preset.revision,
    name: preset.name,
    inner: {
      lengthMm: preset.inner_length_mm,
      widthMm: preset.inner_width_mm,
      heightMm: preset.inner_height_mm,
    },
    outer: {
      lengthMm: preset.outer_length_mm ?? preset.inner_length_mm,
      widthMm: preset.outer_width_mm ?? preset.inner_width_mm,
      heightMm: preset.outer_height_mm ?? preset.inner_height_mm,
    },
    tareWeightGrams: preset.tare_weight_grams,
    maxLoadGrams: preset.max_load_grams,
    sortOrder: preset.sort_order,
  }));
  return recommendPackage(packLines, candidates);
}

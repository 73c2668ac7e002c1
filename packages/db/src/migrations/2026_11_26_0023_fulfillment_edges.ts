import { type Kysely, sql } from 'kysely';

/**
 * Fulfillment edges (docs/fulfillment.md "Ship-to address", "Plan packages", "Tracking repair"):
 *
 * - `shipping_address` on the sales record (the ship-to snapshot labels use)
 *   and on its legacy order (the projection merchant order reads show),
 *   written together by the shipping-address route.
 * - A planned fulfillment's package: the outer dimensions and loaded weight,
 *   and the box preset and revision they came from (null for custom ones).
 *   All four measures or none; a preset id only with its revision.
 * - `tracking_repaired_at`: set by tracking repair, from when the
 *   fulfillment's own tracking columns are its tracking, even when cleared.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('sales_records').addColumn('shipping_address', 'jsonb').execute();
  await db.schema.alterTable('orders').addColumn('shipping_address', 'jsonb').execute();
  const millimetres = (column: string) => sql.raw(`${column} between 1 and 3000`);
  await db.schema
    .alterTable('fulfillments')
    .addColumn('package_box_preset_id', 'text')
    .addColumn('package_box_preset_revision', 'integer')
    .addColumn('package_length_mm', 'integer', (col) => col.check(millimetres('package_length_mm')))
    .addColumn('package_width_mm', 'integer', (col) => col.check(millimetres('package_width_mm')))
    .addColumn('package_height_mm', 'integer', (col) => col.check(millimetres('package_height_mm')))
    .addColumn('package_loaded_weight_grams', 'integer', (col) =>
      col.check(sql`package_loaded_weight_grams between 1 and 150000`),
    )
    .addColumn('tracking_repaired_at', 'timestamptz')
    .execute();
  await sql`alter table fulfillments add constraint fulfillments_package_complete check (
    (package_length_mm is null) = (package_width_mm is null)
    and (package_length_mm is null) = (package_height_mm is null)
    and (package_length_mm is null) = (package_loaded_weight_grams is null)
    and (package_box_preset_id is null) = (package_box_preset_revision is null)
    and (package_box_preset_id is null or package_length_mm is not null)
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table fulfillments drop constraint fulfillments_package_complete`.execute(db);
  await db.schema
    .alterTable('fulfillments')
    .dropColumn('package_box_preset_id')
    .dropColumn('package_box_preset_revision')
    .dropColumn('package_length_mm')
    .dropColumn('package_width_mm')
    .dropColumn('package_height_mm')
    .dropColumn('package_loaded_weight_grams')
    .dropColumn('tracking_repaired_at')
    .execute();
  await db.schema.alterTable('orders').dropColumn('shipping_address').execute();
  await db.schema.alterTable('sales_records').dropColumn('shipping_address').execute();
}

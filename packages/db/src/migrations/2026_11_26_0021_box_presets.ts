import { type Kysely, sql } from 'kysely';

/**
 * Box presets and catalog shipping dimensions (docs/fulfillment.md "Box presets").
 * The ranges are CHECK constraints, so no writer can store a box the
 * recommendation cannot reason about. An outer dimension left null follows
 * the inner one (reads show the inner value), so it keeps following it when
 * the inner one changes; a set one is at least the inner one. A name is unique
 * among the tenant's non-archived presets (case-insensitive, the partial
 * unique index). The list order (sortOrder, name, id) has its index, and a
 * partial one for the non-archived list. Items and variants gain four nullable
 * dimension columns, each at least 1 when set.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const millimetres = (column: string) => sql.raw(`${column} between 1 and 3000`);
  await db.schema
    .createTable('box_presets')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('inner_length_mm', 'integer', (col) => col.notNull().check(millimetres('inner_length_mm')))
    .addColumn('inner_width_mm', 'integer', (col) => col.notNull().check(millimetres('inner_width_mm')))
    .addColumn('inner_height_mm', 'integer', (col) => col.notNull().check(millimetres('inner_height_mm')))
    .addColumn('outer_length_mm', 'integer', (col) => col.check(millimetres('outer_length_mm')))
    .addColumn('outer_width_mm', 'integer', (col) => col.check(millimetres('outer_width_mm')))
    .addColumn('outer_height_mm', 'integer', (col) => col.check(millimetres('outer_height_mm')))
    .addColumn('tare_weight_grams', 'integer', (col) =>
      col.notNull().check(sql`tare_weight_grams between 0 and 50000`),
    )
    .addColumn('max_load_grams', 'integer', (col) => col.check(sql`max_load_grams between 1 and 150000`))
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('revision', 'integer', (col) => col.notNull().defaultTo(1).check(sql`revision >= 1`))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('box_presets_pkey', ['organization_id', 'id'])
    .addCheckConstraint(
      'box_presets_outer_covers_inner',
      sql`outer_length_mm >= inner_length_mm and outer_width_mm >= inner_width_mm and outer_height_mm >= inner_height_mm`,
    )
    .execute();
  await sql`create unique index box_presets_active_name_key on box_presets (organization_id, lower(name)) where archived_at is null`.execute(
    db,
  );
  await sql`create index box_presets_order_idx on box_presets (organization_id, sort_order, name, id)`.execute(
    db,
  );
  // The default list (non-archived only) and the recommendation's candidates, however many are archived.
  await sql`create index box_presets_active_order_idx on box_presets (organization_id, sort_order, name, id) where archived_at is null`.execute(
    db,
  );

  for (const table of ['items', 'variants']) {
    for (const column of [
      'shipping_weight_grams',
      'shipping_length_mm',
      'shipping_width_mm',
      'shipping_height_mm',
    ]) {
      await db.schema
        .alterTable(table)
        .addColumn(column, 'integer', (col) => col.check(sql.raw(`${column} >= 1`)))
        .execute();
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['items', 'variants']) {
    await db.schema
      .alterTable(table)
      .dropColumn('shipping_weight_grams')
      .dropColumn('shipping_length_mm')
      .dropColumn('shipping_width_mm')
      .dropColumn('shipping_height_mm')
      .execute();
  }
  await db.schema.dropTable('box_presets').execute();
}

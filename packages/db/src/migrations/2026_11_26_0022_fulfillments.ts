import { type Kysely, sql } from 'kysely';

/**
 * Fulfillment records (docs/fulfillment.md "Fulfillment records"):
 *
 * - Each sales record line counts its `shipped_quantity` and
 *   `allocated_quantity`; one CHECK keeps them non-negative and within the
 *   line's quantity, so no interleaving of writes can over-fulfil a line.
 * - `fulfillment_status` joins the sales record (the legacy order has had it
 *   since 0005): both are rewritten in the transaction of every counter change.
 * - `fulfillments` and their fixed `fulfillment_lines`; `fulfillment_postages`
 *   holds every postage a fulfillment had (external now; native and legacy
 *   labels come with the carrier work), at most one current per fulfillment.
 * - `inventory_movements`: one CONSUME row per fulfillment and line, unique,
 *   so inventory is consumed exactly once whatever the retries.
 * - `inventory_reservations.fulfilled_quantity`: how much of a checkout
 *   reservation (stock already taken off at checkout) shipments have drawn.
 * - `outbox.dedupe_key`: unique per tenant where set (`ORDER_SHIPPED:<ful_…>`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('sales_records')
    .addColumn('fulfillment_status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('UNFULFILLED')
        .check(sql`fulfillment_status in ('UNFULFILLED', 'PARTIALLY_FULFILLED', 'FULFILLED')`),
    )
    .execute();
  await db.schema
    .alterTable('sales_record_lines')
    .addColumn('shipped_quantity', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('allocated_quantity', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`alter table sales_record_lines add constraint sales_record_lines_fulfillment_counters check (shipped_quantity >= 0 and allocated_quantity >= 0 and shipped_quantity + allocated_quantity <= quantity)`.execute(
    db,
  );

  await db.schema
    .createTable('fulfillments')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('sales_record_id', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('PLANNED', 'READY', 'SHIPPED', 'DELIVERED', 'CANCELLED')`),
    )
    .addColumn('origin', 'text', (col) =>
      col.notNull().check(sql`origin in ('DIRECT', 'PLANNED', 'NATIVE_LABEL', 'LEGACY')`),
    )
    .addColumn('tracking_carrier', 'text')
    .addColumn('tracking_number', 'text')
    .addColumn('tracking_url', 'text')
    .addColumn('note', 'text')
    .addColumn('notification_decision', 'text', (col) =>
      col.check(sql`notification_decision in ('SEND', 'SUPPRESS')`),
    )
    .addColumn('notification_decided_at', 'timestamptz')
    .addColumn('notification_decided_by', 'text')
    .addColumn('notification_email_queued', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('inventory_consumed_at', 'timestamptz')
    .addColumn('shipped_at', 'timestamptz')
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('cancelled_at', 'timestamptz')
    .addColumn('cancel_reason', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull().defaultTo(1))
    .addPrimaryKeyConstraint('fulfillments_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'fulfillments_sales_record_fkey',
      ['organization_id', 'sales_record_id'],
      'sales_records',
      ['organization_id', 'id'],
    )
    .addForeignKeyConstraint('fulfillments_order_fkey', ['organization_id', 'order_id'], 'orders', [
      'organization_id',
      'id',
    ])
    .execute();
  // The record's fulfillments, oldest first (the list and every read of a record's shipments).
  await sql`create index fulfillments_record_idx on fulfillments (organization_id, sales_record_id, created_at, id)`.execute(
    db,
  );

  await db.schema
    .createTable('fulfillment_lines')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('fulfillment_id', 'text', (col) => col.notNull())
    .addColumn('line_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('item_id', 'text')
    .addColumn('variant_id', 'text')
    .addColumn('sku', 'text')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity > 0`))
    .addPrimaryKeyConstraint('fulfillment_lines_pkey', ['organization_id', 'fulfillment_id', 'line_id'])
    .addForeignKeyConstraint(
      'fulfillment_lines_fulfillment_fkey',
      ['organization_id', 'fulfillment_id'],
      'fulfillments',
      ['organization_id', 'id'],
    )
    .addForeignKeyConstraint(
      'fulfillment_lines_line_fkey',
      ['organization_id', 'line_id'],
      'sales_record_lines',
      ['organization_id', 'id'],
    )
    .execute();

  await db.schema
    .createTable('fulfillment_postages')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('fulfillment_id', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) =>
      col.notNull().check(sql`source in ('NATIVE', 'EXTERNAL', 'LEGACY')`),
    )
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('ACTIVE', 'VOID_PENDING', 'VOIDED', 'RETIRED')`),
    )
    .addColumn('carrier', 'text', (col) => col.notNull())
    .addColumn('service', 'text')
    .addColumn('tracking_number', 'text', (col) => col.notNull())
    .addColumn('tracking_url', 'text')
    .addColumn('charge_in_cents', 'bigint')
    .addColumn('currency', 'text')
    .addColumn('purchase_id', 'text')
    .addColumn('label_available', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('purchased_at', 'timestamptz')
    .addColumn('retired_at', 'timestamptz')
    .addColumn('retirement_evidence', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('fulfillment_postages_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'fulfillment_postages_fulfillment_fkey',
      ['organization_id', 'fulfillment_id'],
      'fulfillments',
      ['organization_id', 'id'],
    )
    .execute();
  // A fulfillment's postages, newest first; at most one current (ACTIVE or VOID_PENDING).
  await sql`create index fulfillment_postages_fulfillment_idx on fulfillment_postages (organization_id, fulfillment_id, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create unique index fulfillment_postages_current_idx on fulfillment_postages (organization_id, fulfillment_id) where status in ('ACTIVE', 'VOID_PENDING')`.execute(
    db,
  );

  await db.schema
    .createTable('inventory_movements')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('CONSUME')`))
    .addColumn('fulfillment_id', 'text', (col) => col.notNull())
    .addColumn('line_id', 'text', (col) => col.notNull())
    .addColumn('variant_id', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity > 0`))
    .addColumn('shortfall_quantity', 'integer', (col) =>
      col.notNull().defaultTo(0).check(sql`shortfall_quantity >= 0`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('inventory_movements_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('inventory_movements_once', ['organization_id', 'fulfillment_id', 'line_id', 'kind'])
    .addForeignKeyConstraint(
      'inventory_movements_fulfillment_fkey',
      ['organization_id', 'fulfillment_id'],
      'fulfillments',
      ['organization_id', 'id'],
    )
    .execute();
  // A variant's movements (stock history).
  await sql`create index inventory_movements_variant_idx on inventory_movements (organization_id, variant_id, created_at)`.execute(
    db,
  );

  await db.schema
    .alterTable('inventory_reservations')
    .addColumn('fulfilled_quantity', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`alter table inventory_reservations add constraint inventory_reservations_fulfilled check (fulfilled_quantity >= 0 and fulfilled_quantity <= quantity)`.execute(
    db,
  );

  await db.schema.alterTable('outbox').addColumn('dedupe_key', 'text').execute();
  await sql`create unique index outbox_dedupe_key_idx on outbox (organization_id, dedupe_key) where dedupe_key is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists outbox_dedupe_key_idx`.execute(db);
  await db.schema.alterTable('outbox').dropColumn('dedupe_key').execute();
  await sql`alter table inventory_reservations drop constraint inventory_reservations_fulfilled`.execute(db);
  await db.schema.alterTable('inventory_reservations').dropColumn('fulfilled_quantity').execute();
  await db.schema.dropTable('inventory_movements').ifExists().execute();
  await db.schema.dropTable('fulfillment_postages').ifExists().execute();
  await db.schema.dropTable('fulfillment_lines').ifExists().execute();
  await db.schema.dropTable('fulfillments').ifExists().execute();
  await sql`alter table sales_record_lines drop constraint sales_record_lines_fulfillment_counters`.execute(
    db,
  );
  await db.schema
    .alterTable('sales_record_lines')
    .dropColumn('shipped_quantity')
    .dropColumn('allocated_quantity')
    .execute();
  await db.schema.alterTable('sales_records').dropColumn('fulfillment_status').execute();
}

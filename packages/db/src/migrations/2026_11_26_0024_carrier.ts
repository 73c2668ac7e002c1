import { type Kysely, sql } from 'kysely';

/**
 * The carrier (docs/fulfillment.md "Carrier" to "Funding preflight"):
 *
 * - `sandbox_carrier_accounts` and `sandbox_carrier_labels`: the sandbox
 *   carrier's own state, as a remote carrier would keep it (a prepaid balance
 *   per tenant, its behaviours, the labels it sold). Only the sandbox writes
 *   them, in transactions of its own, never inside a caller's.
 * - `label_purchases`: our side of a label purchase (`lbp_…`); the funding
 *   preflight sums the charges of the tenant's `PENDING` and `UNCERTAIN` ones.
 * - `sales_records.shipping_address`: the ship-to snapshot a label is rated
 *   for (from checkout or the shipping-address route); `if not exists`, as the
 *   shipping-address work may add it first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sales_records add column if not exists shipping_address jsonb`.execute(db);

  await db.schema
    .createTable('sandbox_carrier_accounts')
    .addColumn('organization_id', 'text', (col) => col.notNull().primaryKey())
    .addColumn('balance_in_cents', 'integer', (col) =>
      col.notNull().check(sql`balance_in_cents between 0 and 2000000000`),
    )
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('behaviours', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('purchase_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('sandbox_carrier_labels')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('tracking_number', 'text', (col) => col.notNull())
    .addColumn('client_reference', 'text', (col) => col.notNull())
    .addColumn('service', 'text', (col) => col.notNull())
    .addColumn('charge_in_cents', 'integer', (col) => col.notNull())
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('ACTIVE', 'VOID_PENDING', 'VOIDED', 'VOID_REJECTED')`),
    )
    .addColumn('void_request_count', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('sandbox_carrier_labels_pkey', ['organization_id', 'tracking_number'])
    .addUniqueConstraint('sandbox_carrier_labels_client_reference', ['organization_id', 'client_reference'])
    .execute();
  await db.schema
    .createIndex('sandbox_carrier_labels_latest')
    .on('sandbox_carrier_labels')
    .columns(['organization_id', 'created_at desc', 'tracking_number desc'])
    .execute();

  await db.schema
    .createTable('label_purchases')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('sales_record_id', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text')
    .addColumn('fulfillment_id', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('PENDING', 'PURCHASED', 'FAILED', 'UNCERTAIN')`),
    )
    .addColumn('failure', 'text', (col) =>
      col.check(sql`failure in ('DECLINED', 'NOT_SENT', 'NOT_PURCHASED')`),
    )
    .addColumn('carrier', 'text', (col) => col.notNull())
    .addColumn('service', 'text', (col) => col.notNull())
    .addColumn('charge_in_cents', 'integer', (col) => col.notNull().check(sql`charge_in_cents >= 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('lines', 'jsonb', (col) => col.notNull())
    .addColumn('package', 'jsonb', (col) => col.notNull())
    .addColumn('selection_fingerprint', 'text', (col) => col.notNull())
    .addColumn('classification', 'text', (col) =>
      col.notNull().check(sql`classification in ('HIGH_RISK', 'REVIEW_REQUIRED', 'STANDARD')`),
    )
    .addColumn('acknowledgements', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('override_reason', 'text')
    .addColumn('reason', 'text')
    .addColumn('tracking_number', 'text')
    .addColumn('created_by', 'text')
    .addColumn('claimed_at', 'timestamptz', (col) => col.notNull())
    .addColumn('settled_at', 'timestamptz')
    .addColumn('reconcile_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_reconciled_at', 'timestamptz')
    .addColumn('reconcile_outcome', 'text', (col) =>
      col.check(sql`reconcile_outcome in ('PURCHASED', 'NOT_PURCHASED')`),
    )
    .addPrimaryKeyConstraint('label_purchases_pkey', ['organization_id', 'id'])
    .execute();
  await db.schema
    .createIndex('label_purchases_by_record')
    .on('label_purchases')
    .columns(['organization_id', 'sales_record_id', 'id'])
    .execute();
  // The funding preflight's sum and the unsettled-lines check read only open purchases.
  await sql`create index label_purchases_open on label_purchases (organization_id, sales_record_id) where status in ('PENDING', 'UNCERTAIN')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('label_purchases').execute();
  await db.schema.dropTable('sandbox_carrier_labels').execute();
  await db.schema.dropTable('sandbox_carrier_accounts').execute();
}

import { type Kysely, sql } from 'kysely';

/**
 * Orders, part one. A sales record is the durable record of anything sold
 * (orders now, bookings later) with typed lines; the order is its merchant-
 * and customer-facing projection, written in the same transaction. Order
 * numbers come from a counter row per tenant, incremented inside the creating
 * transaction: a rollback gives the number back, so numbers have no gaps (a
 * sequence would leave one per rollback). Amounts are integer cents in int8.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('order_number_counters')
    .addColumn('organization_id', 'text', (col) => col.primaryKey().references('organizations.id'))
    // The number the next order takes.
    .addColumn('next_number', 'bigint', (col) => col.notNull().check(sql`next_number >= 1`))
    .execute();

  await db.schema
    .createTable('sales_records')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) =>
      col.notNull().check(sql`source in ('LEGACY_ORDER', 'CHECKOUT', 'BOOKING')`),
    )
    .addColumn('currency', 'text', (col) => col.notNull().check(sql`currency ~ '^[A-Z]{3}$'`))
    .addColumn('customer_name', 'text', (col) => col.notNull())
    .addColumn('customer_email', sql`citext`, (col) => col.notNull())
    .addColumn('customer_phone', 'text')
    .addColumn('subtotal_in_cents', 'bigint', (col) => col.notNull())
    .addColumn('shipping_in_cents', 'bigint', (col) =>
      col.notNull().defaultTo(0).check(sql`shipping_in_cents >= 0`),
    )
    .addColumn('tax_in_cents', 'bigint', (col) => col.notNull().defaultTo(0).check(sql`tax_in_cents >= 0`))
    .addColumn('discount_in_cents', 'bigint', (col) =>
      col.notNull().defaultTo(0).check(sql`discount_in_cents >= 0`),
    )
    .addColumn('total_in_cents', 'bigint', (col) => col.notNull().check(sql`total_in_cents >= 0`))
    .addColumn('payment_status', 'text', (col) =>
      col.notNull().check(sql`payment_status in ('NOT_REQUIRED', 'AWAITING_PAYMENT', 'PAID', 'FAILED')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('sales_records_pkey', ['organization_id', 'id'])
    .addCheckConstraint(
      'sales_records_total',
      sql`total_in_cents = subtotal_in_cents + shipping_in_cents + tax_in_cents - discount_in_cents`,
    )
    .execute();

  await db.schema
    .createTable('sales_record_lines')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('sales_record_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull().check(sql`position >= 0`))
    .addColumn('type', 'text', (col) =>
      col.notNull().check(sql`type in ('PRODUCT', 'SERVICE', 'CUSTOM', 'FEE', 'DEPOSIT', 'ADJUSTMENT')`),
    )
    // Snapshots of what was sold: no foreign key, so the record outlives catalog changes.
    .addColumn('item_id', 'text')
    .addColumn('variant_id', 'text')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity > 0`))
    .addColumn('unit_price_in_cents', 'bigint', (col) => col.notNull())
    .addColumn('total_in_cents', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('sales_record_lines_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('sales_record_lines_position_key', [
      'organization_id',
      'sales_record_id',
      'position',
    ])
    .addForeignKeyConstraint(
      'sales_record_lines_record_fkey',
      ['organization_id', 'sales_record_id'],
      'sales_records',
      ['organization_id', 'id'],
    )
    // Only an adjustment may take money off.
    .addCheckConstraint('sales_record_lines_sign', sql`type = 'ADJUSTMENT' or unit_price_in_cents >= 0`)
    .addCheckConstraint('sales_record_lines_total', sql`total_in_cents = quantity * unit_price_in_cents`)
    .execute();
  // Verified-purchase matching: the lines that sold an item.
  await sql`create index sales_record_lines_item_idx on sales_record_lines (organization_id, item_id, sales_record_id) where item_id is not null`.execute(
    db,
  );

  await db.schema
    .createTable('orders')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('sales_record_id', 'text', (col) => col.notNull())
    .addColumn('order_reference', 'text', (col) => col.check(sql`order_reference ~ '^or1_[0-9a-f]{32}$'`))
    .addColumn('order_number', 'bigint', (col) => col.notNull().check(sql`order_number >= 1`))
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('PENDING')
        .check(sql`status in ('PENDING', 'CONFIRMED', 'PROCESSING', 'COMPLETED', 'CANCELLED')`),
    )
    // Derived from fulfillment records; no client writes it.
    .addColumn('fulfillment_status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('UNFULFILLED')
        .check(sql`fulfillment_status in ('UNFULFILLED', 'PARTIALLY_FULFILLED', 'FULFILLED')`),
    )
    .addColumn('payment_status', 'text', (col) =>
      col.notNull().check(sql`payment_status in ('NOT_REQUIRED', 'AWAITING_PAYMENT', 'PAID', 'FAILED')`),
    )
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('customer_name', 'text', (col) => col.notNull())
    .addColumn('customer_email', sql`citext`, (col) => col.notNull())
    .addColumn('customer_phone', 'text')
    // Merchant-internal; stripped from every public read.
    .addColumn('notes', 'text')
    .addColumn('item_count', 'integer', (col) => col.notNull())
    .addColumn('subtotal_in_cents', 'bigint', (col) => col.notNull())
    .addColumn('shipping_in_cents', 'bigint', (col) => col.notNull())
    .addColumn('tax_in_cents', 'bigint', (col) => col.notNull())
    .addColumn('discount_in_cents', 'bigint', (col) => col.notNull())
    .addColumn('total_in_cents', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('orders_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('orders_number_key', ['organization_id', 'order_number'])
    .addUniqueConstraint('orders_sales_record_key', ['organization_id', 'sales_record_id'])
    .addForeignKeyConstraint(
      'orders_sales_record_fkey',
      ['organization_id', 'sales_record_id'],
      'sales_records',
      ['organization_id', 'id'],
    )
    .execute();
  await sql`create unique index orders_reference_key on orders (organization_id, order_reference) where order_reference is not null`.execute(
    db,
  );
  // The merchant list (newest first) and each of its filters, keyset on (created_at, id).
  await sql`create index orders_list_idx on orders (organization_id, created_at desc, id desc)`.execute(db);
  await sql`create index orders_status_idx on orders (organization_id, status, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index orders_fulfillment_idx on orders (organization_id, fulfillment_status, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index orders_payment_idx on orders (organization_id, payment_status, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index orders_email_idx on orders (organization_id, customer_email, created_at desc, id desc)`.execute(
    db,
  );
  // Substring search over the customer's email.
  await sql`create index orders_email_trgm_idx on orders using gin ((lower(customer_email::text)) gin_trgm_ops)`.execute(
    db,
  );

  // Read-only order-status links: one row per token issued; the raw token exists only in its email
  // and the create response.
  await db.schema
    .createTable('order_status_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addForeignKeyConstraint('order_status_tokens_order_fkey', ['organization_id', 'order_id'], 'orders', [
      'organization_id',
      'id',
    ])
    .execute();
  await sql`create index order_status_tokens_order_idx on order_status_tokens (organization_id, order_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('order_status_tokens').ifExists().execute();
  await db.schema.dropTable('orders').ifExists().execute();
  await db.schema.dropTable('sales_record_lines').ifExists().execute();
  await db.schema.dropTable('sales_records').ifExists().execute();
  await db.schema.dropTable('order_number_counters').ifExists().execute();
}

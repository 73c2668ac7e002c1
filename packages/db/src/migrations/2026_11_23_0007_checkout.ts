import { type Kysely, sql } from 'kysely';

/**
 * Checkout sessions: a server-authoritative cart behind a hashed `c1_`
 * capability, its lines priced from the catalog, the stock it holds while
 * bound, and the payment attempt that hands off to the processor.
 *
 * Stock: `variants.inventory_quantity` is the quantity available to sell.
 * Binding a session takes its quantities off the tracked variants (under row
 * locks taken in id order) and records them as ACTIVE reservations; releasing
 * puts them back, consuming only changes the reservation's status. The
 * column's own check (`>= 0`) is then the no-oversell invariant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('checkout_sessions')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    // SHA-256 of the `c1_` token; the raw token exists only in the create response.
    .addColumn('token_hash', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .check(
          sql`status in ('OPEN', 'BOUND', 'AWAITING_PAYMENT', 'PAYMENT_FAILED', 'COMPLETED', 'EXPIRED')`,
        ),
    )
    .addColumn('currency', 'text', (col) => col.notNull().check(sql`currency ~ '^[A-Z]{3}$'`))
    .addColumn('email', sql`citext`)
    .addColumn('customer_name', 'text')
    .addColumn('customer_phone', 'text')
    .addColumn('shipping_country', 'text', (col) => col.check(sql`shipping_country ~ '^[A-Z]{2}$'`))
    // The rate chosen (or defaulted) by the latest quote; its name and price are frozen at bind.
    .addColumn('shipping_rate_id', 'text')
    .addColumn('shipping_rate_name', 'text')
    // The latest quote (reprice) and, once bound, the frozen totals.
    .addColumn('subtotal_in_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('shipping_in_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('tax_in_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('total_in_cents', 'bigint', (col) => col.notNull().defaultTo(0))
    .addColumn('bound_at', 'timestamptz')
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addColumn('abandoned_email_queued_at', 'timestamptz')
    .addColumn('order_id', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('checkout_sessions_pkey', ['organization_id', 'id'])
    .addCheckConstraint(
      'checkout_sessions_total',
      sql`total_in_cents = subtotal_in_cents + shipping_in_cents + tax_in_cents and total_in_cents >= 0`,
    )
    .execute();
  // The token alone finds the session (payment-session is token-only), as order-status tokens do.
  await sql`create unique index checkout_sessions_token_key on checkout_sessions (token_hash)`.execute(db);
  await sql`create unique index checkout_sessions_order_key on checkout_sessions (organization_id, order_id) where order_id is not null`.execute(
    db,
  );
  // The worker's sweeps, across tenants: sessions to expire, carts to remind.
  await sql`create index checkout_sessions_expiry_idx on checkout_sessions (expires_at) where status in ('OPEN', 'BOUND', 'PAYMENT_FAILED')`.execute(
    db,
  );
  await sql`create index checkout_sessions_abandoned_idx on checkout_sessions (created_at) where email is not null and abandoned_email_queued_at is null and status <> 'COMPLETED'`.execute(
    db,
  );

  await db.schema
    .createTable('checkout_session_lines')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('checkout_session_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull().check(sql`position >= 0`))
    .addColumn('item_id', 'text', (col) => col.notNull())
    .addColumn('variant_id', 'text')
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity > 0`))
    // From the catalog at the latest quote; frozen at bind.
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('unit_price_in_cents', 'bigint', (col) => col.notNull().check(sql`unit_price_in_cents >= 0`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('checkout_session_lines_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('checkout_session_lines_position_key', [
      'organization_id',
      'checkout_session_id',
      'position',
    ])
    .addForeignKeyConstraint(
      'checkout_session_lines_session_fkey',
      ['organization_id', 'checkout_session_id'],
      'checkout_sessions',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('inventory_reservations')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('checkout_session_id', 'text', (col) => col.notNull())
    .addColumn('variant_id', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity > 0`))
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('ACTIVE', 'RELEASED', 'CONSUMED')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('inventory_reservations_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'inventory_reservations_session_fkey',
      ['organization_id', 'checkout_session_id'],
      'checkout_sessions',
      ['organization_id', 'id'],
    )
    .addForeignKeyConstraint(
      'inventory_reservations_variant_fkey',
      ['organization_id', 'variant_id'],
      'variants',
      ['organization_id', 'id'],
    )
    .execute();
  await sql`create index inventory_reservations_session_idx on inventory_reservations (organization_id, checkout_session_id, status)`.execute(
    db,
  );
  // What is held of a variant right now (merchant views, audits).
  await sql`create index inventory_reservations_variant_idx on inventory_reservations (organization_id, variant_id) where status = 'ACTIVE'`.execute(
    db,
  );

  await db.schema
    .createTable('payment_attempts')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('checkout_session_id', 'text', (col) => col.notNull())
    .addColumn('order_id', 'text', (col) => col.notNull())
    .addColumn('provider', 'text', (col) => col.notNull().check(sql`provider in ('sandbox', 'stripe')`))
    // Null until the processor answered; the attempt id is the processor's idempotency key.
    .addColumn('intent_id', 'text')
    // The processor's handoff, kept so a retry answers without calling it again.
    .addColumn('client_secret', 'text')
    .addColumn('publishable_key', 'text')
    .addColumn('account_id', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('PENDING', 'SUCCEEDED', 'FAILED')`),
    )
    .addColumn('amount_in_cents', 'bigint', (col) => col.notNull().check(sql`amount_in_cents > 0`))
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('payment_attempts_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'payment_attempts_session_fkey',
      ['organization_id', 'checkout_session_id'],
      'checkout_sessions',
      ['organization_id', 'id'],
    )
    .addForeignKeyConstraint('payment_attempts_order_fkey', ['organization_id', 'order_id'], 'orders', [
      'organization_id',
      'id',
    ])
    .execute();
  // One payment intent per checkout session, for its whole life (a failed payment is retried on it).
  await sql`create unique index payment_attempts_session_key on payment_attempts (organization_id, checkout_session_id)`.execute(
    db,
  );
  // The webhook knows only the intent id.
  await sql`create unique index payment_attempts_intent_key on payment_attempts (intent_id) where intent_id is not null`.execute(
    db,
  );

  // Abandoned-cart reminders: the unsubscribe link of each reminder, and who opted out.
  await db.schema
    .createTable('abandoned_cart_unsubscribe_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('email', sql`citext`, (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('abandoned_cart_opt_outs')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('email', sql`citext`, (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('abandoned_cart_opt_outs_pkey', ['organization_id', 'email'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('abandoned_cart_opt_outs').ifExists().execute();
  await db.schema.dropTable('abandoned_cart_unsubscribe_tokens').ifExists().execute();
  await db.schema.dropTable('payment_attempts').ifExists().execute();
  await db.schema.dropTable('inventory_reservations').ifExists().execute();
  await db.schema.dropTable('checkout_session_lines').ifExists().execute();
  await db.schema.dropTable('checkout_sessions').ifExists().execute();
}

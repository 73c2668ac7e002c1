import { type Kysely, sql } from 'kysely';

/**
 * Checkout integrity (docs/checkout.md, "Line types", "Stock and
 * holds" and "Tax"):
 *
 * - A checkout line keeps its type (`PRODUCT` from a SALE item, `SERVICE`
 *   from a SERVICE item), which the order's sales record line takes over.
 * - A session remembers when it was first bound (its hold never outlives
 *   CHECKOUT_HOLD_MINUTES from then) and which client bound it (the SHA-256
 *   key of tenant and client address the rate limiter uses), so the units one
 *   client holds at once can be capped.
 * - Sessions, sales records and orders say whether their tax is included in
 *   the prices: then the tax is recorded but not added to the total.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('checkout_session_lines')
    .addColumn('type', 'text', (col) =>
      col.notNull().defaultTo('PRODUCT').check(sql`type in ('PRODUCT', 'SERVICE')`),
    )
    .execute();

  await db.schema.alterTable('checkout_sessions').addColumn('first_bound_at', 'timestamptz').execute();
  await db.schema.alterTable('checkout_sessions').addColumn('hold_client_key', 'text').execute();
  // The cap's count: a client's sessions in a tenant (their ACTIVE reservations are summed).
  await sql`create index checkout_sessions_hold_client_idx on checkout_sessions (organization_id, hold_client_key) where hold_client_key is not null`.execute(
    db,
  );

  for (const table of ['checkout_sessions', 'sales_records', 'orders'])
    await db.schema
      .alterTable(table)
      .addColumn('tax_included', 'boolean', (col) => col.notNull().defaultTo(false))
      .execute();
  await sql`alter table checkout_sessions drop constraint checkout_sessions_total`.execute(db);
  await sql`alter table checkout_sessions add constraint checkout_sessions_total check (total_in_cents = subtotal_in_cents + shipping_in_cents + case when tax_included then 0 else tax_in_cents end and total_in_cents >= 0)`.execute(
    db,
  );
  await sql`alter table sales_records drop constraint sales_records_total`.execute(db);
  await sql`alter table sales_records add constraint sales_records_total check (total_in_cents = subtotal_in_cents + shipping_in_cents + case when tax_included then 0 else tax_in_cents end - discount_in_cents)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sales_records drop constraint sales_records_total`.execute(db);
  await sql`alter table sales_records add constraint sales_records_total check (total_in_cents = subtotal_in_cents + shipping_in_cents + tax_in_cents - discount_in_cents)`.execute(
    db,
  );
  await sql`alter table checkout_sessions drop constraint checkout_sessions_total`.execute(db);
  await sql`alter table checkout_sessions add constraint checkout_sessions_total check (total_in_cents = subtotal_in_cents + shipping_in_cents + tax_in_cents and total_in_cents >= 0)`.execute(
    db,
  );
  for (const table of ['orders', 'sales_records', 'checkout_sessions'])
    await db.schema.alterTable(table).dropColumn('tax_included').execute();
  await sql`drop index if exists checkout_sessions_hold_client_idx`.execute(db);
  await db.schema.alterTable('checkout_sessions').dropColumn('hold_client_key').execute();
  await db.schema.alterTable('checkout_sessions').dropColumn('first_bound_at').execute();
  await db.schema.alterTable('checkout_session_lines').dropColumn('type').execute();
}

import { type Kysely, sql } from 'kysely';

/**
 * Booking payments (docs/bookings.md "Booking payments"): a booking is paid through a
 * checkout session bound to the amount due, created by the bookings area for
 * the booking's Sales record (`source` BOOKING), not from a cart.
 *
 * - `checkout_sessions.sales_record_id` marks such a session and names the
 *   record whose bookings its payment moves; it has no lines and no order, and
 *   its reprice and bind are refused.
 * - `payment_attempts.order_id` becomes optional: a booking checkout's attempt
 *   pays a Sales record, found through its session.
 * - `checkout_session_tokens`: further `c1_` tokens of one session. A
 *   conversion replay must hand out a new credential for the same checkout
 *   while earlier ones stay valid until the session expires, so the
 *   session's own `token_hash` is not replaced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table checkout_sessions add column sales_record_id text`.execute(db);
  await sql`alter table checkout_sessions add constraint checkout_sessions_sales_record_fkey foreign key (organization_id, sales_record_id) references sales_records (organization_id, id)`.execute(
    db,
  );
  // The open payment of a record (one at a time), and the sessions a booking payment closes.
  await sql`create index checkout_sessions_sales_record_idx on checkout_sessions (organization_id, sales_record_id, created_at) where sales_record_id is not null`.execute(
    db,
  );
  await sql`alter table payment_attempts alter column order_id drop not null`.execute(db);
  // An attempt pays an order, or a booking checkout's Sales record through its session.
  await db.schema
    .createTable('checkout_session_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('checkout_session_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addForeignKeyConstraint(
      'checkout_session_tokens_session_fkey',
      ['organization_id', 'checkout_session_id'],
      'checkout_sessions',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await sql`create index checkout_session_tokens_session_idx on checkout_session_tokens (organization_id, checkout_session_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('checkout_session_tokens').ifExists().execute();
  await sql`delete from payment_attempts where order_id is null`.execute(db);
  await sql`alter table payment_attempts alter column order_id set not null`.execute(db);
  await sql`drop index if exists checkout_sessions_sales_record_idx`.execute(db);
  await sql`alter table checkout_sessions drop constraint if exists checkout_sessions_sales_record_fkey`.execute(
    db,
  );
  await sql`alter table checkout_sessions drop column if exists sales_record_id`.execute(db);
}

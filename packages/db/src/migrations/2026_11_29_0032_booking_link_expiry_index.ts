import { type Kysely, sql } from 'kysely';

/**
 * The bookings worker's link-expiry job looks every 15 seconds, across all tenants, for the open
 * checkout sessions of bookings (those with a Sales record) whose `expires_at` passed. The orders'
 * session expiry index leaves out sessions awaiting a payment and does not know Sales records, so
 * that query scanned every checkout session. This partial index has the job's predicate exactly, so
 * the planner can use it and it stays as small as the open booking sessions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index checkout_sessions_booking_expiry_idx on checkout_sessions (expires_at) where sales_record_id is not null and status in ('OPEN', 'BOUND', 'AWAITING_PAYMENT', 'PAYMENT_FAILED')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists checkout_sessions_booking_expiry_idx`.execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * The sweeps read across every organization by time: each table they sweep
 * gets an index on its expiry (or, for sessions awaiting payment, the time
 * they entered that state) so a sweep reads only what it takes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index customer_sessions_expires_idx on customer_sessions (expires_at)`.execute(db);
  await sql`create index customer_sign_in_challenges_expires_idx on customer_sign_in_challenges (expires_at)`.execute(
    db,
  );
  await sql`create index action_tokens_expires_idx on action_tokens (expires_at)`.execute(db);
  // The payment-timeout sweep's claim: sessions awaiting payment, oldest first.
  await sql`create index checkout_sessions_awaiting_payment_idx on checkout_sessions (updated_at) where status = 'AWAITING_PAYMENT'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists checkout_sessions_awaiting_payment_idx`.execute(db);
  await sql`drop index if exists action_tokens_expires_idx`.execute(db);
  await sql`drop index if exists customer_sign_in_challenges_expires_idx`.execute(db);
  await sql`drop index if exists customer_sessions_expires_idx`.execute(db);
}

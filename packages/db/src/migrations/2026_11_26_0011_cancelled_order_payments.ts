import { type Kysely, sql } from 'kysely';

/**
 * A cancelled order takes no money (docs/checkout.md "A cancelled order takes no money"):
 *
 * - `REFUNDED` joins the payment axis of orders and sales records.
 * - A checkout session whose order was cancelled before it was paid is
 *   `CANCELLED` (terminal: payment-session on it is a 409), and so is its
 *   payment attempt; an attempt whose success arrived after that is `REFUNDED`.
 * - The processor call such a change owes (cancel the intent, refund it) is
 *   recorded on the attempt in the transaction of the change, then made after
 *   the commit and retried by the worker until the processor accepts it:
 *   `provider_action` (null when nothing is owed), when to try next, how many
 *   tries so far, and the processor's refund id once it refunded.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['orders', 'sales_records']) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(`${table}_payment_status_check`)}`.execute(
      db,
    );
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_payment_status_check`)} check (payment_status in ('NOT_REQUIRED', 'AWAITING_PAYMENT', 'PAID', 'FAILED', 'REFUNDED'))`.execute(
      db,
    );
  }
  await sql`alter table checkout_sessions drop constraint checkout_sessions_status_check`.execute(db);
  await sql`alter table checkout_sessions add constraint checkout_sessions_status_check check (status in ('OPEN', 'BOUND', 'AWAITING_PAYMENT', 'PAYMENT_FAILED', 'COMPLETED', 'EXPIRED', 'CANCELLED'))`.execute(
    db,
  );
  await sql`alter table payment_attempts drop constraint payment_attempts_status_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_status_check check (status in ('PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'REFUNDED'))`.execute(
    db,
  );
  await db.schema
    .alterTable('payment_attempts')
    .addColumn('provider_action', 'text', (col) => col.check(sql`provider_action in ('CANCEL', 'REFUND')`))
    .addColumn('provider_action_due_at', 'timestamptz')
    .addColumn('provider_action_tries', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('refund_id', 'text')
    .execute();
  await sql`alter table payment_attempts add constraint payment_attempts_action_due check ((provider_action is null) = (provider_action_due_at is null))`.execute(
    db,
  );
  // The worker's retry sweep, across tenants: owed calls, soonest first.
  await sql`create index payment_attempts_action_idx on payment_attempts (provider_action_due_at) where provider_action is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists payment_attempts_action_idx`.execute(db);
  await sql`alter table payment_attempts drop constraint if exists payment_attempts_action_due`.execute(db);
  await db.schema
    .alterTable('payment_attempts')
    .dropColumn('refund_id')
    .dropColumn('provider_action_tries')
    .dropColumn('provider_action_due_at')
    .dropColumn('provider_action')
    .execute();
  await sql`alter table payment_attempts drop constraint payment_attempts_status_check`.execute(db);
  await sql`alter table payment_attempts add constraint payment_attempts_status_check check (status in ('PENDING', 'SUCCEEDED', 'FAILED'))`.execute(
    db,
  );
  await sql`alter table checkout_sessions drop constraint checkout_sessions_status_check`.execute(db);
  await sql`alter table checkout_sessions add constraint checkout_sessions_status_check check (status in ('OPEN', 'BOUND', 'AWAITING_PAYMENT', 'PAYMENT_FAILED', 'COMPLETED', 'EXPIRED'))`.execute(
    db,
  );
  for (const table of ['orders', 'sales_records']) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.id(`${table}_payment_status_check`)}`.execute(
      db,
    );
    await sql`alter table ${sql.table(table)} add constraint ${sql.id(`${table}_payment_status_check`)} check (payment_status in ('NOT_REQUIRED', 'AWAITING_PAYMENT', 'PAID', 'FAILED'))`.execute(
      db,
    );
  }
}

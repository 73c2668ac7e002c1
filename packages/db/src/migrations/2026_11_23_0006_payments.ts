import { type Kysely, sql } from 'kysely';

/**
 * Idempotency keys (docs/api.md "Idempotency keys") and the payment webhook's
 * event log (docs/checkout.md "Payments").
 *
 * `idempotency_keys`: one row per tenant, operation and SHA-256 of the key,
 * inserted first in the operation's own transaction, so a concurrent
 * duplicate waits on the primary key and then sees the committed outcome. It
 * keeps the intent's hash, a hash per top-level body field (to name the fields
 * that differ on reuse), and the response to replay. `expires_at` is set at
 * insert by the operation's retention (24 hours, 30 days for money and goods)
 * so the worker prunes with one predicate.
 *
 * `payment_webhook_events`: every processed event id, so a replay is a no-op.
 * It belongs to the processor, not to a tenant (events arrive before a tenant
 * is known), so its key is the event id alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    // The route template (`POST /public/checkout/sessions/:token/payment-session`), plus the
    // resource where one key serves several operations of it.
    .addColumn('operation', 'text', (col) => col.notNull())
    .addColumn('key_hash', 'text', (col) => col.notNull().check(sql`key_hash ~ '^[0-9a-f]{64}$'`))
    .addColumn('intent_hash', 'text', (col) => col.notNull().check(sql`intent_hash ~ '^[0-9a-f]{64}$'`))
    // { "<top-level field>": "<sha-256 of its canonical JSON>" }: names, never values.
    .addColumn('intent_fields', 'jsonb', (col) => col.notNull())
    // Null only inside the operation's transaction, between the claim and the outcome; a
    // failed operation rolls its claim back, so a committed row always holds a success.
    .addColumn('response_status', 'integer', (col) => col.check(sql`response_status between 200 and 299`))
    .addColumn('response_body', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['organization_id', 'operation', 'key_hash'])
    .addCheckConstraint('idempotency_keys_expiry', sql`expires_at > created_at`)
    .execute();
  await sql`create index idempotency_keys_expires_idx on idempotency_keys (expires_at)`.execute(db);

  await db.schema
    .createTable('payment_webhook_events')
    .addColumn('event_id', 'text', (col) => col.primaryKey())
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('intent_id', 'text')
    .addColumn('received_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await sql`create index payment_webhook_events_received_idx on payment_webhook_events (received_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('payment_webhook_events').ifExists().execute();
  await db.schema.dropTable('idempotency_keys').ifExists().execute();
}

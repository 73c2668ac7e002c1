import { type Kysely, sql } from 'kysely';

/**
 * Outbound webhooks (docs/webhooks.md).
 *
 * - `webhook_endpoints`: a merchant's receivers. No secret is stored: the signing secret is derived
 *   from the server's WEBHOOK_SIGNING_KEY and `secret_salt` (HMAC-SHA256), so a database dump alone
 *   reveals none. A rotation keeps the previous salt until `previous_secret_expires_at`.
 *   `failing_since` is the start of the current run of failed attempts (cleared by a success).
 * - `webhook_deliveries`: the outbox of events, one row per event and subscribed endpoint, written in
 *   the transaction of the change. `sequence` orders the rows of one object (`ordering_key`) for one
 *   endpoint: the worker sends a row only once every earlier row of its key is delivered or failed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('url', 'text', (col) => col.notNull())
    .addColumn('events', 'jsonb', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('ENABLED').check(sql`status in ('ENABLED', 'DISABLED')`),
    )
    .addColumn('disabled_reason', 'text')
    .addColumn('secret_salt', 'text', (col) => col.notNull())
    .addColumn('previous_secret_salt', 'text')
    .addColumn('previous_secret_expires_at', 'timestamptz')
    .addColumn('failing_since', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('webhook_endpoints_pkey', ['organization_id', 'id'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('endpoint_id', 'text', (col) => col.notNull())
    .addColumn('event_id', 'text', (col) => col.notNull())
    .addColumn('event_type', 'text', (col) => col.notNull())
    .addColumn('ordering_key', 'text')
    .addColumn('sequence', 'bigserial', (col) => col.notNull())
    .addColumn('body', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('PENDING')
        .check(sql`status in ('PENDING', 'PROCESSING', 'DELIVERED', 'FAILED')`),
    )
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('finished_at', 'timestamptz')
    .addPrimaryKeyConstraint('webhook_deliveries_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'webhook_deliveries_endpoint_fkey',
      ['organization_id', 'endpoint_id'],
      'webhook_endpoints',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  // The worker's claim: due rows first, across tenants.
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status in ('PENDING', 'PROCESSING')`.execute(
    db,
  );
  // The per-object order check: an earlier open row of the same key for the same endpoint.
  await sql`create index webhook_deliveries_order_idx on webhook_deliveries (organization_id, endpoint_id, ordering_key, sequence) where status in ('PENDING', 'PROCESSING') and ordering_key is not null`.execute(
    db,
  );
  // An endpoint's delivery list, newest first.
  await db.schema
    .createIndex('webhook_deliveries_endpoint_idx')
    .on('webhook_deliveries')
    .columns(['organization_id', 'endpoint_id', 'id'])
    .execute();
  await sql`create index webhook_deliveries_prune_idx on webhook_deliveries (finished_at) where status in ('DELIVERED', 'FAILED')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').ifExists().execute();
  await db.schema.dropTable('webhook_endpoints').ifExists().execute();
}

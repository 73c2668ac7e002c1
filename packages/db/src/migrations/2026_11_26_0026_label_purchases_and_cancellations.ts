import { type Kysely, sql } from 'kysely';

/**
 * Label purchases settled, and shipment cancellations (docs/fulfillment.md
 * "Label purchase", "Shipment cancellations"):
 *
 * - `postage_accounts`: one row per tenant, locked by a purchase's claim
 *   transaction (the funding preflight) so that concurrent claims re-sum the open
 *   charges one at a time and never overdraw the balance together.
 * - `label_purchases_settled`: the claim re-sums charges settled since its
 *   balance read (docs/fulfillment.md), by tenant and settle time.
 * - `label_purchases.key_hash`: the SHA-256 of the idempotency key the
 *   purchase was claimed under (the key itself is bound in `idempotency_keys`
 *   without an answer until the purchase settles), so a same-key request finds
 *   the purchase to answer from.
 * - `fulfillment_postages.label_fetch_attempts`, `label_next_fetch_at`: a
 *   native label whose document could not be stored after settle is retried
 *   by the worker at `label_next_fetch_at` (null once stored).
 * - `shipment_cancellations` (`scn_…`): one void attempt on one native
 *   postage; at most one open (`PENDING` or `EXHAUSTED`) per fulfillment; the
 *   worker reads the status of `PENDING` ones at `next_poll_at`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('postage_accounts')
    .addColumn('organization_id', 'text', (col) => col.notNull().primaryKey())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema.alterTable('label_purchases').addColumn('key_hash', 'text').execute();
  await sql`create index label_purchases_key on label_purchases (organization_id, key_hash) where key_hash is not null`.execute(
    db,
  );

  // The claim's re-sum: charges settled since the balance it compares with was read.
  await sql`create index label_purchases_settled on label_purchases (organization_id, settled_at) where status = 'PURCHASED'`.execute(
    db,
  );

  await db.schema
    .alterTable('fulfillment_postages')
    .addColumn('label_fetch_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('label_next_fetch_at', 'timestamptz')
    .execute();
  // The worker's sweep over every tenant: labels still to fetch, due first.
  await sql`create index fulfillment_postages_label_fetch on fulfillment_postages (label_next_fetch_at) where label_next_fetch_at is not null`.execute(
    db,
  );

  await db.schema
    .createTable('shipment_cancellations')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('fulfillment_id', 'text', (col) => col.notNull())
    .addColumn('postage_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('PENDING', 'VOIDED', 'REJECTED', 'EXHAUSTED', 'NOT_SENT')`),
    )
    .addColumn('reason', 'text')
    .addColumn('requested_by', 'text')
    .addColumn('requested_at', 'timestamptz', (col) => col.notNull())
    .addColumn('void_requested_at', 'timestamptz')
    .addColumn('void_request_count', 'integer', (col) =>
      col.notNull().defaultTo(1).check(sql`void_request_count = 1`),
    )
    .addColumn('poll_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_poll_at', 'timestamptz')
    .addColumn('evidence', 'jsonb')
    .addColumn('checks', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('last_checked_at', 'timestamptz')
    .addColumn('closed_at', 'timestamptz')
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('shipment_cancellations_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'shipment_cancellations_fulfillment_fkey',
      ['organization_id', 'fulfillment_id'],
      'fulfillments',
      ['organization_id', 'id'],
    )
    .addForeignKeyConstraint(
      'shipment_cancellations_postage_fkey',
      ['organization_id', 'postage_id'],
      'fulfillment_postages',
      ['organization_id', 'id'],
    )
    .execute();
  // A fulfillment's cancellations, newest first (its read shows the latest).
  await sql`create index shipment_cancellations_fulfillment on shipment_cancellations (organization_id, fulfillment_id, requested_at desc, id desc)`.execute(
    db,
  );
  // At most one open void per fulfillment: a concurrent second request cannot send another.
  await sql`create unique index shipment_cancellations_open on shipment_cancellations (organization_id, fulfillment_id) where status in ('PENDING', 'EXHAUSTED')`.execute(
    db,
  );
  // The worker's status polls over every tenant, due first.
  await sql`create index shipment_cancellations_poll on shipment_cancellations (next_poll_at) where status = 'PENDING'`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('shipment_cancellations').ifExists().execute();
  await sql`drop index if exists fulfillment_postages_label_fetch`.execute(db);
  await db.schema
    .alterTable('fulfillment_postages')
    .dropColumn('label_fetch_attempts')
    .dropColumn('label_next_fetch_at')
    .execute();
  await sql`drop index if exists label_purchases_settled`.execute(db);
  await sql`drop index if exists label_purchases_key`.execute(db);
  await db.schema.alterTable('label_purchases').dropColumn('key_hash').execute();
  await db.schema.dropTable('postage_accounts').ifExists().execute();
}

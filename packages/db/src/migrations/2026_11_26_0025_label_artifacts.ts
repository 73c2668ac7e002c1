import { type Kysely, sql } from 'kysely';

/**
 * Stored label documents (docs/fulfillment.md "Label purchase", "Warehouse outputs"): the bytes
 * a carrier returned for a purchased label, kept so that a labels PDF batch
 * never calls the carrier and can check each label (content type, `%PDF-`,
 * SHA-256, size) before copying its pages. One per purchase; the 2 MiB cap is
 * the batch's safety limit, checked again on read.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('label_artifacts')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('purchase_id', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull().check(sql`sha256 ~ '^[0-9a-f]{64}$'`))
    .addColumn('byte_size', 'integer', (col) => col.notNull().check(sql`byte_size between 1 and 2097152`))
    .addColumn('bytes', 'bytea', (col) => col.notNull())
    .addColumn('stored_at', 'timestamptz', (col) => col.notNull())
    .addPrimaryKeyConstraint('label_artifacts_pkey', ['organization_id', 'purchase_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('label_artifacts').execute();
}

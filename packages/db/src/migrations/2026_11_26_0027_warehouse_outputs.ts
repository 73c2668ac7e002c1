import { type Kysely, sql } from 'kysely';

/**
 * Warehouse outputs (docs/fulfillment.md "Warehouse outputs"): the list reads the
 * organization's fulfillments not yet handed off (`PLANNED`, `READY`) by id.
 * A partial index holds only those rows, so a page walks them in id order
 * without stepping over the shipped, delivered and cancelled history; a
 * `status` filter of one of the two is implied by the index predicate.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index fulfillments_warehouse_idx on fulfillments (organization_id, id) where status in ('PLANNED', 'READY')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists fulfillments_warehouse_idx`.execute(db);
}

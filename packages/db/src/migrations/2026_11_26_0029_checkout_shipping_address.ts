import { type Kysely, sql } from 'kysely';

/**
 * The hosted checkout collects where the parcels go: a checkout session keeps the
 * shopper's shipping address (the shape of `sales_records.shipping_address`) and placing its
 * order copies it to the sales record and the order, so a fulfillment can be labelled without the
 * merchant typing it in. Null for sessions that only gave a country, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table checkout_sessions add column shipping_address jsonb`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table checkout_sessions drop column shipping_address`.execute(db);
}

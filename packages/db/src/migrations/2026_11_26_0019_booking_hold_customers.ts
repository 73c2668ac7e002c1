import { type Kysely, sql } from 'kysely';

/**
 * A hold made with a valid customer session of the tenant belongs to that
 * customer, and so does the booking converted
 * from it. Guest holds keep null. The partial index serves the foreign key
 * and a customer's holds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('booking_holds').addColumn('customer_id', 'text').execute();
  await sql`alter table booking_holds add constraint booking_holds_customer_fkey foreign key (organization_id, customer_id) references customers (organization_id, id)`.execute(
    db,
  );
  await sql`create index booking_holds_customer_idx on booking_holds (organization_id, customer_id) where customer_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('booking_holds').dropColumn('customer_id').execute();
}

import { type Kysely, sql } from 'kysely';

/**
 * The active-hold limits (docs/bookings.md "Abuse limits") count what a client holds: its active
 * holds and the unpaid bookings it converted from them, until they are paid, expire or are
 * cancelled. A booking keeps
 * the client key of the hold it was converted from (null for a booking a merchant made), and hold
 * and booking keep whether a signed-in customer whose verified email it is made the hold: the
 * per-email limit counts such holds apart from anyone else's, so that strangers cannot spend the
 * owner's budget (docs/bookings.md, "Abuse limits"). The partial indexes serve the two counts.
 *
 * Booking emails to one recipient are capped per tenant and hour: one row per tenant and recipient
 * (the SHA-256 of the lower-cased address, never the address) counts the emails of its current
 * window and those held back, in the transaction of the change that would send them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table booking_holds add column email_proven boolean not null default false`.execute(db);
  await sql`alter table bookings add column client_key text`.execute(db);
  await sql`alter table bookings add column email_proven boolean not null default false`.execute(db);
  await sql`
    update bookings set client_key = booking_holds.client_key
    from booking_holds
    where booking_holds.organization_id = bookings.organization_id and booking_holds.id = bookings.hold_id
      and bookings.status = 'PENDING_PAYMENT'`.execute(db);
  await sql`create index bookings_unpaid_client_idx on bookings (organization_id, client_key, payment_expires_at) where status = 'PENDING_PAYMENT' and client_key is not null`.execute(
    db,
  );
  await sql`create index bookings_unpaid_email_idx on bookings (organization_id, customer_email, payment_expires_at) where status = 'PENDING_PAYMENT' and client_key is not null`.execute(
    db,
  );
  await sql`
    create table booking_email_limits (
      organization_id text not null,
      recipient_key text not null,
      window_started_at timestamptz not null,
      sent_in_window integer not null,
      held_in_window integer not null default 0,
      held_total integer not null default 0,
      last_held_at timestamptz,
      primary key (organization_id, recipient_key)
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists booking_email_limits`.execute(db);
  await sql`drop index if exists bookings_unpaid_email_idx`.execute(db);
  await sql`drop index if exists bookings_unpaid_client_idx`.execute(db);
  await sql`alter table bookings drop column email_proven`.execute(db);
  await sql`alter table bookings drop column client_key`.execute(db);
  await sql`alter table booking_holds drop column email_proven`.execute(db);
}

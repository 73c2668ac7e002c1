import { type Kysely, sql } from 'kysely';

/**
 * Lookups the hosted app's backend makes (docs/hosted-app.md):
 *
 * - A sign-in link's token names its store (a hosted link whose base has no store still opens):
 *   the resolver looks the token up by hash alone, which the per-tenant unique index
 *   (organization_id, link_token_hash) cannot serve. The other emailed token tables are keyed by
 *   the hash already.
 * - The sandbox processor numbers the events of one payment intent (a payment re-armed after a
 *   decline is a new event, a double-submitted form the same one): it counts the intent's events.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index customer_sign_in_challenges_link_hash on customer_sign_in_challenges (link_token_hash) where link_token_hash is not null`.execute(
    db,
  );
  await sql`create index payment_webhook_events_intent_idx on payment_webhook_events (intent_id) where intent_id is not null`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index payment_webhook_events_intent_idx`.execute(db);
  await sql`drop index customer_sign_in_challenges_link_hash`.execute(db);
}

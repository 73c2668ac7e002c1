import { type Kysely, sql } from 'kysely';

/**
 * Back-in-stock notifications, part two. A subscription is notified once and
 * then rests as NOTIFIED until the shopper signs up again. Unsubscribe links
 * move to a token table of their own: each email carries a fresh token and
 * every earlier link keeps working, which one hash column on the
 * subscription could not do (a new token would have replaced the old one).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table stock_subscriptions drop constraint if exists stock_subscriptions_status_check`.execute(
    db,
  );
  await sql`alter table stock_subscriptions add constraint stock_subscriptions_status_check check (status in ('ACTIVE', 'NOTIFIED', 'UNSUBSCRIBED'))`.execute(
    db,
  );
  await sql`drop index if exists stock_subscriptions_token_key`.execute(db);
  await db.schema.alterTable('stock_subscriptions').dropColumn('unsubscribe_token_hash').execute();

  // One row per unsubscribe link sent; the raw token exists only in the email.
  await db.schema
    .createTable('email_unsubscribe_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('subscription_type', 'text', (col) =>
      col.notNull().check(sql`subscription_type in ('STOCK_NOTIFICATION')`),
    )
    .addColumn('subscription_id', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addForeignKeyConstraint(
      'email_unsubscribe_tokens_stock_subscription_fkey',
      ['organization_id', 'subscription_id'],
      'stock_subscriptions',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await sql`create index email_unsubscribe_tokens_subscription_idx on email_unsubscribe_tokens (organization_id, subscription_id)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('email_unsubscribe_tokens').ifExists().execute();
  await sql`delete from stock_subscriptions where status = 'NOTIFIED'`.execute(db);
  await sql`alter table stock_subscriptions drop constraint if exists stock_subscriptions_status_check`.execute(
    db,
  );
  await sql`alter table stock_subscriptions add constraint stock_subscriptions_status_check check (status in ('ACTIVE', 'UNSUBSCRIBED'))`.execute(
    db,
  );
  await sql`alter table stock_subscriptions add column unsubscribe_token_hash text not null default md5(random()::text)`.execute(
    db,
  );
  await sql`create unique index stock_subscriptions_token_key on stock_subscriptions (unsubscribe_token_hash)`.execute(
    db,
  );
}

import { type Kysely, sql } from 'kysely';

/**
 * Customer accounts (docs/customers.md): customers per tenant, their
 * passwordless sign-in challenges, sessions and address book. Every secret is
 * kept as a SHA-256 hash only: a session row's id is the hash of its `s1_`
 * token, a challenge keeps the hashes of its link token and of its code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('customers')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('email', sql`citext`, (col) => col.notNull())
    .addColumn('email_verified_at', 'timestamptz')
    // A new address waiting for its verification; the email changes only when it is verified.
    .addColumn('pending_email', sql`citext`)
    .addColumn('name', 'text')
    .addColumn('phone', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('customers_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('customers_email_key', ['organization_id', 'email'])
    .execute();

  await db.schema
    .createTable('customer_sign_in_challenges')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('purpose', 'text', (col) => col.notNull().check(sql`purpose in ('SIGN_IN', 'EMAIL_CHANGE')`))
    // The address the code was sent to: the sign-in email, or the new address of an email change.
    .addColumn('email', sql`citext`, (col) => col.notNull())
    // Set for an email change: whose email changes once the new address is verified.
    .addColumn('customer_id', 'text')
    .addColumn('link_token_hash', 'text')
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('failed_attempts', 'integer', (col) =>
      col.notNull().defaultTo(0).check(sql`failed_attempts >= 0`),
    )
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('customer_sign_in_challenges_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'customer_sign_in_challenges_customer_fkey',
      ['organization_id', 'customer_id'],
      'customers',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addCheckConstraint(
      'customer_sign_in_challenges_purpose_customer',
      sql`(purpose = 'EMAIL_CHANGE') = (customer_id is not null)`,
    )
    .execute();
  await sql`create unique index customer_sign_in_challenges_link_key on customer_sign_in_challenges (organization_id, link_token_hash) where link_token_hash is not null`.execute(
    db,
  );
  // Verify by code: the live challenges of one address.
  await sql`create index customer_sign_in_challenges_email_idx on customer_sign_in_challenges (organization_id, email, expires_at) where consumed_at is null`.execute(
    db,
  );

  await db.schema
    .createTable('customer_sessions')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    // The lowercase hex SHA-256 of the `s1_` token (the Lucia design): the token itself is never stored.
    .addColumn('id', 'text', (col) => col.notNull().check(sql`id ~ '^[0-9a-f]{64}$'`))
    .addColumn('customer_id', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('customer_sessions_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'customer_sessions_customer_fkey',
      ['organization_id', 'customer_id'],
      'customers',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await sql`create index customer_sessions_customer_idx on customer_sessions (organization_id, customer_id)`.execute(
    db,
  );

  await db.schema
    .createTable('customer_addresses')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('customer_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text')
    .addColumn('company', 'text')
    .addColumn('line1', 'text', (col) => col.notNull())
    .addColumn('line2', 'text')
    .addColumn('city', 'text', (col) => col.notNull())
    .addColumn('state', 'text')
    .addColumn('postal_code', 'text')
    .addColumn('country', 'text', (col) => col.notNull().check(sql`country ~ '^[A-Z]{2}$'`))
    .addColumn('phone', 'text')
    .addColumn('is_default_shipping', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('is_default_billing', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('customer_addresses_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'customer_addresses_customer_fkey',
      ['organization_id', 'customer_id'],
      'customers',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  // The address book, newest first; and at most one default of each kind per customer.
  await sql`create index customer_addresses_list_idx on customer_addresses (organization_id, customer_id, id desc)`.execute(
    db,
  );
  await sql`create unique index customer_addresses_default_shipping_key on customer_addresses (organization_id, customer_id) where is_default_shipping`.execute(
    db,
  );
  await sql`create unique index customer_addresses_default_billing_key on customer_addresses (organization_id, customer_id) where is_default_billing`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('customer_addresses').ifExists().execute();
  await db.schema.dropTable('customer_sessions').ifExists().execute();
  await db.schema.dropTable('customer_sign_in_challenges').ifExists().execute();
  await db.schema.dropTable('customers').ifExists().execute();
}

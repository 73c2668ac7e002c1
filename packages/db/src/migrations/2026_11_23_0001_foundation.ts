import { type Kysely, sql } from 'kysely';

/** Frozen once landed: later changes go into new migrations. */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const extension of ['citext', 'pg_trgm', 'btree_gist']) {
    await sql`create extension if not exists ${sql.raw(extension)}`.execute(db);
  }

  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('slug', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('ACTIVE').check(sql`status in ('ACTIVE', 'SUSPENDED')`),
    )
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('merchant_users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('subject', 'text', (col) => col.notNull().unique())
    .addColumn('email', sql`citext`, (col) => col.notNull())
    .addColumn('email_verified', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('name', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('merchant_users_email_idx').on('merchant_users').column('email').execute();

  await db.schema
    .createTable('memberships')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('user_id', 'text', (col) => col.references('merchant_users.id'))
    .addColumn('email', sql`citext`, (col) => col.notNull())
    .addColumn('invited_name', 'text')
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('Owner', 'Admin', 'Staff')`))
    .addColumn('permissions', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('PENDING', 'ACTIVE')`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('memberships_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('memberships_email_key', ['organization_id', 'email'])
    .addCheckConstraint('memberships_bound_when_active', sql`status = 'PENDING' or user_id is not null`)
    .execute();
  await sql`create unique index memberships_user_key on memberships (organization_id, user_id) where user_id is not null`.execute(
    db,
  );
  await sql`create index memberships_list_idx on memberships (organization_id, created_at, id)`.execute(db);
  // "All my memberships" for the session read, and binding pending rows at first sign-in.
  await db.schema.createIndex('memberships_user_idx').on('memberships').column('user_id').execute();
  await sql`create index memberships_pending_email_idx on memberships (email) where user_id is null`.execute(
    db,
  );

  await db.schema
    .createTable('audit_logs')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('actor_user_id', 'text')
    .addColumn('actor_email', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('target_type', 'text', (col) => col.notNull())
    .addColumn('target_id', 'text')
    .addColumn('metadata', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('audit_logs_pkey', ['organization_id', 'id'])
    .execute();
  await sql`create index audit_logs_recent_idx on audit_logs (organization_id, created_at desc, id desc)`.execute(
    db,
  );
  // The log is append-only: the database itself refuses to change or remove a row.
  await sql`
    create function audit_logs_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_logs is append-only' using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`
    create trigger audit_logs_no_update_or_delete before update or delete on audit_logs
    for each row execute function audit_logs_append_only()`.execute(db);
  await sql`
    create trigger audit_logs_no_truncate before truncate on audit_logs
    for each statement execute function audit_logs_append_only()`.execute(db);

  await db.schema
    .createTable('outbox')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('metadata', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('payload', 'jsonb')
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('PENDING').check(sql`status in ('PENDING', 'PROCESSING', 'DONE', 'FAILED')`),
    )
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addPrimaryKeyConstraint('outbox_pkey', ['organization_id', 'id'])
    .execute();
  // The worker's claim query: due rows first, across tenants.
  await sql`create index outbox_due_idx on outbox (next_attempt_at) where status in ('PENDING', 'PROCESSING')`.execute(
    db,
  );
  await sql`create index outbox_prune_idx on outbox (delivered_at) where status in ('DONE', 'FAILED')`.execute(
    db,
  );

  await db.schema
    .createTable('dev_emails')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('outbox_id', 'text', (col) => col.notNull())
    .addColumn('to_address', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('text_body', 'text', (col) => col.notNull())
    .addColumn('html_body', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('dev_emails_pkey', ['organization_id', 'id'])
    .execute();
  await sql`create index dev_emails_recent_idx on dev_emails (organization_id, created_at desc, id desc)`.execute(
    db,
  );

  // rate-limiter-flexible's PostgreSQL store; created here so the library never runs DDL at request time.
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'varchar(255)', (col) => col.primaryKey())
    .addColumn('points', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'rate_limits',
    'dev_emails',
    'outbox',
    'audit_logs',
    'memberships',
    'merchant_users',
    'organizations',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await sql`drop function if exists audit_logs_append_only()`.execute(db);
}

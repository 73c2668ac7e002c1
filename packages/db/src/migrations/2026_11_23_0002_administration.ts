import { type Kysely, sql } from 'kysely';

/** Merchant administration: settings, onboarding steps, email template overrides, audit filters. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One row per organization, created by the first read (insert … on conflict do nothing).
  await db.schema
    .createTable('organization_settings')
    .addColumn('organization_id', 'text', (col) => col.primaryKey().references('organizations.id'))
    .addColumn('business_profile', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('checkout_settings', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('api_settings', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('notifications', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('onboarding_steps')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('step_key', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('completed_at', 'timestamptz')
    .addColumn('completed_by', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('onboarding_steps_pkey', ['organization_id', 'step_key'])
    .addCheckConstraint(
      'onboarding_steps_completed_pair',
      sql`(completed_at is null) = (completed_by is null)`,
    )
    .execute();
  await sql`create index onboarding_steps_order_idx on onboarding_steps (organization_id, position)`.execute(
    db,
  );

  // Only the writable slots of a template type; null means "use the default".
  await db.schema
    .createTable('email_template_overrides')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('subject', 'text')
    .addColumn('heading', 'text')
    .addColumn('body_text', 'text')
    .addColumn('cta_label', 'text')
    .addColumn('from_name', 'text')
    .addColumn('reply_to', 'text')
    .addColumn('updated_by', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('email_template_overrides_pkey', ['organization_id', 'type'])
    .execute();

  // Audit filters, each in the list's order (newest first). `action` is a substring filter:
  // a trigram index (with btree_gist for the tenant column) serves it.
  await sql`create index audit_logs_actor_idx on audit_logs (organization_id, actor_user_id, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index audit_logs_target_idx on audit_logs (organization_id, target_type, target_id, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index audit_logs_action_trgm_idx on audit_logs using gist (organization_id, action gist_trgm_ops)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists audit_logs_action_trgm_idx`.execute(db);
  await sql`drop index if exists audit_logs_target_idx`.execute(db);
  await sql`drop index if exists audit_logs_actor_idx`.execute(db);
  await db.schema.dropTable('email_template_overrides').ifExists().execute();
  await db.schema.dropTable('onboarding_steps').ifExists().execute();
  await db.schema.dropTable('organization_settings').ifExists().execute();
}

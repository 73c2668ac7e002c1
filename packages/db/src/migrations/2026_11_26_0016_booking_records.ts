import { type Kysely, sql } from 'kysely';

/**
 * Bookings, second part (docs/bookings.md "Conversion" to "Customer and guest routes"): the booking
 * itself, the resources it was given, customers' change requests and guest
 * management tokens. Capacity claims owned by a booking now point at it.
 *
 * A booking keeps snapshots: the service as converted (name, slug,
 * requirements, policies, checkout terms, agreement), the frozen price and the
 * delivery snapshot, so a later change to the service never alters it.
 * `history` is the append-only list of its status transitions, read whole with
 * the booking. The resources a booking was given are rows of their own
 * (`booking_allocations`), kept while it is `REQUESTED` and holds no claim, so
 * the merchant's resource filter and Staff assignment are index reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('bookings')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    // `BK-` and 8 Crockford base32 characters, unique per tenant; for support, not a credential.
    .addColumn('code', 'text', (col) => col.notNull())
    .addColumn('service_id', 'text', (col) => col.notNull())
    // The hold it was converted from; null for a merchant-created booking.
    .addColumn('hold_id', 'text')
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .check(
          sql`status in ('REQUESTED', 'PENDING_PAYMENT', 'CONFIRMED', 'DECLINED', 'CANCELLED', 'EXPIRED')`,
        ),
    )
    .addColumn('starts_at', 'timestamptz', (col) => col.notNull())
    .addColumn('ends_at', 'timestamptz', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity between 1 and 1000`))
    .addColumn('timezone', 'text', (col) => col.notNull())
    .addColumn('customer_id', 'text')
    .addColumn('customer_name', 'text', (col) => col.notNull())
    .addColumn('customer_email', sql`citext`, (col) => col.notNull())
    .addColumn('customer_phone', 'text')
    .addColumn('customer_note', 'text')
    .addColumn('billing_address', 'jsonb')
    // The hold's frozen delivery snapshot, null for pickup-free services.
    .addColumn('delivery', 'jsonb')
    // The service as converted: name, slug, requirements, policies, checkout terms, pricing.
    .addColumn('snapshot', 'jsonb', (col) => col.notNull())
    // The price frozen at conversion; reschedules keep it.
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('subtotal_in_cents', 'integer', (col) => col.notNull().check(sql`subtotal_in_cents >= 0`))
    .addColumn('delivery_fee_in_cents', 'integer', (col) =>
      col.notNull().defaultTo(0).check(sql`delivery_fee_in_cents >= 0`),
    )
    .addColumn('tax_in_cents', 'integer', (col) => col.notNull().defaultTo(0).check(sql`tax_in_cents >= 0`))
    .addColumn('total_in_cents', 'integer', (col) => col.notNull().check(sql`total_in_cents >= 0`))
    .addColumn('amount_due_now_in_cents', 'integer', (col) =>
      col.notNull().check(sql`amount_due_now_in_cents >= 0`),
    )
    // The sales record that takes its payments; null while REQUESTED.
    .addColumn('sales_record_id', 'text')
    .addColumn('payment_expires_at', 'timestamptz')
    .addColumn('request_expires_at', 'timestamptz')
    .addColumn('voided_at', 'timestamptz')
    .addColumn('refund_required', 'boolean', (col) => col.notNull().defaultTo(false))
    // Merchant users assigned by hand, at most 20.
    .addColumn('assignee_user_ids', sql`text[]`, (col) => col.notNull().defaultTo(sql`'{}'::text[]`))
    // `[{ title, version, signerName, acceptedAt }]`.
    .addColumn('agreements', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    // `[{ at, from, to, actor, userId?, reason? }]`, appended by every transition.
    .addColumn('history', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    // A booking group's member; the groups migration adds its foreign key.
    .addColumn('group_id', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('bookings_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('bookings_code_key', ['organization_id', 'code'])
    .addForeignKeyConstraint('bookings_service_fkey', ['organization_id', 'service_id'], 'booking_services', [
      'organization_id',
      'id',
    ])
    .addForeignKeyConstraint('bookings_hold_fkey', ['organization_id', 'hold_id'], 'booking_holds', [
      'organization_id',
      'id',
    ])
    .addForeignKeyConstraint('bookings_customer_fkey', ['organization_id', 'customer_id'], 'customers', [
      'organization_id',
      'id',
    ])
    .addForeignKeyConstraint(
      'bookings_sales_record_fkey',
      ['organization_id', 'sales_record_id'],
      'sales_records',
      ['organization_id', 'id'],
    )
    .addCheckConstraint('bookings_interval', sql`starts_at < ends_at`)
    .addCheckConstraint('bookings_assignees', sql`cardinality(assignee_user_ids) <= 20`)
    .execute();
  // A hold converts once.
  await sql`create unique index bookings_hold_key on bookings (organization_id, hold_id) where hold_id is not null`.execute(
    db,
  );
  // The merchant list (by startsAt, id; either direction), whole and per status and service.
  await sql`create index bookings_list_idx on bookings (organization_id, starts_at, id)`.execute(db);
  await sql`create index bookings_status_idx on bookings (organization_id, status, starts_at, id)`.execute(
    db,
  );
  await sql`create index bookings_service_idx on bookings (organization_id, service_id, starts_at, id)`.execute(
    db,
  );
  // The customer's bookings: linked by id, or by verified email (as their orders are).
  await sql`create index bookings_customer_idx on bookings (organization_id, customer_id, starts_at) where customer_id is not null`.execute(
    db,
  );
  await sql`create index bookings_email_idx on bookings (organization_id, customer_email, starts_at)`.execute(
    db,
  );
  await sql`create index bookings_sales_record_idx on bookings (organization_id, sales_record_id) where sales_record_id is not null`.execute(
    db,
  );
  await sql`create index bookings_group_idx on bookings (organization_id, group_id) where group_id is not null`.execute(
    db,
  );
  // The worker's sweeps: payment windows and request expiries.
  await sql`create index bookings_payment_expiry_idx on bookings (payment_expires_at) where status = 'PENDING_PAYMENT'`.execute(
    db,
  );
  await sql`create index bookings_request_expiry_idx on bookings (request_expires_at) where status = 'REQUESTED'`.execute(
    db,
  );

  await db.schema
    .createTable('booking_allocations')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('booking_id', 'text', (col) => col.notNull())
    .addColumn('requirement_id', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity between 1 and 10000`))
    // The requirement's selection mode at conversion: only OPTIONAL and REQUIRED ones are shown to customers.
    .addColumn('selection', 'text', (col) =>
      col.notNull().check(sql`selection in ('AUTO', 'OPTIONAL', 'REQUIRED')`),
    )
    .addColumn('position', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('booking_allocations_pkey', ['organization_id', 'booking_id', 'position'])
    .addForeignKeyConstraint(
      'booking_allocations_booking_fkey',
      ['organization_id', 'booking_id'],
      'bookings',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'booking_allocations_resource_fkey',
      ['organization_id', 'resource_id'],
      'booking_resources',
      ['organization_id', 'id'],
    )
    .execute();
  await sql`create index booking_allocations_resource_idx on booking_allocations (organization_id, resource_id, booking_id)`.execute(
    db,
  );

  await sql`alter table booking_capacity_claims add constraint booking_capacity_claims_booking_fkey foreign key (organization_id, booking_id) references bookings (organization_id, id)`.execute(
    db,
  );

  await db.schema
    .createTable('booking_change_requests')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('booking_id', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('CANCEL', 'RESCHEDULE')`))
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('PENDING', 'APPROVED', 'DECLINED', 'WITHDRAWN')`),
    )
    // The interval asked for (RESCHEDULE only).
    .addColumn('starts_at', 'timestamptz')
    .addColumn('ends_at', 'timestamptz')
    .addColumn('reason', 'text')
    .addColumn('actor', 'text', (col) => col.notNull().check(sql`actor in ('CUSTOMER', 'GUEST')`))
    .addColumn('decided_by_user_id', 'text')
    .addColumn('decision_reason', 'text')
    .addColumn('decided_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('booking_change_requests_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'booking_change_requests_booking_fkey',
      ['organization_id', 'booking_id'],
      'bookings',
      ['organization_id', 'id'],
    )
    .addCheckConstraint(
      'booking_change_requests_interval',
      sql`(kind = 'RESCHEDULE') = (starts_at is not null and ends_at is not null) and (starts_at is null or starts_at < ends_at)`,
    )
    .execute();
  // One pending change request per booking, kept by the database under concurrency.
  await sql`create unique index booking_change_requests_pending_key on booking_change_requests (organization_id, booking_id) where status = 'PENDING'`.execute(
    db,
  );
  await sql`create index booking_change_requests_booking_idx on booking_change_requests (organization_id, booking_id, created_at)`.execute(
    db,
  );

  // Guest management tokens `m1_`, stored as SHA-256 only. One mutation per token:
  // `consumed_at` and the recorded `result` let the same route and body replay it.
  await db.schema
    .createTable('booking_management_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('booking_id', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('consumed_at', 'timestamptz')
    // `{ route, fingerprint, response }` of the mutation that consumed it.
    .addColumn('consumed_action', 'jsonb')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addForeignKeyConstraint(
      'booking_management_tokens_booking_fkey',
      ['organization_id', 'booking_id'],
      'bookings',
      ['organization_id', 'id'],
    )
    .execute();
  await sql`create index booking_management_tokens_booking_idx on booking_management_tokens (organization_id, booking_id)`.execute(
    db,
  );
  await sql`create index booking_management_tokens_expiry_idx on booking_management_tokens (expires_at)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table booking_capacity_claims drop constraint if exists booking_capacity_claims_booking_fkey`.execute(
    db,
  );
  for (const table of [
    'booking_management_tokens',
    'booking_change_requests',
    'booking_allocations',
    'bookings',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

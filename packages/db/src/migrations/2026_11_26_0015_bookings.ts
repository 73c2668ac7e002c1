import { type Kysely, sql } from 'kysely';

/**
 * Bookings, first part (docs/bookings.md "Schema"): resources,
 * booking services with their requirements and resource pools, blackouts,
 * and the capacity claims whose invariant the database keeps.
 *
 * Requirements are rows of their own (not jsonb on the service): their ids
 * stay stable across a PATCH, and each pool member is a foreign key to a
 * resource of the same organization, indexed by resource, so "which pools
 * hold this resource" and "the candidates of this requirement" are plain
 * index reads.
 *
 * The capacity invariant is the trigger's (docs/bookings.md "The capacity
 * trigger"): before a claim row
 * becomes live, it locks the resource row and sweeps the live claims that
 * overlap it for their peak. Bookings come in a later migration, which adds
 * the foreign key of `booking_id`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('booking_resources')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) =>
      col.notNull().check(sql`kind in ('STAFF', 'SPACE', 'EQUIPMENT', 'VEHICLE', 'OTHER')`),
    )
    .addColumn('capacity', 'integer', (col) => col.notNull().check(sql`capacity between 1 and 10000`))
    .addColumn('user_id', 'text', (col) => col.references('merchant_users.id'))
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('ACTIVE', 'ARCHIVED')`))
    .addColumn('metafields', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('booking_resources_pkey', ['organization_id', 'id'])
    .addCheckConstraint(
      'booking_resources_archived_status',
      sql`(status = 'ARCHIVED') = (archived_at is not null)`,
    )
    .addCheckConstraint('booking_resources_user_staff', sql`user_id is null or kind = 'STAFF'`)
    .execute();
  // The merchant list order (name, id), whole and per status.
  await sql`create index booking_resources_list_idx on booking_resources (organization_id, name, id)`.execute(
    db,
  );
  await sql`create index booking_resources_status_idx on booking_resources (organization_id, status, name, id)`.execute(
    db,
  );

  await db.schema
    .createTable('booking_services')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('ACTIVE', 'DRAFT', 'ARCHIVED')`))
    .addColumn('item_id', 'text')
    .addColumn('period_mode', 'text', (col) =>
      col.notNull().check(sql`period_mode in ('EXACT_RANGE', 'FIXED_DURATION', 'FIXED_SLOT')`),
    )
    .addColumn('timezone', 'text', (col) => col.notNull())
    // The rule-shaped settings, validated by the service's schemas and read whole.
    .addColumn('durations', 'jsonb', (col) => col.notNull())
    .addColumn('fixed_slots', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('availability', 'jsonb', (col) => col.notNull())
    .addColumn('party_size_min', 'integer', (col) =>
      col.notNull().check(sql`party_size_min between 1 and 1000`),
    )
    .addColumn('party_size_max', 'integer', (col) =>
      col.notNull().check(sql`party_size_max between 1 and 1000`),
    )
    .addColumn('pricing', 'jsonb')
    .addColumn('checkout', 'jsonb', (col) => col.notNull())
    .addColumn('policies', 'jsonb', (col) => col.notNull())
    .addColumn('delivery', 'jsonb', (col) => col.notNull())
    // `{ title, bodyText }` or null; the version is the count of text changes ever made, so a
    // removed and re-added agreement never reuses a version customers accepted.
    .addColumn('agreement', 'jsonb')
    .addColumn('agreement_version', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('metafields', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    // Lower-cased name and description, written by the service; searched by substring.
    .addColumn('search_text', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('booking_services_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('booking_services_slug_key', ['organization_id', 'slug'])
    .addForeignKeyConstraint('booking_services_item_fkey', ['organization_id', 'item_id'], 'items', [
      'organization_id',
      'id',
    ])
    .addCheckConstraint(
      'booking_services_archived_status',
      sql`(status = 'ARCHIVED') = (archived_at is not null)`,
    )
    .addCheckConstraint('booking_services_party_size', sql`party_size_min <= party_size_max`)
    .execute();
  // The merchant and public list order: sortOrder ascending, then createdAt and id descending.
  await sql`create index booking_services_list_idx on booking_services (organization_id, sort_order, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index booking_services_status_idx on booking_services (organization_id, status, sort_order, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index booking_services_search_trgm_idx on booking_services using gin (search_text gin_trgm_ops)`.execute(
    db,
  );

  await db.schema
    .createTable('booking_requirements')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('service_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('units_mode', 'text', (col) =>
      col.notNull().check(sql`units_mode in ('PER_BOOKING', 'PER_PARTICIPANT')`),
    )
    .addColumn('units_count', 'integer', (col) => col.check(sql`units_count between 1 and 100`))
    .addColumn('selection', 'text', (col) =>
      col.notNull().check(sql`selection in ('AUTO', 'OPTIONAL', 'REQUIRED')`),
    )
    .addColumn('allow_split', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('booking_requirements_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('booking_requirements_position_key', ['organization_id', 'service_id', 'position'])
    .addForeignKeyConstraint(
      'booking_requirements_service_fkey',
      ['organization_id', 'service_id'],
      'booking_services',
      ['organization_id', 'id'],
    )
    .addCheckConstraint(
      'booking_requirements_units',
      sql`(units_mode = 'PER_BOOKING') = (units_count is not null)`,
    )
    .execute();

  await db.schema
    .createTable('booking_requirement_resources')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('requirement_id', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('booking_requirement_resources_pkey', [
      'organization_id',
      'requirement_id',
      'resource_id',
    ])
    .addForeignKeyConstraint(
      'booking_requirement_resources_requirement_fkey',
      ['organization_id', 'requirement_id'],
      'booking_requirements',
      ['organization_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'booking_requirement_resources_resource_fkey',
      ['organization_id', 'resource_id'],
      'booking_resources',
      ['organization_id', 'id'],
    )
    .execute();
  await sql`create index booking_requirement_resources_resource_idx on booking_requirement_resources (organization_id, resource_id)`.execute(
    db,
  );

  await db.schema
    .createTable('booking_blackouts')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text', (col) => col.notNull())
    .addColumn('starts_at', 'timestamptz', (col) => col.notNull())
    .addColumn('ends_at', 'timestamptz', (col) => col.notNull())
    .addColumn('reason', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    // Removal keeps the row: its claim (released) still points at it.
    .addColumn('removed_at', 'timestamptz')
    .addPrimaryKeyConstraint('booking_blackouts_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'booking_blackouts_resource_fkey',
      ['organization_id', 'resource_id'],
      'booking_resources',
      ['organization_id', 'id'],
    )
    .addCheckConstraint('booking_blackouts_interval', sql`starts_at < ends_at`)
    .execute();

  // Holds: a claim of up to 30 minutes before conversion. `key_hash` is the SHA-256 of the
  // create's idempotency key, which proves possession for release and conversion; `client_key`
  // is the SHA-256 of the client address, for the active-holds limit (never the address itself).
  await db.schema
    .createTable('booking_holds')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('service_id', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('ACTIVE', 'CONVERTED', 'RELEASED', 'EXPIRED')`),
    )
    .addColumn('starts_at', 'timestamptz', (col) => col.notNull())
    .addColumn('ends_at', 'timestamptz', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity between 1 and 1000`))
    .addColumn('customer_email', sql`citext`, (col) => col.notNull())
    .addColumn('key_hash', 'text', (col) => col.notNull())
    .addColumn('client_key', 'text', (col) => col.notNull())
    // The service as held (timezone, requirements, pricing preview, assigned resources), a snapshot.
    .addColumn('snapshot', 'jsonb', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('booking_holds_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'booking_holds_service_fkey',
      ['organization_id', 'service_id'],
      'booking_services',
      ['organization_id', 'id'],
    )
    .addCheckConstraint('booking_holds_interval', sql`starts_at < ends_at`)
    .execute();
  // The active-holds limits (per client address, per customer email) and the expiry sweep.
  await sql`create index booking_holds_client_idx on booking_holds (organization_id, client_key, expires_at) where status = 'ACTIVE'`.execute(
    db,
  );
  await sql`create index booking_holds_email_idx on booking_holds (organization_id, customer_email, expires_at) where status = 'ACTIVE'`.execute(
    db,
  );
  await sql`create index booking_holds_expiry_idx on booking_holds (expires_at) where status = 'ACTIVE'`.execute(
    db,
  );

  await db.schema
    .createTable('booking_capacity_claims')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().check(sql`quantity between 1 and 10000`))
    .addColumn('during', sql`tstzrange`, (col) => col.notNull())
    // Epoch minutes of `during`, set by the trigger, for compact availability reads.
    .addColumn('start_minute', 'integer', (col) => col.notNull())
    .addColumn('end_minute', 'integer', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('released_at', 'timestamptz')
    .addColumn('hold_id', 'text')
    .addColumn('booking_id', 'text')
    .addColumn('blackout_id', 'text')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('booking_capacity_claims_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint(
      'booking_capacity_claims_resource_fkey',
      ['organization_id', 'resource_id'],
      'booking_resources',
      ['organization_id', 'id'],
    )
    .addForeignKeyConstraint(
      'booking_capacity_claims_hold_fkey',
      ['organization_id', 'hold_id'],
      'booking_holds',
      ['organization_id', 'id'],
    )
    .addForeignKeyConstraint(
      'booking_capacity_claims_blackout_fkey',
      ['organization_id', 'blackout_id'],
      'booking_blackouts',
      ['organization_id', 'id'],
    )
    .addCheckConstraint(
      'booking_capacity_claims_owner',
      sql`num_nonnulls(hold_id, booking_id, blackout_id) = 1`,
    )
    .addCheckConstraint(
      'booking_capacity_claims_during',
      sql`not isempty(during) and lower_inc(during) and not upper_inc(during) and not lower_inf(during) and not upper_inf(during)`,
    )
    .execute();
  // The live claims of a resource over an interval: the trigger's sweep and the availability read.
  await sql`create index booking_capacity_claims_live_idx on booking_capacity_claims using gist (organization_id, resource_id, during) where released_at is null`.execute(
    db,
  );
  for (const owner of ['hold_id', 'booking_id', 'blackout_id']) {
    await sql`create index ${sql.raw(`booking_capacity_claims_${owner}_idx`)} on booking_capacity_claims (organization_id, ${sql.raw(owner)}) where ${sql.raw(owner)} is not null`.execute(
      db,
    );
  }

  // The capacity check: claims are never edited, and are checked at READ COMMITTED only, under the
  // resource row's lock, at the claim clock `bookings.now`. A blackout takes the whole capacity
  // whatever it is now, so its claim counts as the resource's present capacity; every other claim
  // counts its quantity.
  await sql`
    create function booking_capacity_claims_check() returns trigger language plpgsql as $$
    declare
      claim_now timestamptz := coalesce(nullif(current_setting('bookings.now', true), '')::timestamptz, statement_timestamp());
      resource_capacity integer;
      claimed integer;
      peak integer;
    begin
      if tg_op = 'INSERT' then
        new.start_minute := floor(extract(epoch from lower(new.during)) / 60);
        new.end_minute := ceil(extract(epoch from upper(new.during)) / 60);
      elsif new.organization_id <> old.organization_id or new.resource_id <> old.resource_id
        or new.quantity <> old.quantity or new.during <> old.during
        or new.start_minute <> old.start_minute or new.end_minute <> old.end_minute then
        raise exception 'capacity claims are released, never edited' using errcode = '55000';
      end if;

      if new.released_at is not null or (new.expires_at is not null and new.expires_at <= claim_now) then
        return new;
      end if;
      if tg_op = 'UPDATE' and old.released_at is null and (old.expires_at is null or old.expires_at > claim_now) then
        -- Live before and after: it took its units when it became live.
        if new.expires_at is not distinct from old.expires_at or (old.expires_at is not null and new.expires_at is not null and new.expires_at <= old.expires_at) then
          return new;
        end if;
      end if;

      if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'capacity claims are written at READ COMMITTED only' using errcode = 'BK002';
      end if;

      select capacity into resource_capacity
        from booking_resources
        where organization_id = new.organization_id and id = new.resource_id
        for update;
      if not found then
        raise exception 'no such resource' using errcode = '23503';
      end if;
      claimed := case when new.blackout_id is null then new.quantity else resource_capacity end;

      select coalesce(max(running), 0) into peak from (
        select sum(delta) over (order by at, delta) as running
        from (
          select greatest(lower(c.during), lower(new.during)) as at,
                 case when c.blackout_id is null then c.quantity else resource_capacity end as delta
            from booking_capacity_claims c
            where c.organization_id = new.organization_id and c.resource_id = new.resource_id
              and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
              and c.during && new.during and c.id <> new.id
          union all
          select least(upper(c.during), upper(new.during)),
                 -(case when c.blackout_id is null then c.quantity else resource_capacity end)
            from booking_capacity_claims c
            where c.organization_id = new.organization_id and c.resource_id = new.resource_id
              and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
              and c.during && new.during and c.id <> new.id
        ) events
      ) sweep;

      if peak + claimed > resource_capacity then
        raise exception 'capacity unavailable' using errcode = 'BK001';
      end if;
      return new;
    end
    $$
  `.execute(db);
  await sql`
    create trigger booking_capacity_claims_check
      before insert or update on booking_capacity_claims
      for each row execute function booking_capacity_claims_check()
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists booking_capacity_claims_check on booking_capacity_claims`.execute(db);
  await sql`drop function if exists booking_capacity_claims_check()`.execute(db);
  for (const table of [
    'booking_capacity_claims',
    'booking_holds',
    'booking_blackouts',
    'booking_requirement_resources',
    'booking_requirements',
    'booking_services',
    'booking_resources',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

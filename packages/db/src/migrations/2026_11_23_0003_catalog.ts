import { type Kysely, sql } from 'kysely';

/**
 * Catalog, content, shipping configuration and signup capture. Every tenant
 * table keys on (organization_id, id); foreign keys to tenant rows carry the
 * organization, so a row can never point into another tenant.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('items')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('tags', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('RENTAL', 'SALE', 'SERVICE')`))
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('ACTIVE', 'DRAFT', 'ARCHIVED')`))
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('price_in_cents', 'integer', (col) => col.check(sql`price_in_cents >= 0`))
    .addColumn('metafields', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    // Lower-cased name, description and tags, written by the item service; searched by substring.
    .addColumn('search_text', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('items_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('items_slug_key', ['organization_id', 'slug'])
    .addCheckConstraint('items_archived_status', sql`(status = 'ARCHIVED') = (archived_at is not null)`)
    .execute();
  // The merchant list order: sortOrder ascending, then createdAt and id descending.
  await sql`create index items_list_idx on items (organization_id, sort_order, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index items_status_idx on items (organization_id, status, sort_order, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index items_search_trgm_idx on items using gin (search_text gin_trgm_ops)`.execute(db);

  // A package or kit: the parent item is made of components (an item is a composition candidate
  // when it has none).
  await db.schema
    .createTable('item_components')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('parent_item_id', 'text', (col) => col.notNull())
    .addColumn('component_item_id', 'text', (col) => col.notNull())
    .addColumn('quantity', 'integer', (col) => col.notNull().defaultTo(1).check(sql`quantity > 0`))
    .addPrimaryKeyConstraint('item_components_pkey', [
      'organization_id',
      'parent_item_id',
      'component_item_id',
    ])
    .addForeignKeyConstraint('item_components_parent_fkey', ['organization_id', 'parent_item_id'], 'items', [
      'organization_id',
      'id',
    ])
    .addForeignKeyConstraint(
      'item_components_component_fkey',
      ['organization_id', 'component_item_id'],
      'items',
      ['organization_id', 'id'],
    )
    .execute();

  await db.schema
    .createTable('variants')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('item_id', 'text', (col) => col.notNull())
    .addColumn('sku', 'text')
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('options', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('price_in_cents', 'integer', (col) => col.check(sql`price_in_cents >= 0`))
    .addColumn('sale_price_in_cents', 'integer', (col) => col.check(sql`sale_price_in_cents >= 0`))
    // Null means the variant's stock is not tracked.
    .addColumn('inventory_quantity', 'integer', (col) => col.check(sql`inventory_quantity >= 0`))
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('variants_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint('variants_item_fkey', ['organization_id', 'item_id'], 'items', [
      'organization_id',
      'id',
    ])
    .execute();
  await sql`create unique index variants_sku_key on variants (organization_id, sku) where sku is not null`.execute(
    db,
  );
  await sql`create index variants_item_idx on variants (organization_id, item_id, sort_order, created_at, id)`.execute(
    db,
  );

  await db.schema
    .createTable('collections')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('ACTIVE', 'DRAFT')`))
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('collections_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('collections_slug_key', ['organization_id', 'slug'])
    .execute();
  await sql`create index collections_list_idx on collections (organization_id, sort_order, created_at desc, id desc)`.execute(
    db,
  );

  await db.schema
    .createTable('collection_items')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('collection_id', 'text', (col) => col.notNull())
    .addColumn('item_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('collection_items_pkey', ['organization_id', 'collection_id', 'item_id'])
    .addForeignKeyConstraint(
      'collection_items_collection_fkey',
      ['organization_id', 'collection_id'],
      'collections',
      ['organization_id', 'id'],
    )
    .addForeignKeyConstraint('collection_items_item_fkey', ['organization_id', 'item_id'], 'items', [
      'organization_id',
      'id',
    ])
    .execute();
  await sql`create index collection_items_order_idx on collection_items (organization_id, collection_id, position)`.execute(
    db,
  );
  // The collectionIds decoration of an item list page.
  await sql`create index collection_items_item_idx on collection_items (organization_id, item_id)`.execute(
    db,
  );

  // Reviews are submitted pending and published by the merchant; lists and rating aggregates read
  // published rows only. One review per email and item.
  await db.schema
    .createTable('reviews')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('item_id', 'text', (col) => col.notNull())
    .addColumn('rating', 'integer', (col) => col.notNull().check(sql`rating between 1 and 5`))
    .addColumn('author_name', 'text', (col) => col.notNull())
    .addColumn('author_email', sql`citext`, (col) => col.notNull())
    .addColumn('title', 'text')
    .addColumn('body', 'text')
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('PENDING').check(sql`status in ('PENDING', 'PUBLISHED', 'REJECTED')`),
    )
    .addColumn('verified_purchase', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('moderated_by', 'text')
    .addColumn('moderated_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('reviews_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('reviews_author_key', ['organization_id', 'item_id', 'author_email'])
    .addForeignKeyConstraint('reviews_item_fkey', ['organization_id', 'item_id'], 'items', [
      'organization_id',
      'id',
    ])
    .execute();
  await sql`create index reviews_published_idx on reviews (organization_id, item_id, created_at desc, id desc) where status = 'PUBLISHED'`.execute(
    db,
  );
  await sql`create index reviews_moderation_idx on reviews (organization_id, status, created_at desc, id desc)`.execute(
    db,
  );

  // Back-in-stock subscriptions, one per (item, variant or none, email).
  await db.schema
    .createTable('stock_subscriptions')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('item_id', 'text', (col) => col.notNull())
    .addColumn('variant_id', 'text')
    .addColumn('email', sql`citext`, (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().defaultTo('ACTIVE').check(sql`status in ('ACTIVE', 'UNSUBSCRIBED')`),
    )
    .addColumn('unsubscribe_token_hash', 'text', (col) => col.notNull())
    .addColumn('last_notified_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('stock_subscriptions_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint('stock_subscriptions_item_fkey', ['organization_id', 'item_id'], 'items', [
      'organization_id',
      'id',
    ])
    .execute();
  await sql`create unique index stock_subscriptions_key on stock_subscriptions (organization_id, item_id, coalesce(variant_id, ''), email)`.execute(
    db,
  );
  await sql`create index stock_subscriptions_variant_idx on stock_subscriptions (organization_id, item_id, variant_id) where status = 'ACTIVE'`.execute(
    db,
  );
  await sql`create unique index stock_subscriptions_token_key on stock_subscriptions (unsubscribe_token_hash)`.execute(
    db,
  );

  await db.schema
    .createTable('pages')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('slug', 'text', (col) => col.notNull())
    .addColumn('title', 'text', (col) => col.notNull())
    // Sanitised HTML, as stored by the page service.
    .addColumn('content', 'text', (col) => col.notNull())
    .addColumn('excerpt', 'text')
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('PUBLISHED', 'DRAFT')`))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('published_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('pages_pkey', ['organization_id', 'id'])
    .addUniqueConstraint('pages_slug_key', ['organization_id', 'slug'])
    .execute();
  await sql`create index pages_list_idx on pages (organization_id, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable('shipping_zones')
    .addColumn('organization_id', 'text', (col) => col.notNull().references('organizations.id'))
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('countries', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('shipping_zones_pkey', ['organization_id', 'id'])
    .execute();
  await sql`create index shipping_zones_order_idx on shipping_zones (organization_id, sort_order, name, id)`.execute(
    db,
  );

  await db.schema
    .createTable('shipping_rates')
    .addColumn('organization_id', 'text', (col) => col.notNull())
    .addColumn('id', 'text', (col) => col.notNull())
    .addColumn('zone_id', 'text', (col) => col.notNull())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('price_in_cents', 'integer', (col) => col.notNull().check(sql`price_in_cents >= 0`))
    .addColumn('minimum_subtotal_in_cents', 'integer', (col) =>
      col.check(sql`minimum_subtotal_in_cents >= 0`),
    )
    .addColumn('estimated_delivery', 'text')
    .addColumn('sort_order', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('archived_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('shipping_rates_pkey', ['organization_id', 'id'])
    .addForeignKeyConstraint('shipping_rates_zone_fkey', ['organization_id', 'zone_id'], 'shipping_zones', [
      'organization_id',
      'id',
    ])
    .execute();
  await sql`create index shipping_rates_order_idx on shipping_rates (organization_id, zone_id, sort_order, name, id)`.execute(
    db,
  );

  // Self-serve signup requests for the platform operator: not tenant data (the organization does
  // not exist yet); the storefront that captured one is kept for reference.
  await db.schema
    .createTable('signup_requests')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('email', sql`citext`, (col) => col.notNull())
    .addColumn('name', 'text')
    .addColumn('company_name', 'text')
    .addColumn('website', 'text')
    .addColumn('message', 'text')
    .addColumn('source_organization_id', 'text', (col) => col.references('organizations.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index signup_requests_email_key on signup_requests (email)`.execute(db);
  await sql`create index signup_requests_recent_idx on signup_requests (created_at desc, id desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'signup_requests',
    'shipping_rates',
    'shipping_zones',
    'pages',
    'collection_items',
    'collections',
    'variants',
    'item_components',
    'stock_subscriptions',
    'reviews',
    'items',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}

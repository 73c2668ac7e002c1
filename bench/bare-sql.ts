/**
 * The SQL the gateway sends for each benchmarked route, as Kysely compiles
 * it, character for character: the bare server runs these texts, and the
 * catalog bench checks, before it measures, that the catalog services still
 * compile exactly them (`checkCatalogSql` in catalog.ts). A text that starts
 * with `/* prepared *\/` is one the gateway prepares once per connection on
 * PostgreSQL (`PREPARED_MARKER` in @commerce/db); the bare server does the same.
 */
export const SQL = {
  tenant:
    '/* prepared */ select "id", "slug", "name" from "organizations" where "slug" = $1 and "status" = $2',
  /**
   * The tenant and its public business profile: the organization read's one query (the gateway
   * keeps its tenants in memory instead, so it usually sends none).
   */
  tenantWithProfile:
    '/* prepared */ select "organizations"."id", "organizations"."slug", "organizations"."name", organization_settings.business_profile ->> \'displayName\' as "display_name", organization_settings.business_profile ->> \'logoUrl\' as "logo_url", organization_settings.business_profile ->> \'websiteUrl\' as "website_url", organization_settings.business_profile ->> \'locale\' as "locale" from "organizations" left join "organization_settings" on "organization_settings"."organization_id" = "organizations"."id" where "organizations"."slug" = $1 and "organizations"."status" = $2',
  user: 'select * from "merchant_users" where "subject" = $1',
  membership: 'select * from "memberships" where "organization_id" = $1 and "user_id" = $2 and "status" = $3',
  list: 'select "memberships".*, "merchant_users"."name" as "user_name" from "memberships" left join "merchant_users" on "merchant_users"."id" = "memberships"."user_id" where "memberships"."organization_id" = $1 order by "memberships"."created_at" asc, "memberships"."id" asc limit $2',
  /**
   * `listPublicItems` without filters or cursor: the page and its decorations in one statement.
   * Parameters: organization, 'ACTIVE', limit + 1, organization (three times).
   */
  publicItems: `/* prepared */ with page as (select "items"."organization_id", "items"."id", "items"."slug", "items"."name", "items"."description", "items"."tags", "items"."type", "items"."status", "items"."sort_order", "items"."price_in_cents", "items"."metafields", "items"."archived_at", "items"."created_at", "items"."updated_at" from "items" where "items"."organization_id" = $1 and "items"."status" = $2 and "items"."archived_at" is null order by "items"."sort_order", "items"."created_at" desc, "items"."id" desc limit $3)
    select page.*, (select min(coalesce(v.sale_price_in_cents, v.price_in_cents)) from variants v
        where v.organization_id = $4 and v.item_id = page.id and v.archived_at is null) as sale_price,
      r.rating_average, r.rating_count,
      (select json_agg(ci.collection_id order by c.sort_order, c.created_at desc, c.id desc)
        from collection_items ci
        join collections c on c.organization_id = ci.organization_id and c.id = ci.collection_id
        where ci.organization_id = $5 and ci.item_id = page.id and c.status = 'ACTIVE' and c.archived_at is null) as collection_ids
    from page cross join lateral (
      select avg(rv.rating) as rating_average, count(*) as rating_count from reviews rv
      where rv.organization_id = $6 and rv.item_id = page.id and rv.status = 'PUBLISHED'
    ) r order by page.sort_order, page.created_at desc, page.id desc`,
  /**
   * `getPublicItem`: the item, its decorations and its variants in one statement.
   * Parameters: organization, slug, 'ACTIVE', organization (four times).
   */
  publicItem: `/* prepared */ with page as (select "items"."organization_id", "items"."id", "items"."slug", "items"."name", "items"."description", "items"."tags", "items"."type", "items"."status", "items"."sort_order", "items"."price_in_cents", "items"."metafields", "items"."archived_at", "items"."created_at", "items"."updated_at" from "items" where "organization_id" = $1 and "slug" = $2 and "status" = $3 and "archived_at" is null)
    select page.*, (select min(coalesce(v.sale_price_in_cents, v.price_in_cents)) from variants v
        where v.organization_id = $4 and v.item_id = page.id and v.archived_at is null) as sale_price,
      r.rating_average, r.rating_count,
      (select json_agg(ci.collection_id order by c.sort_order, c.created_at desc, c.id desc)
        from collection_items ci
        join collections c on c.organization_id = ci.organization_id and c.id = ci.collection_id
        where ci.organization_id = $5 and ci.item_id = page.id and c.status = 'ACTIVE' and c.archived_at is null) as collection_ids, (select coalesce(json_agg(json_build_object(
        'id', v.id, 'sku', v.sku, 'name', v.name, 'options', v.options,
        'priceInCents', v.price_in_cents, 'salePriceInCents', v.sale_price_in_cents,
        'inStock', v.inventory_quantity is null or v.inventory_quantity > 0)
        order by v.sort_order, v.created_at, v.id), '[]')
      from variants v
      where v.organization_id = $6 and v.item_id = page.id and v.archived_at is null) as variants
    from page cross join lateral (
      select avg(rv.rating) as rating_average, count(*) as rating_count from reviews rv
      where rv.organization_id = $7 and rv.item_id = page.id and rv.status = 'PUBLISHED'
    ) r`,
} as const;

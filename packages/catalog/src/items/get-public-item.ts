import { type Database, prepared, withParameters } from '@commerce/db';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import {
  type DecorationColumns,
  decoratedPageQuery,
  toDecoratedItemRead,
} from '../decorations/decorate-items.ts';
import { itemNotFound } from './get-item.ts';
import {
  PUBLIC_ITEM_COLUMNS,
  type PublicItemDetailRead,
  type PublicItemRow,
  type PublicVariantRead,
  toPublicItemRead,
} from './item-read.ts';

type PublicItemDetailRow = PublicItemRow & DecorationColumns & { variants: PublicVariantRead[] };

/** The statement, built with these stand-ins for its two values. */
const ORGANIZATION = '\u0000organization';
const SLUG = '\u0000slug';

// Every storefront item page runs this one statement: it is compiled once, prepared once per
// PostgreSQL connection, and run with each request's values.
let compiled: CompiledQuery<PublicItemDetailRow> | undefined;

function publicItemQuery(db: Kysely<Database>, organizationId: string, slug: string) {
  const item = db
    .selectFrom('items')
    .select(PUBLIC_ITEM_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where('slug', '=', slug)
    .where('status', '=', 'ACTIVE')
    .where('archived_at', 'is', null);
  const variants = sql`(select coalesce(json_agg(json_build_object(
        'id', v.id, 'sku', v.sku, 'name', v.name, 'options', v.options,
        'priceInCents', v.price_in_cents, 'salePriceInCents', v.sale_price_in_cents,
        'inStock', v.inventory_quantity is null or v.inventory_quantity > 0)
        order by v.sort_order, v.created_at, v.id), '[]')
      from variants v
      where v.organization_id = ${organizationId} and v.item_id = page.id and v.archived_at is null) as variants`;
  return decoratedPageQuery<PublicItemRow & { variants: PublicVariantRead[] }>(organizationId, item, {
    publicOnly: true,
    extraColumns: variants,
  });
}

/**
 * A storefront item by slug with its non-archived variants: `ACTIVE` and
 * unarchived only; unknown, draft or archived is 404. The item, its
 * decorations and its variants (as a JSON array, already in the public
 * shape) come in one statement.
 */
export async function getPublicItem(
  db: Kysely<Database>,
  organizationId: string,
  slug: string,
): Promise<PublicItemDetailRead> {
  compiled ??= prepared(
    publicItemQuery(db, ORGANIZATION, SLUG).compile(db) as CompiledQuery<PublicItemDetailRow>,
  );
  const parameters = compiled.parameters.map((value) =>
    value === ORGANIZATION ? organizationId : value === SLUG ? slug : value,
  );
  const { rows } = await db.executeQuery(withParameters(compiled, parameters));
  const row = rows[0];
  if (!row) throw itemNotFound();
  return { ...toPublicItemRead(toDecoratedItemRead(row, { publicOnly: true })), variants: row.variants };
}

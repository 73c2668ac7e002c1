import { type Database, prepared } from '@commerce/db';
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import {
  type DecorateOptions,
  type DecorationColumns,
  decoratedPageQuery,
  PAGE_ITEM_ORDER,
} from '../decorations/decorate-items.ts';
import { afterItemCursor, type ItemCursor, inItemOrder } from './item-page.ts';
import { ITEM_COLUMNS, PUBLIC_ITEM_COLUMNS, type PublicItemRow } from './item-read.ts';
import { searchMatches } from './search.ts';

/**
 * How many items, in list order, a search looks through before it decides the
 * term is selective. A term that matches a page's worth among them is common:
 * walking the list-order index and filtering finds the page at once. One that
 * does not is selective: the trigram index finds its few matches, which are
 * then sorted.
 */
export const SEARCH_HEAD_ROWS = 2_000;

/**
 * One page of items (`limit + 1` rows, in list order, after `cursor`) from
 * `filtered` (the list's filters, without the search, order or limit), each
 * row with its decorations, in one statement, or two for a selective search.
 *
 * Left to itself, the planner chooses between the list-order index and the
 * trigram index from its estimate of how many items contain the term, which
 * comes from a sample: a rare term estimated at 1% walks and filters the
 * whole catalog (38 ms at 100,000 items, growing with the catalog). So a
 * search first looks only at the first `SEARCH_HEAD_ROWS` items in order; if
 * they hold a page of matches, that is the page. Otherwise it asks again with
 * an order the list-order index cannot serve (`sort_order + 0`, the same
 * order), which leaves the trigram index as the way to the matches.
 */
export async function decoratedItemPage<Row extends PublicItemRow>(
  db: Kysely<Database>,
  organizationId: string,
  filtered: SelectQueryBuilder<Database, 'items', Row>,
  page: { cursor: ItemCursor | undefined; limit: number; search: string | undefined },
  options: DecorateOptions = {},
): Promise<(Row & DecorationColumns)[]> {
  const decorated = (query: Parameters<typeof decoratedPageQuery>[1], prepare = false) => {
    const compiled = decoratedPageQuery<Row>(organizationId, query, {
      ...options,
      orderBy: PAGE_ITEM_ORDER,
    }).compile(db);
    return db.executeQuery(prepare ? prepared(compiled) : compiled);
  };
  const { cursor, limit, search } = page;
  // A page without a search is prepared: its text is one of a few shapes (which filters, whether
  // a cursor), never longer with the data, so each connection holds a handful of them at most.
  if (!search) return (await decorated(inItemOrder(filtered, organizationId, cursor, limit), true)).rows;

  const head = inItemOrder(
    filtered.select('items.search_text'),
    organizationId,
    cursor,
    SEARCH_HEAD_ROWS - 1,
  );
  // The columns `filtered` selects: public pages do not load the merchant-only ones.
  const selected = options.publicOnly === true ? PUBLIC_ITEM_COLUMNS : ITEM_COLUMNS;
  const columns = sql.join(selected.map((column) => sql.ref(column.replace(/^items\./, 'head.'))));
  const fromHead = await decorated(
    sql`(select ${columns} from ${head} as head where ${searchMatches(search, 'head')}
      order by head.sort_order, head.created_at desc, head.id desc limit ${limit + 1})`,
  );
  if (fromHead.rows.length > limit) return fromHead.rows;

  const selective = afterItemCursor(filtered.where(searchMatches(search)), organizationId, cursor)
    .orderBy(sql`items.sort_order + 0`)
    .orderBy('items.created_at', 'desc')
    .orderBy('items.id', 'desc')
    .limit(limit + 1);
  return (await decorated(selective)).rows;
}

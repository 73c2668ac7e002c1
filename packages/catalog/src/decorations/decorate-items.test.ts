import { ManualClock } from '@commerce/core';
import type { Database, DatabaseHandle, Item } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import type { Kysely, KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, itemContext, seedItem } from '../../test/items.ts';
import { decorateItems } from './decorate-items.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

/** The database handle with a counter of the statements it runs. */
function counting(db: Kysely<Database>) {
  const counter = { queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      counter.queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), counter };
}

const rowsOf = (organizationId: string, ids: string[]) =>
  handle.db
    .selectFrom('items')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute()
    .then((rows) => ids.map((id) => rows.find((row) => row.id === id)!));

let sequence = 0;
async function addVariant(
  organizationId: string,
  itemId: string,
  prices: { price: number | null; sale: number | null },
  archived = false,
) {
  sequence += 1;
  await handle.db
    .insertInto('variants')
    .values({
      organization_id: organizationId,
      id: `var_deco_${sequence}`,
      item_id: itemId,
      name: `Variant ${sequence}`,
      price_in_cents: prices.price,
      sale_price_in_cents: prices.sale,
      inventory_quantity: null,
      archived_at: archived ? clock.now() : null,
      created_at: clock.now(),
      updated_at: clock.now(),
    })
    .execute();
}

async function addReview(
  organizationId: string,
  itemId: string,
  rating: number,
  status: 'PUBLISHED' | 'PENDING' | 'REJECTED',
) {
  sequence += 1;
  await handle.db
    .insertInto('reviews')
    .values({
      organization_id: organizationId,
      id: `rev_deco_${sequence}`,
      item_id: itemId,
      rating,
      author_name: 'Reviewer',
      author_email: `reviewer${sequence}@shop.test`,
      title: null,
      body: null,
      status,
      moderated_by: null,
      moderated_at: null,
      created_at: clock.now(),
    })
    .execute();
}

async function addCollection(
  organizationId: string,
  options: { sortOrder: number; status: 'ACTIVE' | 'DRAFT'; archived?: boolean },
  itemIds: string[],
) {
  sequence += 1;
  const id = `col_deco_${sequence}`;
  await handle.db
    .insertInto('collections')
    .values({
      organization_id: organizationId,
      id,
      slug: `collection-${sequence}`,
      name: 'Collection',
      status: options.status,
      sort_order: options.sortOrder,
      archived_at: options.archived ? clock.now() : null,
      created_at: clock.now(),
      updated_at: clock.now(),
    })
    .execute();
  for (const [position, item_id] of itemIds.entries()) {
    await handle.db
      .insertInto('collection_items')
      .values({ organization_id: organizationId, collection_id: id, item_id, position })
      .execute();
  }
  return id;
}

describe('decorateItems', () => {
  it('computes the sale price, rating and collections of each item', async () => {
    const organizationId = await insertOrganization(handle.db, 'decorations');
    const ctx = itemContext(organizationId, clock.now());
    const [bare, priced, reviewed] = await Promise.all([
      seedItem(handle.db, ctx),
      seedItem(handle.db, ctx),
      seedItem(handle.db, ctx),
    ]);
    // Lowest of (sale price, else price) over non-archived variants; an archived one does not count.
    await addVariant(organizationId, priced!.id, { price: 2000, sale: 1500 });
    await addVariant(organizationId, priced!.id, { price: 1800, sale: null });
    await addVariant(organizationId, priced!.id, { price: 900, sale: 100 }, true);
    await addVariant(organizationId, priced!.id, { price: null, sale: null });
    // Published reviews only: 5, 4, 4 → 4.33; pending and rejected ones do not count.
    for (const rating of [5, 4, 4]) await addReview(organizationId, reviewed!.id, rating, 'PUBLISHED');
    await addReview(organizationId, reviewed!.id, 1, 'PENDING');
    await addReview(organizationId, reviewed!.id, 1, 'REJECTED');
    const second = await addCollection(organizationId, { sortOrder: 2, status: 'ACTIVE' }, [
      reviewed!.id,
      priced!.id,
    ]);
    const first = await addCollection(organizationId, { sortOrder: 1, status: 'ACTIVE' }, [reviewed!.id]);
    const draft = await addCollection(organizationId, { sortOrder: 0, status: 'DRAFT' }, [reviewed!.id]);
    const archived = await addCollection(organizationId, { sortOrder: 0, status: 'ACTIVE', archived: true }, [
      reviewed!.id,
    ]);
    const rows = await rowsOf(organizationId, [bare!.id, priced!.id, reviewed!.id]);

    const merchant = await decorateItems(handle.db, organizationId, rows);
    const shopper = await decorateItems(handle.db, organizationId, rows, { publicOnly: true });

    const pick = ({
      salePriceInCents,
      ratingAverage,
      ratingCount,
      collectionIds,
    }: (typeof merchant)[number]) => ({
      salePriceInCents,
      ratingAverage,
      ratingCount,
      collectionIds,
    });
    expect(merchant.map(pick)).toEqual([
      { salePriceInCents: null, ratingAverage: null, ratingCount: 0, collectionIds: [] },
      { salePriceInCents: 1500, ratingAverage: null, ratingCount: 0, collectionIds: [second] },
      { salePriceInCents: null, ratingAverage: 4.33, ratingCount: 3, collectionIds: expect.any(Array) },
    ]);
    // Collection order: sortOrder first; the draft and the archived one only for the merchant.
    expect(merchant[2]!.collectionIds.slice(0, 2).sort()).toEqual([archived, draft].sort());
    expect(merchant[2]!.collectionIds.slice(2)).toEqual([first, second]);
    expect(shopper.map(pick)[2]).toEqual({
      salePriceInCents: null,
      ratingAverage: 4.33,
      ratingCount: 3,
      collectionIds: [first, second],
    });
    expect(merchant.map((item) => item.id)).toEqual(rows.map((row) => row.id));
  });

  it('ignores rows of another organization that name the same item ids', async () => {
    const organizationId = await insertOrganization(handle.db, 'decorations');
    const other = await insertOrganization(handle.db, 'decorations');
    const item = await seedItem(handle.db, itemContext(organizationId, clock.now()));
    // The same id in another organization (ids are unique per organization only).
    await handle.db
      .insertInto('items')
      .values({
        organization_id: other,
        id: item.id,
        slug: 'copy',
        name: 'Copy',
        type: 'SALE',
        status: 'ACTIVE',
        archived_at: null,
        price_in_cents: null,
        description: null,
        created_at: clock.now(),
        updated_at: clock.now(),
      })
      .execute();
    await addVariant(other, item.id, { price: 5, sale: null });
    await addReview(other, item.id, 5, 'PUBLISHED');
    await addCollection(other, { sortOrder: 0, status: 'ACTIVE' }, [item.id]);

    const [decorated] = await decorateItems(
      handle.db,
      organizationId,
      await rowsOf(organizationId, [item.id]),
    );

    expect(decorated).toMatchObject({
      salePriceInCents: null,
      ratingAverage: null,
      ratingCount: 0,
      collectionIds: [],
    });
  });

  it('runs exactly one query whatever the page size, and none for an empty page', async () => {
    const organizationId = await insertOrganization(handle.db, 'decorations');
    const ctx = itemContext(organizationId, clock.now());
    const items: Item[] = [];
    for (let index = 0; index < 40; index++) {
      const item = await seedItem(handle.db, ctx);
      await addVariant(organizationId, item.id, { price: 100 + index, sale: null });
      await addReview(organizationId, item.id, 1 + (index % 5), 'PUBLISHED');
      items.push(...(await rowsOf(organizationId, [item.id])));
    }
    await addCollection(
      organizationId,
      { sortOrder: 0, status: 'ACTIVE' },
      items.map((item) => item.id),
    );

    for (const size of [1, 10, 40]) {
      const { db, counter } = counting(handle.db);
      const decorated = await decorateItems(db, organizationId, items.slice(0, size));
      expect(counter.queries, `page of ${size}`).toBe(1);
      expect(decorated).toHaveLength(size);
      expect(decorated.every((item) => item.ratingCount === 1 && item.collectionIds.length === 1)).toBe(true);
    }
    const { db, counter } = counting(handle.db);
    expect(await decorateItems(db, organizationId, [])).toEqual([]);
    expect(counter.queries).toBe(0);
  });
});

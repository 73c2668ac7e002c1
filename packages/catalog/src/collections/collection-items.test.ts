import { ManualClock, pageQuerySchema } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditRows,
  createTestShop,
  insertItem,
  insertItems,
  membersOf,
  outcomes,
  rejectionOf,
  type TestShop,
} from '../../test/collections.ts';
import { itemSchema } from '../items/item-read.ts';
import { addCollectionItems } from './add-collection-items.ts';
import { archiveCollection } from './archive-collection.ts';
import { createCollection } from './create-collection.ts';
import { getCollection } from './get-collection.ts';
import { listCollectionItems } from './list-collection-items.ts';
import { removeCollectionItem } from './remove-collection-item.ts';
import { reorderCollectionItems } from './reorder-collection-items.ts';
import { addCollectionItemsInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-24T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

let collectionSequence = 0;
async function shopWithCollection(): Promise<{ shop: TestShop; collectionId: string }> {
  const shop = await createTestShop(handle.db, clock, 'mem');
  collectionSequence += 1;
  const collection = await createCollection(handle.db, shop.ctx(), {
    name: 'Featured',
    slug: `featured-${collectionSequence}`,
    status: 'ACTIVE',
  });
  return { shop, collectionId: collection.id };
}

const memberIds = async (shop: TestShop, collectionId: string) =>
  (await membersOf(handle.db, shop.id, collectionId)).map((row) => row.item_id);

describe('addCollectionItems', () => {
  it('appends new items at the end in the order sent, skips present ones and repeated ids, and audits the appended', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const [a, b, c, d] = await insertItems(handle.db, shop.id, 4);

    const first = await addCollectionItems(handle.db, shop.ctx(), collectionId, [b!, a!]);
    clock.advance(1000);
    const second = await addCollectionItems(handle.db, shop.ctx(), collectionId, [d!, a!, c!, d!]);

    expect(first).toEqual({ addedItemIds: [b, a], skippedItemIds: [], itemCount: 2 });
    expect(second).toEqual({ addedItemIds: [d, c], skippedItemIds: [a], itemCount: 4 });
    expect(await membersOf(handle.db, shop.id, collectionId)).toEqual([
      { item_id: b, position: 0 },
      { item_id: a, position: 1 },
      { item_id: d, position: 2 },
      { item_id: c, position: 3 },
    ]);
    expect((await getCollection(handle.db, shop.id, collectionId)).itemCount).toBe(4);
    const audit = await auditRows(handle.db, shop.id, 'collection.items_added');
    expect(audit.map((row) => [row.target_id, row.metadata])).toEqual([
      [collectionId, { itemIds: [b, a] }],
      [collectionId, { itemIds: [d, c] }],
    ]);
  });

  it('records nothing when every item is already there', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const [a] = await insertItems(handle.db, shop.id, 1);
    await addCollectionItems(handle.db, shop.ctx(), collectionId, [a!]);

    const again = await addCollectionItems(handle.db, shop.ctx(), collectionId, [a!]);

    expect(again).toEqual({ addedItemIds: [], skippedItemIds: [a], itemCount: 1 });
    expect(await auditRows(handle.db, shop.id, 'collection.items_added')).toHaveLength(1);
  });

  it('accepts items of any status, archived included', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const draft = await insertItem(handle.db, shop.id, { status: 'DRAFT' });
    const archived = await insertItem(handle.db, shop.id, { status: 'ARCHIVED' });

    const added = await addCollectionItems(handle.db, shop.ctx(), collectionId, [draft.id, archived.id]);

    expect(added.addedItemIds).toEqual([draft.id, archived.id]);
  });

  it('refuses unknown and foreign item ids with one issue each, adding nothing', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const other = await createTestShop(handle.db, clock, 'mem');
    const [mine] = await insertItems(handle.db, shop.id, 1);
    const [foreign] = await insertItems(handle.db, other.id, 1);

    const error = await rejectionOf(
      addCollectionItems(handle.db, shop.ctx(), collectionId, [mine!, 'itm_unknown', foreign!]),
    );

    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details?.issues?.map((issue) => issue.path)).toEqual(['itemIds.1', 'itemIds.2']);
    expect(await memberIds(shop, collectionId)).toEqual([]);
    expect(await auditRows(handle.db, shop.id, 'collection.')).toHaveLength(1);
  });

  it('is 404 for an unknown collection or another tenant’s, even with valid items', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const other = await createTestShop(handle.db, clock, 'mem');
    const [theirs] = await insertItems(handle.db, other.id, 1);

    expect(
      await rejectionOf(addCollectionItems(handle.db, other.ctx(), collectionId, [theirs!])),
    ).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect(
      await rejectionOf(addCollectionItems(handle.db, shop.ctx(), 'col_unknown', [theirs!])),
    ).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('bounds itemIds to 1–500 at the edge', () => {
    const parse = (itemIds: unknown) => addCollectionItemsInputSchema.safeParse({ id: 'col_x', itemIds });
    expect(parse([]).success).toBe(false);
    expect(parse(Array.from({ length: 500 }, (_, i) => `itm_${i}`)).success).toBe(true);
    expect(parse(Array.from({ length: 501 }, (_, i) => `itm_${i}`)).success).toBe(false);
    expect(parse(['']).success).toBe(false);
    expect(parse(['x'.repeat(65)]).success).toBe(false);
  });

  it('never gives two members one position nor adds an item twice under concurrent appends', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const ids = await insertItems(handle.db, shop.id, 24);
    // Eight appends of overlapping batches of six: item k appears in several batches.
    const batches = Array.from({ length: 8 }, (_, n) => ids.slice(n * 2, n * 2 + 6).concat(ids[0]!));

    const results = await outcomes(
      batches.map((batch) => addCollectionItems(handle.db, shop.ctx(), collectionId, batch)),
    );

    expect(results).toEqual(Array(8).fill('ok'));
    const members = await membersOf(handle.db, shop.id, collectionId);
    const expected = new Set(batches.flat());
    expect(members).toHaveLength(expected.size);
    expect(new Set(members.map((row) => row.item_id))).toEqual(expected);
    expect(new Set(members.map((row) => row.position)).size).toBe(members.length);
    // One audit per append that added something; together they name each member once.
    const audited = (await auditRows(handle.db, shop.id, 'collection.items_added')).flatMap(
      (row) => (row.metadata as { itemIds: string[] }).itemIds,
    );
    expect(audited.sort()).toEqual([...expected].sort());
  });
});

describe('removeCollectionItem', () => {
  it('answers removed 1 then 0, keeps the others in order, and audits once', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const [a, b, c] = await insertItems(handle.db, shop.id, 3);
    await addCollectionItems(handle.db, shop.ctx(), collectionId, [a!, b!, c!]);

    expect(await removeCollectionItem(handle.db, shop.ctx(), collectionId, b!)).toEqual({ removed: 1 });
    expect(await removeCollectionItem(handle.db, shop.ctx(), collectionId, b!)).toEqual({ removed: 0 });
    expect(await removeCollectionItem(handle.db, shop.ctx(), collectionId, 'itm_unknown')).toEqual({
      removed: 0,
    });

    expect(await memberIds(shop, collectionId)).toEqual([a, c]);
    const audit = await auditRows(handle.db, shop.id, 'collection.item_removed');
    expect(audit.map((row) => row.metadata)).toEqual([{ itemId: b }]);

    // Appending after a removal still goes to the end.
    const [d] = await insertItems(handle.db, shop.id, 1);
    await addCollectionItems(handle.db, shop.ctx(), collectionId, [d!, b!]);
    expect(await memberIds(shop, collectionId)).toEqual([a, c, d, b]);
  });

  it('is 404 for an unknown collection or another tenant’s', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const other = await createTestShop(handle.db, clock, 'mem');
    const [a] = await insertItems(handle.db, shop.id, 1);
    await addCollectionItems(handle.db, shop.ctx(), collectionId, [a!]);

    expect(await rejectionOf(removeCollectionItem(handle.db, other.ctx(), collectionId, a!))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(await memberIds(shop, collectionId)).toEqual([a]);
  });
});

describe('reorderCollectionItems', () => {
  it('sets position = index for exactly the current member set and audits it', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const [a, b, c] = await insertItems(handle.db, shop.id, 3);
    await addCollectionItems(handle.db, shop.ctx(), collectionId, [a!, b!, c!]);

    expect(await reorderCollectionItems(handle.db, shop.ctx(), collectionId, [c!, a!, b!])).toEqual({
      itemIds: [c, a, b],
    });

    expect(await membersOf(handle.db, shop.id, collectionId)).toEqual([
      { item_id: c, position: 0 },
      { item_id: a, position: 1 },
      { item_id: b, position: 2 },
    ]);
    expect(
      (await auditRows(handle.db, shop.id, 'collection.items_reordered')).map((row) => row.metadata),
    ).toEqual([{ count: 3, changed: 3 }]);

    // The same order again moves nothing and records nothing.
    await reorderCollectionItems(handle.db, shop.ctx(), collectionId, [c!, a!, b!]);
    expect(await auditRows(handle.db, shop.id, 'collection.items_reordered')).toHaveLength(1);
  });

  it('refuses a missing member, a duplicate, a non-member and a foreign id, changing nothing', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const other = await createTestShop(handle.db, clock, 'mem');
    const [a, b, outsider] = await insertItems(handle.db, shop.id, 3);
    const [foreign] = await insertItems(handle.db, other.id, 1);
    await addCollectionItems(handle.db, shop.ctx(), collectionId, [a!, b!]);

    const cases: [string[], string[]][] = [
      [[b!], ['itemIds']],
      [[b!, a!, b!], ['itemIds.2']],
      [[b!, a!, outsider!], ['itemIds.2']],
      [
        [b!, foreign!],
        ['itemIds.1', 'itemIds'],
      ],
      [[], ['itemIds']],
    ];
    for (const [itemIds, paths] of cases) {
      const error = await rejectionOf(reorderCollectionItems(handle.db, shop.ctx(), collectionId, itemIds));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details?.issues?.map((issue) => issue.path)).toEqual(paths);
    }
    expect(await memberIds(shop, collectionId)).toEqual([a, b]);
  });

  it('accepts an empty order for an empty collection', async () => {
    const { shop, collectionId } = await shopWithCollection();
    expect(await reorderCollectionItems(handle.db, shop.ctx(), collectionId, [])).toEqual({ itemIds: [] });
  });

  it('serialises with concurrent appends: a reorder of the old set after an append is refused, never half-applied', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const [a, b, c] = await insertItems(handle.db, shop.id, 3);
    await addCollectionItems(handle.db, shop.ctx(), collectionId, [a!, b!]);

    const results = await outcomes([
      addCollectionItems(handle.db, shop.ctx(), collectionId, [c!]),
      reorderCollectionItems(handle.db, shop.ctx(), collectionId, [b!, a!]),
    ]);

    const members = await membersOf(handle.db, shop.id, collectionId);
    expect(results[0]).toBe('ok');
    if (results[1] === 'ok') {
      // The reorder ran first: c was appended after it, at the end.
      expect(members.map((row) => row.item_id)).toEqual([b, a, c]);
    } else {
      expect(results[1]).toBe('VALIDATION_FAILED');
      expect(members.map((row) => row.item_id)).toEqual([a, b, c]);
    }
    expect(new Set(members.map((row) => row.position)).size).toBe(3);
  });
});

describe('listCollectionItems', () => {
  it('lists every member in the collection’s order, decorated, paged by item id', async () => {
    const { shop, collectionId } = await shopWithCollection();
    const active = await insertItem(handle.db, shop.id, { name: 'Active' });
    const draft = await insertItem(handle.db, shop.id, { status: 'DRAFT', name: 'Draft' });
    const archived = await insertItem(handle.db, shop.id, { status: 'ARCHIVED', name: 'Archived' });
    await addCollectionItems(handle.db, shop.ctx(), collectionId, [archived.id, active.id, draft.id]);
    await archiveCollection(handle.db, shop.ctx(), collectionId);

    const page = (input: Record<string, unknown>) =>
      listCollectionItems(handle.db, shop.id, collectionId, pageQuerySchema.parse(input));
    const all = await page({});
    expect(all.data.map((item) => item.name)).toEqual(['Archived', 'Active', 'Draft']);
    expect(all.nextCursor).toBeNull();
    for (const item of all.data) {
      expect(itemSchema.parse(item)).toEqual(item);
      expect(item.collectionIds).toEqual([collectionId]);
    }

    const first = await page({ limit: 2 });
    expect(first.data.map((item) => item.id)).toEqual([archived.id, active.id]);
    expect(first.nextCursor).toBe(active.id);
    const second = await page({ limit: 2, cursor: first.nextCursor });
    expect(second.data.map((item) => item.id)).toEqual([draft.id]);
    expect(second.nextCursor).toBeNull();

    expect(await rejectionOf(page({ cursor: 'itm_not_a_member' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('is 404 for another tenant’s collection', async () => {
    const { collectionId } = await shopWithCollection();
    const other = await createTestShop(handle.db, clock, 'mem');
    expect(
      await rejectionOf(listCollectionItems(handle.db, other.id, collectionId, pageQuerySchema.parse({}))),
    ).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });
});

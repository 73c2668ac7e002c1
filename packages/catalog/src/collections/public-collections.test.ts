import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestShop, insertItem, rejectionOf, type TestShop } from '../../test/collections.ts';
import { publicItemSchema } from '../items/item-read.ts';
import { addCollectionItems } from './add-collection-items.ts';
import { archiveCollection, restoreCollection } from './archive-collection.ts';
import { createCollection } from './create-collection.ts';
import {
  getPublicCollection,
  listPublicCollectionItems,
  listPublicCollections,
} from './public-collections.ts';
import { reorderCollectionItems } from './reorder-collection-items.ts';
import {
  type CreateCollectionInput,
  publicCollectionItemsQuerySchema,
  publicCollectionListQuerySchema,
  publicCollectionSchema,
} from './schemas.ts';
import { updateCollection } from './update-collection.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-24T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

const shop = () => createTestShop(handle.db, clock, 'pub');
const create = (owner: TestShop, slug: string, extra: Partial<CreateCollectionInput> = {}) => {
  clock.advance(1000);
  return createCollection(handle.db, owner.ctx(), { name: `Name ${slug}`, slug, status: 'ACTIVE', ...extra });
};
const listQuery = (input: Record<string, unknown> = {}) => publicCollectionListQuerySchema.parse(input);
const itemsOf = (owner: TestShop, slug: string, input: Record<string, unknown> = {}) => {
  const { limit, cursor } = publicCollectionItemsQuerySchema.parse({ slug, ...input });
  return listPublicCollectionItems(handle.db, owner.id, slug, { limit, cursor });
};

describe('listPublicCollections', () => {
  it('lists ACTIVE, non-archived collections of the tenant in collection order, paged by id', async () => {
    const owner = await shop();
    const other = await shop();
    const first = await create(owner, 'first', { sortOrder: 0 });
    const second = await create(owner, 'second', { sortOrder: 1 });
    const newest = await create(owner, 'newest', { sortOrder: 0 });
    await create(owner, 'draft', { status: 'DRAFT' });
    const archived = await create(owner, 'archived');
    await archiveCollection(handle.db, owner.ctx(), archived.id);
    await create(other, 'foreign');

    const all = await listPublicCollections(handle.db, owner.id, listQuery());
    expect(all.map((row) => row.slug)).toEqual(['newest', 'first', 'second']);
    for (const row of all) expect(publicCollectionSchema.parse(row)).toEqual(row);
    expect(Object.keys(all[0]!)).not.toContain('status');

    const page1 = await listPublicCollections(handle.db, owner.id, listQuery({ limit: '2' }));
    expect(page1.map((row) => row.id)).toEqual([newest.id, first.id]);
    const page2 = await listPublicCollections(
      handle.db,
      owner.id,
      listQuery({ limit: '2', cursor: first.id }),
    );
    expect(page2.map((row) => row.id)).toEqual([second.id]);

    // Restoring brings an ACTIVE collection back at once; a DRAFT one stays hidden.
    await restoreCollection(handle.db, owner.ctx(), archived.id);
    expect((await listPublicCollections(handle.db, owner.id, listQuery())).map((row) => row.slug)).toContain(
      'archived',
    );
  });

  it('counts only the items a shopper sees', async () => {
    const owner = await shop();
    const collection = await create(owner, 'counted');
    const items = [
      await insertItem(handle.db, owner.id),
      await insertItem(handle.db, owner.id, { status: 'DRAFT' }),
      await insertItem(handle.db, owner.id, { status: 'ARCHIVED' }),
    ];
    await addCollectionItems(
      handle.db,
      owner.ctx(),
      collection.id,
      items.map((item) => item.id),
    );

    expect((await listPublicCollections(handle.db, owner.id, listQuery()))[0]?.itemCount).toBe(1);
    expect((await getPublicCollection(handle.db, owner.id, 'counted')).itemCount).toBe(1);
  });
});

describe('getPublicCollection', () => {
  it('answers an ACTIVE collection and the same 404 for unknown, DRAFT, archived and foreign slugs', async () => {
    const owner = await shop();
    const other = await shop();
    await create(owner, 'live');
    await create(owner, 'draft', { status: 'DRAFT' });
    const archived = await create(owner, 'archived');
    await archiveCollection(handle.db, owner.ctx(), archived.id);
    await create(other, 'theirs');

    expect((await getPublicCollection(handle.db, owner.id, 'live')).slug).toBe('live');
    for (const slug of ['nope', 'draft', 'archived', 'theirs']) {
      const error = await rejectionOf(getPublicCollection(handle.db, owner.id, slug));
      expect(error, slug).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    }
  });
});

describe('listPublicCollectionItems', () => {
  it('lists ACTIVE items in the collection order, hides DRAFT and archived ones, decorates publicly', async () => {
    const owner = await shop();
    const collection = await create(owner, 'featured');
    const hidden = await create(owner, 'hidden', { status: 'DRAFT' });
    const a = await insertItem(handle.db, owner.id, { name: 'A' });
    const draft = await insertItem(handle.db, owner.id, { status: 'DRAFT' });
    const b = await insertItem(handle.db, owner.id, { name: 'B' });
    const archived = await insertItem(handle.db, owner.id, { status: 'ARCHIVED' });
    const c = await insertItem(handle.db, owner.id, { name: 'C' });
    await addCollectionItems(handle.db, owner.ctx(), collection.id, [
      a.id,
      draft.id,
      b.id,
      archived.id,
      c.id,
    ]);
    await addCollectionItems(handle.db, owner.ctx(), hidden.id, [a.id]);
    await reorderCollectionItems(handle.db, owner.ctx(), collection.id, [
      c.id,
      archived.id,
      b.id,
      draft.id,
      a.id,
    ]);
    await handle.db
      .updateTable('items')
      .set({ metafields: JSON.stringify({ __archivedFromStatus: 'DRAFT', color: 'red' }) })
      .where('id', '=', b.id)
      .execute();

    const items = await itemsOf(owner, 'featured');
    expect(items.map((item) => item.name)).toEqual(['C', 'B', 'A']);
    for (const item of items) expect(publicItemSchema.parse(item)).toEqual(item);
    // The service's reserved metafields never reach a shopper.
    expect(items.find((item) => item.id === b.id)?.metafields).toEqual({ color: 'red' });
    // The DRAFT collection is not among a shopper's collectionIds.
    expect(items.find((item) => item.id === a.id)?.collectionIds).toEqual([collection.id]);

    const page1 = await itemsOf(owner, 'featured', { limit: '2' });
    expect(page1.map((item) => item.id)).toEqual([c.id, b.id]);
    const page2 = await itemsOf(owner, 'featured', { limit: '2', cursor: b.id });
    expect(page2.map((item) => item.id)).toEqual([a.id]);
    // A hidden member is still a valid cursor: the order resumes after its position.
    const afterHidden = await itemsOf(owner, 'featured', { cursor: archived.id });
    expect(afterHidden.map((item) => item.id)).toEqual([b.id, a.id]);
    expect(await rejectionOf(itemsOf(owner, 'featured', { cursor: 'itm_nope' }))).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('answers [] for a DRAFT or archived collection, and 404 for an unknown or foreign slug', async () => {
    const owner = await shop();
    const other = await shop();
    const item = await insertItem(handle.db, owner.id);
    const draft = await create(owner, 'draft', { status: 'DRAFT' });
    const archived = await create(owner, 'archived');
    const theirs = await create(other, 'theirs');
    const theirItem = await insertItem(handle.db, other.id);
    await addCollectionItems(handle.db, owner.ctx(), draft.id, [item.id]);
    await addCollectionItems(handle.db, owner.ctx(), archived.id, [item.id]);
    await addCollectionItems(handle.db, other.ctx(), theirs.id, [theirItem.id]);
    await archiveCollection(handle.db, owner.ctx(), archived.id);

    for (const slug of ['draft', 'archived']) {
      expect(await itemsOf(owner, slug), slug).toEqual([]);
    }
    for (const slug of ['nope', 'theirs']) {
      expect(await rejectionOf(itemsOf(owner, slug)), slug).toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    }

    // Publishing the draft shows its items.
    await updateCollection(handle.db, owner.ctx(), draft.id, { status: 'ACTIVE' });
    expect((await itemsOf(owner, 'draft')).map((row) => row.id)).toEqual([item.id]);
  });
});

import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, itemContext, seedItem } from '../../test/items.ts';
import { archiveItem } from './archive-item.ts';
import { getItem } from './get-item.ts';
import { getPublicItem } from './get-public-item.ts';
import { listPublicItems } from './list-public-items.ts';
import { resolvePublicItems } from './resolve-public-items.ts';
import { publicItemListQuerySchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

/** An organization with one item in each visibility state, and a foreign ACTIVE item. */
async function storefront() {
  const organizationId = await insertOrganization(handle.db);
  const ctx = () => itemContext(organizationId, clock.now());
  const active = await seedItem(handle.db, ctx(), {
    slug: 'active',
    status: 'ACTIVE',
    sortOrder: 1,
    metafields: { care: 'hand wash' },
  });
  const second = await seedItem(handle.db, ctx(), {
    slug: 'second',
    status: 'ACTIVE',
    sortOrder: 2,
    type: 'RENTAL',
  });
  const draft = await seedItem(handle.db, ctx(), { slug: 'draft', status: 'DRAFT', sortOrder: 0 });
  const archived = await seedItem(handle.db, ctx(), { slug: 'archived', status: 'ACTIVE', sortOrder: 0 });
  await archiveItem(handle.db, ctx(), archived.id);
  const otherOrganization = await insertOrganization(handle.db);
  const foreign = await seedItem(handle.db, itemContext(otherOrganization, clock.now()), {
    slug: 'foreign',
    status: 'ACTIVE',
  });
  return { organizationId, ctx, active, second, draft, archived, foreign };
}

const publicList = (organizationId: string, query: Record<string, unknown> = {}) =>
  listPublicItems(handle.db, organizationId, publicItemListQuerySchema.parse(query));

async function insertCollection(
  organizationId: string,
  slug: string,
  status: 'ACTIVE' | 'DRAFT',
  itemIds: string[],
) {
  const id = `col_${organizationId}_${slug}`;
  await handle.db
    .insertInto('collections')
    .values({
      organization_id: organizationId,
      id,
      slug,
      name: slug,
      status,
      created_at: clock.now(),
      updated_at: clock.now(),
    })
    .execute();
  if (itemIds.length > 0) {
    await handle.db
      .insertInto('collection_items')
      .values(
        itemIds.map((item_id, position) => ({
          organization_id: organizationId,
          collection_id: id,
          item_id,
          position,
        })),
      )
      .execute();
  }
  return id;
}

describe('listPublicItems', () => {
  it('lists only ACTIVE, unarchived items of the organization, in the merchant order', async () => {
    const shop = await storefront();
    expect((await publicList(shop.organizationId)).map((item) => item.slug)).toEqual(['active', 'second']);
  });

  it('pages by the id of the last item and filters by type and search', async () => {
    const shop = await storefront();
    const first = await publicList(shop.organizationId, { limit: 1 });
    expect(first.map((item) => item.slug)).toEqual(['active']);
    const next = await publicList(shop.organizationId, { limit: 1, cursor: first[0]!.id });
    expect(next.map((item) => item.slug)).toEqual(['second']);
    expect(await publicList(shop.organizationId, { limit: 1, cursor: next[0]!.id })).toEqual([]);

    expect((await publicList(shop.organizationId, { type: 'RENTAL' })).map((item) => item.slug)).toEqual([
      'second',
    ]);
    expect((await publicList(shop.organizationId, { search: 'ITEM' })).map((item) => item.slug)).toEqual([
      'active',
      'second',
    ]);
    await expect(publicList(shop.organizationId, { cursor: shop.foreign.id })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });

  it('filters by an ACTIVE, unarchived collection; a draft, archived or unknown one holds nothing', async () => {
    const shop = await storefront();
    await insertCollection(shop.organizationId, 'summer', 'ACTIVE', [
      shop.second.id,
      shop.draft.id,
      shop.archived.id,
    ]);
    await insertCollection(shop.organizationId, 'hidden', 'DRAFT', [shop.active.id]);
    const gone = await insertCollection(shop.organizationId, 'gone', 'ACTIVE', [shop.active.id]);
    await handle.db
      .updateTable('collections')
      .set({ archived_at: clock.now() })
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', gone)
      .execute();

    expect(
      (await publicList(shop.organizationId, { collection: 'summer' })).map((item) => item.slug),
    ).toEqual(['second']);
    for (const collection of ['hidden', 'gone', 'nope']) {
      expect(await publicList(shop.organizationId, { collection }), collection).toEqual([]);
    }
  });

  it("shows public collections only and hides the service's reserved metafields", async () => {
    const shop = await storefront();
    const visible = await insertCollection(shop.organizationId, 'visible', 'ACTIVE', [shop.active.id]);
    const hidden = await insertCollection(shop.organizationId, 'draft-col', 'DRAFT', [shop.active.id]);
    await handle.db
      .updateTable('items')
      .set({ metafields: JSON.stringify({ care: 'hand wash', __internal: 'x' }) })
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', shop.active.id)
      .execute();

    const [item] = await publicList(shop.organizationId, { limit: 1 });
    expect(item).toMatchObject({
      slug: 'active',
      collectionIds: [visible],
      metafields: { care: 'hand wash' },
    });
    expect(item!.metafields).not.toHaveProperty('__internal');
    // The merchant sees both collections and every metafield.
    const merchant = await getItem(handle.db, shop.organizationId, shop.active.id);
    expect(new Set(merchant.collectionIds)).toEqual(new Set([visible, hidden]));
    expect(merchant.metafields).toEqual({ care: 'hand wash', __internal: 'x' });
  });
});

describe('getPublicItem', () => {
  it('answers an ACTIVE item by slug and 404 for draft, archived, unknown and foreign slugs', async () => {
    const shop = await storefront();
    expect(await getPublicItem(handle.db, shop.organizationId, 'active')).toMatchObject({
      id: shop.active.id,
      status: 'ACTIVE',
      ratingCount: 0,
    });
    for (const slug of ['draft', 'archived', 'unknown', 'foreign']) {
      await expect(getPublicItem(handle.db, shop.organizationId, slug), slug).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
    }
  });
});

describe('resolvePublicItems', () => {
  it('answers the public items among the ids, once each, in the order asked, silently leaving out the rest', async () => {
    const shop = await storefront();
    const resolved = await resolvePublicItems(handle.db, shop.organizationId, {
      ids: [
        shop.second.id,
        shop.draft.id,
        'itm_unknown',
        shop.active.id,
        shop.archived.id,
        shop.foreign.id,
        shop.second.id,
      ],
    });
    expect(resolved.map((item) => item.id)).toEqual([shop.second.id, shop.active.id]);
    expect(resolved[1]).toMatchObject({ metafields: { care: 'hand wash' }, collectionIds: [] });
  });

  it('answers an empty array when none is public', async () => {
    const shop = await storefront();
    expect(
      await resolvePublicItems(handle.db, shop.organizationId, { ids: [shop.draft.id, shop.foreign.id] }),
    ).toEqual([]);
  });
});

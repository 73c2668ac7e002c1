import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditsOf, insertOrganization, itemContext, itemRow, seedItem } from '../../test/items.ts';
import { createItem } from './create-item.ts';
import { getItem, getItemBySlug } from './get-item.ts';
import { createItemInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const input = (body: Record<string, unknown>) =>
  createItemInputSchema.parse({ slug: 'blue-widget', name: 'Blue widget', type: 'SALE', ...body });

describe('createItem', () => {
  it('stores the item as a DRAFT at sortOrder 0 with no decorations, and audits item.created', async () => {
    const organizationId = await insertOrganization(handle.db);
    const ctx = itemContext(organizationId, clock.now());

    const item = await createItem(
      handle.db,
      ctx,
      input({ description: 'Sturdy', tags: ['Blue', 'sale'], priceInCents: 1250, metafields: { a: 1 } }),
    );

    expect(item).toEqual({
      id: expect.stringMatching(/^itm_[0-9A-Z]{26}$/),
      slug: 'blue-widget',
      name: 'Blue widget',
      description: 'Sturdy',
      tags: ['Blue', 'sale'],
      type: 'SALE',
      status: 'DRAFT',
      sortOrder: 0,
      priceInCents: 1250,
      metafields: { a: 1 },
      archivedAt: null,
      createdAt: '2026-05-01T09:00:00.000Z',
      updatedAt: '2026-05-01T09:00:00.000Z',
      salePriceInCents: null,
      ratingAverage: null,
      ratingCount: 0,
      collectionIds: [],
      shippingWeightGrams: null,
      shippingLengthMm: null,
      shippingWidthMm: null,
      shippingHeightMm: null,
      lowStockThreshold: null,
    });
    expect(await getItem(handle.db, organizationId, item.id)).toEqual(item);
    expect((await itemRow(handle.db, organizationId, item.id)).search_text).toBe(
      'blue widget\nsturdy\nblue\nsale',
    );
    expect(await auditsOf(handle.db, organizationId)).toEqual([
      {
        action: 'item.created',
        actor_user_id: 'usr_catalog_tester',
        actor_email: 'tester@shop.test',
        target_type: 'item',
        target_id: item.id,
        metadata: { slug: 'blue-widget', type: 'SALE', status: 'DRAFT' },
        created_at: clock.now(),
      },
    ]);
  });

  it('keeps a given status and sortOrder', async () => {
    const organizationId = await insertOrganization(handle.db);
    const item = await createItem(
      handle.db,
      itemContext(organizationId, clock.now()),
      input({ status: 'ACTIVE', sortOrder: 7 }),
    );
    expect(item).toMatchObject({ status: 'ACTIVE', sortOrder: 7 });
  });

  it('answers SLUG_TAKEN for a slug another item of the organization has, archived or not, and writes nothing', async () => {
    const organizationId = await insertOrganization(handle.db);
    const ctx = itemContext(organizationId, clock.now());
    await createItem(handle.db, ctx, input({}));

    const error = await createItem(handle.db, ctx, input({ name: 'Other' })).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('SLUG_TAKEN');
    expect(await auditsOf(handle.db, organizationId, 'item.created')).toHaveLength(1);
  });

  it('lets two organizations use the same slug', async () => {
    const first = await insertOrganization(handle.db);
    const second = await insertOrganization(handle.db);
    const mine = await createItem(handle.db, itemContext(first, clock.now()), input({}));
    const theirs = await createItem(handle.db, itemContext(second, clock.now()), input({}));
    expect(mine.id).not.toBe(theirs.id);
    expect((await getItemBySlug(handle.db, first, 'blue-widget')).id).toBe(mine.id);
    expect((await getItemBySlug(handle.db, second, 'blue-widget')).id).toBe(theirs.id);
  });

  it(`creates exactly one item under 12 concurrent creates of one slug (${testDatabaseKind})`, async () => {
    const organizationId = await insertOrganization(handle.db);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, index) =>
        createItem(handle.db, itemContext(organizationId, clock.now()), input({ name: `Racer ${index}` })),
      ),
    );

    const created = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter((result) => result.status === 'rejected');
    expect(created).toHaveLength(1);
    for (const result of refused) expect((result.reason as AppError).code).toBe('SLUG_TAKEN');
    const rows = await handle.db
      .selectFrom('items')
      .select('id')
      .where('organization_id', '=', organizationId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await auditsOf(handle.db, organizationId, 'item.created')).toHaveLength(1);
  });
});

describe('getItem and getItemBySlug', () => {
  it("answers 404 for a missing item and for another organization's", async () => {
    const mine = await insertOrganization(handle.db);
    const theirs = await insertOrganization(handle.db);
    const item = await seedItem(handle.db, itemContext(theirs, clock.now()), { slug: 'theirs' });

    for (const read of [
      () => getItem(handle.db, mine, item.id),
      () => getItem(handle.db, mine, 'itm_missing'),
      () => getItemBySlug(handle.db, mine, 'theirs'),
      () => getItemBySlug(handle.db, mine, 'missing'),
    ]) {
      await expect(read()).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    }
  });
});

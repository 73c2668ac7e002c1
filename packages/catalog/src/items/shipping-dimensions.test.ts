import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditsOf, insertOrganization, itemContext, seedItem } from '../../test/items.ts';
import { addCollectionItems } from '../collections/add-collection-items.ts';
import { createCollection } from '../collections/create-collection.ts';
import { listPublicCollectionItems } from '../collections/public-collections.ts';
import { createVariant } from '../variants/create-variant.ts';
import { getVariant } from '../variants/get-variant.ts';
import { createVariantBodySchema, updateVariantChangesSchema } from '../variants/schemas.ts';
import { updateVariant } from '../variants/update-variant.ts';
import { getItem } from './get-item.ts';
import { getPublicItem } from './get-public-item.ts';
import { listPublicItems } from './list-public-items.ts';
import { resolvePublicItems } from './resolve-public-items.ts';
import { createItemInputSchema, publicItemListQuerySchema, updateItemChangesSchema } from './schemas.ts';
import { SHIPPING_DIMENSION_FIELDS } from './shipping-dimensions.ts';
import { updateItem } from './update-item.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

const DIMENSIONS = {
  shippingWeightGrams: 350,
  shippingLengthMm: 120,
  shippingWidthMm: 80,
  shippingHeightMm: 40,
};

describe('shipping dimension bodies', () => {
  it('take integers of at least 1 or null, on items and variants, and refuse anything else by name', () => {
    const item = { slug: 'box', name: 'Box', type: 'SALE' };
    expect(createItemInputSchema.parse({ ...item, ...DIMENSIONS, shippingHeightMm: null })).toMatchObject({
      shippingWeightGrams: 350,
      shippingHeightMm: null,
    });
    for (const field of SHIPPING_DIMENSION_FIELDS) {
      for (const bad of [0, -1, 1.5, '10', 2_147_483_648]) {
        for (const [schema, body] of [
          [createItemInputSchema, { ...item, [field]: bad }],
          [updateItemChangesSchema, { [field]: bad }],
          [createVariantBodySchema, { name: 'V', [field]: bad }],
          [updateVariantChangesSchema, { [field]: bad }],
        ] as const) {
          const result = schema.safeParse(body);
          expect(result.success, `${field} ${String(bad)}`).toBe(false);
          expect(result.error!.issues[0]!.path).toEqual([field]);
        }
      }
    }
  });
});

describe('item and variant shipping dimensions', () => {
  it('are stored, changed and cleared on items, audited by name, and shown on merchant reads', async () => {
    const organizationId = await insertOrganization(handle.db, 'dimensions');
    const ctx = itemContext(organizationId, clock.now());
    const item = await seedItem(handle.db, ctx, { ...DIMENSIONS, status: 'ACTIVE' });
    expect(item).toMatchObject(DIMENSIONS);
    expect(await getItem(handle.db, organizationId, item.id)).toMatchObject(DIMENSIONS);

    const updated = await updateItem(
      handle.db,
      ctx,
      item.id,
      updateItemChangesSchema.parse({
        shippingWeightGrams: 400,
        shippingLengthMm: 120,
        shippingHeightMm: null,
      }),
    );
    expect(updated).toMatchObject({ ...DIMENSIONS, shippingWeightGrams: 400, shippingHeightMm: null });
    const [audit] = await auditsOf(handle.db, organizationId, 'item.updated');
    expect(audit!.metadata).toEqual({ fields: ['shippingWeightGrams', 'shippingHeightMm'] });
  });

  it('are stored and changed on variants', async () => {
    const organizationId = await insertOrganization(handle.db, 'dimensions');
    const ctx = itemContext(organizationId, clock.now());
    const item = await seedItem(handle.db, ctx);
    const plain = await createVariant(
      handle.db,
      ctx,
      item.id,
      createVariantBodySchema.parse({ name: 'Plain' }),
    );
    expect(plain).toMatchObject({
      shippingWeightGrams: null,
      shippingLengthMm: null,
      shippingWidthMm: null,
      shippingHeightMm: null,
    });
    const sized = await createVariant(
      handle.db,
      ctx,
      item.id,
      createVariantBodySchema.parse({ name: 'Sized', ...DIMENSIONS }),
    );
    expect(await getVariant(handle.db, organizationId, item.id, sized.id)).toMatchObject(DIMENSIONS);
    const changed = await updateVariant(
      handle.db,
      ctx,
      item.id,
      sized.id,
      updateVariantChangesSchema.parse({ shippingWidthMm: 90 }),
    );
    expect(changed).toMatchObject({ ...DIMENSIONS, shippingWidthMm: 90 });
    const [audit] = await auditsOf(handle.db, organizationId, 'variant.updated');
    expect(audit!.metadata).toEqual({ itemId: item.id, fields: ['shippingWidthMm'] });
  });

  it('never appear on public item reads', async () => {
    const organizationId = await insertOrganization(handle.db, 'dimensions');
    const ctx = itemContext(organizationId, clock.now());
    const item = await seedItem(handle.db, ctx, { ...DIMENSIONS, status: 'ACTIVE', slug: 'boxed' });
    await createVariant(
      handle.db,
      ctx,
      item.id,
      createVariantBodySchema.parse({ name: 'Sized', ...DIMENSIONS }),
    );
    const reads: object[] = [
      ...(await listPublicItems(handle.db, organizationId, publicItemListQuerySchema.parse({}))),
      ...(await resolvePublicItems(handle.db, organizationId, { ids: [item.id] })),
    ];
    const collection = await createCollection(handle.db, ctx, {
      name: 'Boxes',
      slug: 'boxes',
      status: 'ACTIVE',
    });
    await addCollectionItems(handle.db, ctx, collection.id, [item.id]);
    reads.push(
      ...(await listPublicCollectionItems(handle.db, organizationId, 'boxes', {
        limit: 50,
        cursor: undefined,
      })),
    );
    const detail = await getPublicItem(handle.db, organizationId, 'boxed');
    reads.push(detail, ...detail.variants);
    expect(reads).toHaveLength(5);
    for (const read of reads) {
      for (const field of SHIPPING_DIMENSION_FIELDS) expect(read).not.toHaveProperty(field);
    }
  });
});

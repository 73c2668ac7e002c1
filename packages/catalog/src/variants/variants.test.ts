import { type AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditsOf, insertOrganization, itemContext, seedItem } from '../../test/items.ts';
import { archiveItem } from '../items/archive-item.ts';
import { archiveVariant, restoreVariant } from './archive-variant.ts';
import { createVariant } from './create-variant.ts';
import { getVariant } from './get-variant.ts';
import { listVariants } from './list-variants.ts';
import {
  createVariantBodySchema,
  updateVariantChangesSchema,
  type VariantRead,
  variantListQuerySchema,
} from './schemas.ts';
import { updateVariant } from './update-variant.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

async function shop() {
  const organizationId = await insertOrganization(handle.db, 'variants');
  const ctx = () => itemContext(organizationId, clock.now());
  const item = await seedItem(handle.db, ctx());
  return { organizationId, ctx, item };
}

const body = (input: Record<string, unknown>) => createVariantBodySchema.parse({ name: 'Default', ...input });
const changes = (input: Record<string, unknown>) => updateVariantChangesSchema.parse(input);
const list = (organizationId: string, query: Record<string, unknown>) =>
  listVariants(handle.db, organizationId, variantListQuerySchema.parse(query));

describe('variant schemas', () => {
  it('bounds the fields and keeps the sale price at or below the price', () => {
    expect(createVariantBodySchema.safeParse({ name: 'M', sku: 'x'.repeat(100) }).success).toBe(true);
    expect(createVariantBodySchema.safeParse({ name: 'M', sku: 'x'.repeat(101) }).success).toBe(false);
    expect(createVariantBodySchema.safeParse({ name: ' ' }).success).toBe(false);
    expect(createVariantBodySchema.safeParse({ name: 'M', inventoryQuantity: -1 }).success).toBe(false);
    expect(createVariantBodySchema.safeParse({ name: 'M', inventoryQuantity: null }).success).toBe(true);
    expect(createVariantBodySchema.safeParse({ name: 'M', options: { size: 1 } }).success).toBe(false);
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`o${i}`, 'v']));
    expect(createVariantBodySchema.safeParse({ name: 'M', options: many }).success).toBe(false);
    expect(createVariantBodySchema.safeParse({ name: 'M', weight: 3 }).success).toBe(false);
    const sale = createVariantBodySchema.safeParse({ name: 'M', priceInCents: 100, salePriceInCents: 101 });
    expect(sale.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['salePriceInCents']);
    expect(
      createVariantBodySchema.safeParse({ name: 'M', priceInCents: 100, salePriceInCents: 100 }).success,
    ).toBe(true);
  });

  it('requires archived in one of the boolean forms', () => {
    expect(variantListQuerySchema.safeParse({ itemId: 'itm_1' }).success).toBe(false);
    expect(variantListQuerySchema.safeParse({ itemId: 'itm_1', archived: 'maybe' }).success).toBe(false);
    expect(variantListQuerySchema.parse({ itemId: 'itm_1', archived: 'Yes' }).archived).toBe(true);
    expect(variantListQuerySchema.parse({ itemId: 'itm_1', archived: '0' }).archived).toBe(false);
  });
});

describe('createVariant and getVariant', () => {
  it('stores the variant with defaults and audits variant.created', async () => {
    const { organizationId, ctx, item } = await shop();
    const variant = await createVariant(
      handle.db,
      ctx(),
      item.id,
      body({ sku: ' SKU-1 ', options: { size: 'M' }, priceInCents: 2000, salePriceInCents: 1500 }),
    );

    expect(variant).toEqual({
      id: expect.stringMatching(/^var_[0-9A-Z]{26}$/),
      itemId: item.id,
      sku: 'SKU-1',
      name: 'Default',
      options: { size: 'M' },
      priceInCents: 2000,
      salePriceInCents: 1500,
      inventoryQuantity: null,
      sortOrder: 0,
      archivedAt: null,
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
      shippingWeightGrams: null,
      shippingLengthMm: null,
      shippingWidthMm: null,
      shippingHeightMm: null,
    });
    expect(await getVariant(handle.db, organizationId, item.id, variant.id)).toEqual(variant);
    expect((await auditsOf(handle.db, organizationId, 'variant.created'))[0]).toMatchObject({
      target_type: 'variant',
      target_id: variant.id,
      metadata: { itemId: item.id, sku: 'SKU-1' },
    });
  });

  it('adds variants to archived items too, and answers 404 for a missing or foreign item', async () => {
    const { organizationId, ctx, item } = await shop();
    await archiveItem(handle.db, ctx(), item.id);
    expect((await createVariant(handle.db, ctx(), item.id, body({}))).itemId).toBe(item.id);

    const other = await shop();
    for (const itemId of ['itm_missing', other.item.id]) {
      await expect(createVariant(handle.db, ctx(), itemId, body({}))).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
      });
    }
    expect(await auditsOf(handle.db, organizationId, 'variant.created')).toHaveLength(1);
  });

  it('answers 404 for a variant read through another item or organization', async () => {
    const { organizationId, ctx, item } = await shop();
    const sibling = await seedItem(handle.db, ctx());
    const variant = await createVariant(handle.db, ctx(), item.id, body({}));
    const other = await shop();

    for (const read of [
      () => getVariant(handle.db, organizationId, sibling.id, variant.id),
      () => getVariant(handle.db, other.organizationId, item.id, variant.id),
      () => getVariant(handle.db, organizationId, item.id, 'var_missing'),
    ]) {
      await expect(read()).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    }
  });

  it('answers SKU_TAKEN for a SKU another variant of the organization has, across items and when archived', async () => {
    const { ctx, item } = await shop();
    const sibling = await seedItem(handle.db, ctx());
    const first = await createVariant(handle.db, ctx(), item.id, body({ sku: 'ABC' }));
    await archiveVariant(handle.db, ctx(), item.id, first.id);

    await expect(createVariant(handle.db, ctx(), sibling.id, body({ sku: 'ABC' }))).rejects.toMatchObject({
      code: 'SKU_TAKEN',
    });
    // No SKU is not a SKU: any number of variants may have none.
    await createVariant(handle.db, ctx(), item.id, body({}));
    await createVariant(handle.db, ctx(), item.id, body({ sku: null }));
    // Another organization may use it.
    const other = await shop();
    expect((await createVariant(handle.db, other.ctx(), other.item.id, body({ sku: 'ABC' }))).sku).toBe(
      'ABC',
    );
  });

  it(`gives a SKU to exactly one of concurrent creates (${testDatabaseKind})`, async () => {
    const { organizationId, ctx, item } = await shop();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, index) =>
        createVariant(handle.db, ctx(), item.id, body({ sku: 'RACE', name: `Racer ${index}` })),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect((result.reason as AppError).code).toBe('SKU_TAKEN');
    }
    const rows = await handle.db
      .selectFrom('variants')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('sku', '=', 'RACE')
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('updateVariant', () => {
  it('changes stock and prices, audits the changed fields and writes nothing for a no-op', async () => {
    const { organizationId, ctx, item } = await shop();
    const variant = await createVariant(
      handle.db,
      ctx(),
      item.id,
      body({ priceInCents: 1000, inventoryQuantity: 3, options: { size: 'M', colour: 'red' } }),
    );
    clock.advance(1000);

    const updated = await updateVariant(
      handle.db,
      ctx(),
      item.id,
      variant.id,
      changes({ inventoryQuantity: 0, salePriceInCents: 900, options: { colour: 'red', size: 'M' } }),
    );
    expect(updated).toMatchObject({
      inventoryQuantity: 0,
      salePriceInCents: 900,
      updatedAt: clock.now().toISOString(),
    });

    clock.advance(1000);
    expect(
      await updateVariant(handle.db, ctx(), item.id, variant.id, changes({ inventoryQuantity: 0 })),
    ).toEqual(updated);
    const untracked = await updateVariant(
      handle.db,
      ctx(),
      item.id,
      variant.id,
      changes({ inventoryQuantity: null }),
    );
    expect(untracked.inventoryQuantity).toBeNull();

    expect(
      (await auditsOf(handle.db, organizationId, 'variant.updated')).map((audit) => audit.metadata),
    ).toEqual([
      { itemId: item.id, fields: ['salePriceInCents', 'inventoryQuantity'] },
      { itemId: item.id, fields: ['inventoryQuantity'] },
    ]);
  });

  it('refuses a sale price above the price after the update', async () => {
    const { ctx, item } = await shop();
    const variant = await createVariant(
      handle.db,
      ctx(),
      item.id,
      body({ priceInCents: 1000, salePriceInCents: 800 }),
    );
    for (const patch of [{ priceInCents: 700 }, { salePriceInCents: 1001 }]) {
      await expect(
        updateVariant(handle.db, ctx(), item.id, variant.id, changes(patch)),
      ).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
      });
    }
    expect(
      await updateVariant(
        handle.db,
        ctx(),
        item.id,
        variant.id,
        changes({ priceInCents: 700, salePriceInCents: null }),
      ),
    ).toMatchObject({ priceInCents: 700, salePriceInCents: null });
  });

  it('answers SKU_TAKEN and 404 for a variant of another item', async () => {
    const { ctx, item } = await shop();
    const sibling = await seedItem(handle.db, ctx());
    await createVariant(handle.db, ctx(), item.id, body({ sku: 'TAKEN' }));
    const variant = await createVariant(handle.db, ctx(), item.id, body({ sku: 'MINE' }));
    await expect(
      updateVariant(handle.db, ctx(), item.id, variant.id, changes({ sku: 'TAKEN' })),
    ).rejects.toMatchObject({
      code: 'SKU_TAKEN',
    });
    await expect(
      updateVariant(handle.db, ctx(), sibling.id, variant.id, changes({ name: 'X' })),
    ).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
  });
});

describe('listVariants and archiving', () => {
  it('lists in sortOrder then oldest first, pages by cursor, and filters archived', async () => {
    const { organizationId, ctx, item } = await shop();
    const made: VariantRead[] = [];
    for (const sortOrder of [1, 0, 1, 0, 2]) {
      made.push(await createVariant(handle.db, ctx(), item.id, body({ sortOrder })));
      clock.advance(1000);
    }
    const expected = [made[1]!, made[3]!, made[0]!, made[2]!, made[4]!].map((variant) => variant.id);
    await archiveVariant(handle.db, ctx(), item.id, made[3]!.id);

    expect((await list(organizationId, { itemId: item.id, archived: 'true' })).data.map((v) => v.id)).toEqual(
      expected,
    );
    expect(
      (await list(organizationId, { itemId: item.id, archived: 'false' })).data.map((v) => v.id),
    ).toEqual(expected.filter((id) => id !== made[3]!.id));

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await list(organizationId, {
        itemId: item.id,
        archived: 'yes',
        limit: 2,
        ...(cursor ? { cursor } : {}),
      });
      seen.push(...page.data.map((v) => v.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(expected);

    await expect(
      list(organizationId, { itemId: item.id, archived: 'true', cursor: 'var_missing' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
    });
    const other = await shop();
    await expect(list(other.organizationId, { itemId: item.id, archived: 'true' })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
  });

  it('archives and restores idempotently, auditing only changes', async () => {
    const { organizationId, ctx, item } = await shop();
    // Audit records of one instant order by their random id part: one instant per step.
    clock.advance(1000);
    const variant = await createVariant(handle.db, ctx(), item.id, body({}));
    clock.advance(1000);

    const archived = await archiveVariant(handle.db, ctx(), item.id, variant.id);
    expect(archived.archivedAt).toBe(clock.now().toISOString());
    clock.advance(1000);
    expect(await archiveVariant(handle.db, ctx(), item.id, variant.id)).toEqual(archived);
    const restored = await restoreVariant(handle.db, ctx(), item.id, variant.id);
    expect(restored.archivedAt).toBeNull();
    expect(await restoreVariant(handle.db, ctx(), item.id, variant.id)).toEqual(restored);

    expect((await auditsOf(handle.db, organizationId)).map((audit) => audit.action)).toEqual([
      'item.created',
      'variant.created',
      'variant.archived',
      'variant.restored',
    ]);
  });
});

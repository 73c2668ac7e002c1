import { type AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditsOf, insertOrganization, itemContext, itemRow, seedItem } from '../../test/items.ts';
import { archiveItem } from './archive-item.ts';
import { createItem } from './create-item.ts';
import { listItems } from './list-items.ts';
import { itemListQuerySchema, updateItemChangesSchema } from './schemas.ts';
import { updateItem } from './update-item.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const changes = (body: Record<string, unknown>) => updateItemChangesSchema.parse(body);

async function shop() {
  const organizationId = await insertOrganization(handle.db);
  return { organizationId, ctx: () => itemContext(organizationId, clock.now()) };
}

describe('updateItem', () => {
  it('writes the changed fields, stamps updatedAt and audits their names only', async () => {
    const { organizationId, ctx } = await shop();
    const item = await seedItem(handle.db, ctx(), {
      slug: 'lamp',
      name: 'Lamp',
      description: 'Bright',
      tags: ['light'],
      priceInCents: 1000,
    });
    clock.advance(60_000);

    const updated = await updateItem(
      handle.db,
      ctx(),
      item.id,
      changes({
        name: 'Lamp',
        description: 'Very bright',
        priceInCents: 1200,
        tags: ['light', 'desk'],
        type: 'SALE',
        status: 'ACTIVE',
        sortOrder: 0,
      }),
    );

    expect(updated).toMatchObject({
      name: 'Lamp',
      description: 'Very bright',
      priceInCents: 1200,
      tags: ['light', 'desk'],
      status: 'ACTIVE',
      createdAt: item.createdAt,
      updatedAt: clock.now().toISOString(),
    });
    const audits = await auditsOf(handle.db, organizationId, 'item.updated');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      target_type: 'item',
      target_id: item.id,
      metadata: { fields: ['status', 'description', 'priceInCents', 'tags'] },
    });
  });

  it('writes and records nothing for a patch that changes nothing', async () => {
    const { organizationId, ctx } = await shop();
    const item = await seedItem(handle.db, ctx(), {
      name: 'Same',
      tags: ['a', 'b'],
      metafields: { x: { y: 1, z: 2 } },
    });
    clock.advance(1000);

    for (const body of [
      {},
      { name: 'Same' },
      { tags: ['a', 'b', 'a'] },
      { metafields: { x: { z: 2, y: 1 } } },
    ]) {
      const answered = await updateItem(handle.db, ctx(), item.id, changes(body));
      expect(answered).toEqual(item);
    }
    expect(await auditsOf(handle.db, organizationId, 'item.updated')).toHaveLength(0);
    expect((await itemRow(handle.db, organizationId, item.id)).updated_at.toISOString()).toBe(item.updatedAt);
  });

  it('clears the description and the price with null', async () => {
    const { organizationId, ctx } = await shop();
    const item = await seedItem(handle.db, ctx(), { description: 'Old', priceInCents: 5 });
    const updated = await updateItem(
      handle.db,
      ctx(),
      item.id,
      changes({ description: null, priceInCents: null }),
    );
    expect(updated).toMatchObject({ description: null, priceInCents: null });
    expect((await auditsOf(handle.db, organizationId, 'item.updated'))[0]?.metadata).toEqual({
      fields: ['description', 'priceInCents'],
    });
  });

  it('keeps the search text in step with name, description and tags', async () => {
    const { organizationId, ctx } = await shop();
    const item = await seedItem(handle.db, ctx(), { name: 'Walnut desk', tags: ['oak'] });
    const search = async (q: string) =>
      (await listItems(handle.db, organizationId, itemListQuerySchema.parse({ search: q }))).data.map(
        (i) => i.id,
      );
    expect(await search('walnut')).toEqual([item.id]);

    await updateItem(handle.db, ctx(), item.id, changes({ name: 'Maple desk', tags: ['pine'] }));

    expect(await search('walnut')).toEqual([]);
    expect(await search('oak')).toEqual([]);
    expect(await search('MAPLE')).toEqual([item.id]);
    expect(await search('pine')).toEqual([item.id]);
  });

  it("merges the merchant's metafields key by key, deletes a key sent as null and keeps the reserved ones", async () => {
    const { organizationId, ctx } = await shop();
    const item = await seedItem(handle.db, ctx(), { status: 'ACTIVE', metafields: { a: 1, b: 2, c: 3 } });
    await archiveItem(handle.db, ctx(), item.id);

    const updated = await updateItem(
      handle.db,
      ctx(),
      item.id,
      changes({ metafields: { b: { nested: true }, c: null, d: 4, absent: null } }),
    );

    expect(updated.metafields).toEqual({ a: 1, b: { nested: true }, d: 4, __archivedFromStatus: 'ACTIVE' });
    expect((await itemRow(handle.db, organizationId, item.id)).metafields).toEqual(updated.metafields);
    expect((await auditsOf(handle.db, organizationId, 'item.updated'))[0]?.metadata).toEqual({
      fields: ['metafields'],
    });
    // Deleting a key that is not there, or setting a key to its value, changes nothing.
    await updateItem(handle.db, ctx(), item.id, changes({ metafields: { c: null, a: 1 } }));
    expect(await auditsOf(handle.db, organizationId, 'item.updated')).toHaveLength(1);
  });

  it('does not store a metafield created as null', async () => {
    const { ctx } = await shop();
    const item = await createItem(handle.db, ctx(), {
      slug: 'nulls',
      name: 'Nulls',
      type: 'SALE',
      status: 'DRAFT',
      metafields: { kept: 'yes', dropped: null },
    });
    expect(item.metafields).toEqual({ kept: 'yes' });
  });

  it('refuses a patch whose merged metafields exceed the limits, and writes nothing', async () => {
    const { organizationId, ctx } = await shop();
    const existing = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`old${i}`, i]));
    const item = await seedItem(handle.db, ctx(), { metafields: existing });
    const added = Object.fromEntries(Array.from({ length: 41 }, (_, i) => [`new${i}`, i]));

    const error = (await updateItem(handle.db, ctx(), item.id, changes({ metafields: added })).catch(
      (caught: unknown) => caught,
    )) as AppError;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual({
      issues: [{ path: 'metafields', message: 'once merged, must have at most 100 keys' }],
    });
    expect((await itemRow(handle.db, organizationId, item.id)).metafields).toEqual(existing);

    // Deleting one key in the same patch brings the total back to 100.
    const updated = await updateItem(
      handle.db,
      ctx(),
      item.id,
      changes({ metafields: { ...added, old0: null } }),
    );
    expect(Object.keys(updated.metafields)).toHaveLength(100);
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'keeps every key of concurrent patches of different keys',
    async () => {
      const { organizationId, ctx } = await shop();
      const item = await seedItem(handle.db, ctx(), { metafields: { base: true } });
      const keys = Array.from({ length: 12 }, (_, i) => `key${i}`);

      await Promise.all(
        keys.map((key, i) => updateItem(handle.db, ctx(), item.id, changes({ metafields: { [key]: i } }))),
      );

      expect((await itemRow(handle.db, organizationId, item.id)).metafields).toEqual({
        base: true,
        ...Object.fromEntries(keys.map((key, i) => [key, i])),
      });
      expect(await auditsOf(handle.db, organizationId, 'item.updated')).toHaveLength(keys.length);
    },
  );

  it('edits an archived item but refuses to change its status (restore does that)', async () => {
    const { organizationId, ctx } = await shop();
    const item = await seedItem(handle.db, ctx(), { status: 'ACTIVE' });
    await archiveItem(handle.db, ctx(), item.id);

    expect(await updateItem(handle.db, ctx(), item.id, changes({ name: 'Renamed' }))).toMatchObject({
      name: 'Renamed',
      status: 'ARCHIVED',
    });
    for (const status of ['ACTIVE', 'DRAFT']) {
      await expect(
        updateItem(handle.db, ctx(), item.id, changes({ status, name: 'Again' })),
      ).rejects.toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
      });
    }
    const row = await itemRow(handle.db, organizationId, item.id);
    expect(row).toMatchObject({ name: 'Renamed', status: 'ARCHIVED' });
  });

  it('answers SLUG_TAKEN for the slug of another item and RESOURCE_NOT_FOUND for a foreign item', async () => {
    const { organizationId, ctx } = await shop();
    await seedItem(handle.db, ctx(), { slug: 'taken' });
    const item = await seedItem(handle.db, ctx(), { slug: 'mine' });
    await expect(updateItem(handle.db, ctx(), item.id, changes({ slug: 'taken' }))).rejects.toMatchObject({
      code: 'SLUG_TAKEN',
    });
    expect((await itemRow(handle.db, organizationId, item.id)).slug).toBe('mine');

    const other = await shop();
    await expect(
      updateItem(handle.db, other.ctx(), item.id, changes({ name: 'Hijack' })),
    ).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect((await itemRow(handle.db, organizationId, item.id)).name).not.toBe('Hijack');
  });

  it('gives the slug to exactly one of two items renamed to it concurrently', async () => {
    const { organizationId, ctx } = await shop();
    const items = await Promise.all(Array.from({ length: 6 }, () => seedItem(handle.db, ctx())));
    const results = await Promise.allSettled(
      items.map((item) => updateItem(handle.db, ctx(), item.id, changes({ slug: 'contested' }))),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'SLUG_TAKEN' });
    }
    const holders = await handle.db
      .selectFrom('items')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('slug', '=', 'contested')
      .execute();
    expect(holders).toHaveLength(1);
  });
});

import { type AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditsOf, insertOrganization, itemContext, seedItem } from '../../test/items.ts';
import { archiveItem } from './archive-item.ts';
import { listItems } from './list-items.ts';
import { reorderItems } from './reorder-items.ts';
import { itemListQuerySchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

async function shop(size: number) {
  const organizationId = await insertOrganization(handle.db);
  const ctx = () => itemContext(organizationId, clock.now());
  const ids: string[] = [];
  for (let index = 0; index < size; index++) {
    ids.push((await seedItem(handle.db, ctx())).id);
    clock.advance(1);
  }
  return { organizationId, ctx, ids };
}

const listedIds = async (organizationId: string, query: Record<string, unknown> = {}) =>
  (await listItems(handle.db, organizationId, itemListQuerySchema.parse({ limit: 200, ...query }))).data.map(
    (item) => item.id,
  );

const sortOrders = async (organizationId: string) =>
  Object.fromEntries(
    (
      await handle.db
        .selectFrom('items')
        .select(['id', 'sort_order'])
        .where('organization_id', '=', organizationId)
        .execute()
    ).map((row) => [row.id, row.sort_order]),
  );

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error as AppError,
  );

describe('reorderItems', () => {
  it('sets sortOrder to each index, lists in that order and audits what moved', async () => {
    const { organizationId, ctx, ids } = await shop(5);
    const wanted = [ids[3]!, ids[0]!, ids[4]!, ids[1]!, ids[2]!];

    const result = await reorderItems(handle.db, ctx(), { orderedIds: wanted });

    expect(result).toEqual({ data: wanted.map((id, index) => ({ id, sortOrder: index })) });
    expect(await listedIds(organizationId)).toEqual(wanted);
    expect(await sortOrders(organizationId)).toEqual(
      Object.fromEntries(wanted.map((id, index) => [id, index])),
    );
    expect((await auditsOf(handle.db, organizationId, 'item.reordered'))[0]?.metadata).toEqual({
      itemCount: 5,
      // Every item had sortOrder 0: all but the first moved.
      changedCount: 4,
    });

    // The same order again moves nothing and records nothing.
    await reorderItems(handle.db, ctx(), { orderedIds: wanted });
    expect(await auditsOf(handle.db, organizationId, 'item.reordered')).toHaveLength(1);
  });

  it('leaves archived items out of the set and their sortOrder alone', async () => {
    const { organizationId, ctx, ids } = await shop(3);
    await archiveItem(handle.db, ctx(), ids[1]!);
    const before = await sortOrders(organizationId);

    await reorderItems(handle.db, ctx(), { orderedIds: [ids[2]!, ids[0]!] });

    const after = await sortOrders(organizationId);
    expect(after).toEqual({ ...before, [ids[2]!]: 0, [ids[0]!]: 1 });
    expect(await listedIds(organizationId)).toEqual([ids[2]!, ids[0]!]);
  });

  it('refuses duplicates, missing, unknown, foreign and archived ids, changing nothing', async () => {
    const { organizationId, ctx, ids } = await shop(3);
    const other = await shop(1);
    await archiveItem(handle.db, ctx(), ids[2]!);
    const live = [ids[0]!, ids[1]!];
    const before = await sortOrders(organizationId);

    const cases: [string[], string][] = [
      [[ids[0]!, ids[1]!, ids[0]!], 'orderedIds.2'],
      [[ids[0]!], 'orderedIds'],
      [[...live, 'itm_unknown'], 'orderedIds'],
      [[...live, other.ids[0]!], 'orderedIds'],
      [[...live, ids[2]!], 'orderedIds'],
      [[ids[1]!, 'itm_unknown'], 'orderedIds'],
      [[], 'orderedIds'],
    ];
    for (const [orderedIds, path] of cases) {
      const error = await failure(reorderItems(handle.db, ctx(), { orderedIds }));
      expect(error.code, orderedIds.join()).toBe('VALIDATION_FAILED');
      expect((error.details?.issues as { path: string }[] | undefined)?.[0]?.path).toBe(path);
    }
    // Wrong in two ways at once: both are reported.
    const both = await failure(reorderItems(handle.db, ctx(), { orderedIds: [ids[1]!, 'itm_unknown'] }));
    expect(both.details?.issues).toHaveLength(2);

    expect(await sortOrders(organizationId)).toEqual(before);
    expect(await auditsOf(handle.db, organizationId, 'item.reordered')).toHaveLength(0);
  });

  it('accepts an empty list when the organization has no live items', async () => {
    const { ctx } = await shop(0);
    expect(await reorderItems(handle.db, ctx(), { orderedIds: [] })).toEqual({ data: [] });
  });

  it(`keeps the set exact when archives race the reorder (${testDatabaseKind})`, async () => {
    for (let round = 0; round < 5; round++) {
      const { organizationId, ctx, ids } = await shop(8);
      const reversed = [...ids].reverse();

      const [reorder, ...archives] = await Promise.allSettled([
        reorderItems(handle.db, ctx(), { orderedIds: reversed }),
        archiveItem(handle.db, ctx(), ids[3]!),
        archiveItem(handle.db, ctx(), ids[5]!),
      ]);

      for (const archive of archives) expect(archive.status).toBe('fulfilled');
      const orders = await sortOrders(organizationId);
      if (reorder.status === 'fulfilled') {
        // The reorder ran first: every item took its index, archived ones included.
        expect(orders).toEqual(Object.fromEntries(reversed.map((id, index) => [id, index])));
      } else {
        // An archive landed first: the set no longer matched and nothing moved.
        expect((reorder.reason as AppError).code).toBe('VALIDATION_FAILED');
        expect(Object.values(orders).every((sortOrder) => sortOrder === 0)).toBe(true);
      }
    }
  });

  it('serialises concurrent reorders: the result is exactly one of the orders sent', async () => {
    const { organizationId, ctx, ids } = await shop(20);
    const orders = Array.from({ length: 6 }, (_, round) => [...ids.slice(round), ...ids.slice(0, round)]);

    const results = await Promise.allSettled(
      orders.map((orderedIds) => reorderItems(handle.db, ctx(), { orderedIds })),
    );

    for (const result of results) expect(result.status).toBe('fulfilled');
    const listed = await listedIds(organizationId);
    expect(orders.map((order) => order.join())).toContain(listed.join());
  });
});

import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditsOf, insertOrganization, itemContext, itemRow, seedItem } from '../../test/items.ts';
import { archiveItem, restoreItem } from './archive-item.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

async function shop() {
  const organizationId = await insertOrganization(handle.db);
  return { organizationId, ctx: () => itemContext(organizationId, clock.now()) };
}

describe('archiveItem and restoreItem', () => {
  for (const status of ['ACTIVE', 'DRAFT'] as const) {
    it(`archives a ${status} item, keeping its status in __archivedFromStatus, and restores it to ${status}`, async () => {
      const { organizationId, ctx } = await shop();
      const item = await seedItem(handle.db, ctx(), { status, metafields: { colour: 'red' } });
      clock.advance(1000);
      const archivedAt = clock.now().toISOString();

      const archived = await archiveItem(handle.db, ctx(), item.id);

      expect(archived).toMatchObject({
        status: 'ARCHIVED',
        archivedAt,
        updatedAt: archivedAt,
        metafields: { colour: 'red', __archivedFromStatus: status },
      });
      clock.advance(1000);

      const restored = await restoreItem(handle.db, ctx(), item.id);

      expect(restored).toMatchObject({
        status,
        archivedAt: null,
        updatedAt: clock.now().toISOString(),
        metafields: { colour: 'red' },
      });
      expect(restored.metafields).not.toHaveProperty('__archivedFromStatus');
      expect(
        (await auditsOf(handle.db, organizationId)).map((audit) => [audit.action, audit.metadata]),
      ).toEqual([
        ['item.created', expect.any(Object)],
        ['item.archived', { fromStatus: status }],
        ['item.restored', { toStatus: status }],
      ]);
    });
  }

  it('is idempotent: archiving an archived item and restoring a live one change and record nothing', async () => {
    const { organizationId, ctx } = await shop();
    const item = await seedItem(handle.db, ctx(), { status: 'ACTIVE' });

    const untouched = await restoreItem(handle.db, ctx(), item.id);
    expect(untouched).toEqual(item);

    clock.advance(1000);
    const archived = await archiveItem(handle.db, ctx(), item.id);
    clock.advance(1000);
    const again = await archiveItem(handle.db, ctx(), item.id);
    expect(again).toEqual(archived);
    expect(again.metafields).toEqual({ __archivedFromStatus: 'ACTIVE' });

    expect((await auditsOf(handle.db, organizationId)).map((audit) => audit.action)).toEqual([
      'item.created',
      'item.archived',
    ]);
  });

  it('restores to DRAFT when no usable prior status is stored', async () => {
    const { organizationId, ctx } = await shop();
    for (const stored of [undefined, 'ARCHIVED', 'SOLD', 42]) {
      const item = await seedItem(handle.db, ctx(), { status: 'ACTIVE' });
      await archiveItem(handle.db, ctx(), item.id);
      const metafields = stored === undefined ? {} : { __archivedFromStatus: stored };
      await handle.db
        .updateTable('items')
        .set({ metafields: JSON.stringify(metafields) })
        .where('organization_id', '=', organizationId)
        .where('id', '=', item.id)
        .execute();

      const restored = await restoreItem(handle.db, ctx(), item.id);

      expect(restored, String(stored)).toMatchObject({ status: 'DRAFT', archivedAt: null, metafields: {} });
    }
  });

  it("answers RESOURCE_NOT_FOUND for another organization's item and leaves it alone", async () => {
    const mine = await shop();
    const theirs = await shop();
    const item = await seedItem(handle.db, theirs.ctx(), { status: 'ACTIVE' });

    await expect(archiveItem(handle.db, mine.ctx(), item.id)).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    await expect(restoreItem(handle.db, mine.ctx(), item.id)).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect((await itemRow(handle.db, theirs.organizationId, item.id)).status).toBe('ACTIVE');
  });

  it('archives once under concurrent archives: one record, the first prior status kept', async () => {
    const { organizationId, ctx } = await shop();
    const item = await seedItem(handle.db, ctx(), { status: 'ACTIVE' });

    const results = await Promise.all(
      Array.from({ length: 8 }, () => archiveItem(handle.db, ctx(), item.id)),
    );

    for (const result of results) {
      expect(result).toMatchObject({ status: 'ARCHIVED', metafields: { __archivedFromStatus: 'ACTIVE' } });
    }
    expect(await auditsOf(handle.db, organizationId, 'item.archived')).toHaveLength(1);
  });
});

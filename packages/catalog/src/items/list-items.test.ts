import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization, itemContext, seedItem } from '../../test/items.ts';
import { archiveItem } from './archive-item.ts';
import type { ItemRead } from './item-read.ts';
import { listItems } from './list-items.ts';
import { itemListQuerySchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

async function shop() {
  const organizationId = await insertOrganization(handle.db);
  return { organizationId, ctx: () => itemContext(organizationId, clock.now()) };
}

const list = (organizationId: string, query: Record<string, unknown> = {}) =>
  listItems(handle.db, organizationId, itemListQuerySchema.parse(query));

const idsOf = async (organizationId: string, query: Record<string, unknown> = {}) =>
  (await list(organizationId, query)).data.map((item) => item.id);

/** Every page of a query, following nextCursor. */
async function allPages(organizationId: string, query: Record<string, unknown>) {
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = await list(organizationId, { ...query, ...(cursor ? { cursor } : {}) });
    seen.push(...result.data.map((item) => item.id));
    expect(result.data.length).toBeLessThanOrEqual(Number(query.limit ?? 50));
    if (result.nextCursor === null) return seen;
    expect(result.nextCursor).toBe(result.data.at(-1)!.id);
    cursor = result.nextCursor;
  }
  throw new Error('did not end');
}

/** The merchant order, computed independently: sortOrder asc, createdAt desc, id desc. */
const merchantOrder = (items: ItemRead[]) =>
  [...items]
    .sort(
      (a, b) =>
        a.sortOrder - b.sortOrder ||
        b.createdAt.localeCompare(a.createdAt) ||
        (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
    )
    .map((item) => item.id);

describe('listItems: order and pages', () => {
  it('orders by sortOrder, then newest first, then id descending, and pages through ties without loss', async () => {
    const { organizationId, ctx } = await shop();
    const items: ItemRead[] = [];
    // Four instants, three sort orders, several items per (sortOrder, instant): ties broken by id only.
    for (let instant = 0; instant < 4; instant++) {
      for (const sortOrder of [2, 0, 1, 0]) items.push(await seedItem(handle.db, ctx(), { sortOrder }));
      clock.advance(1000);
    }
    const expected = merchantOrder(items);

    expect(await idsOf(organizationId, { limit: 200 })).toEqual(expected);
    for (const limit of [1, 2, 3, 5, 16]) {
      expect(await allPages(organizationId, { limit }), `limit ${limit}`).toEqual(expected);
    }
    const first = await list(organizationId, { limit: 16 });
    expect(first.nextCursor).toBeNull();
  });

  it('pages exactly through createdAt values finer than a millisecond', async () => {
    const { organizationId, ctx } = await shop();
    const items = await Promise.all(Array.from({ length: 6 }, () => seedItem(handle.db, ctx())));
    // Microseconds inside one millisecond: a cursor compared in JavaScript would lose or repeat rows.
    for (const [index, item] of items.entries()) {
      await sql`update items set created_at = ${'2026-05-01T09:00:00.000Z'}::timestamptz + make_interval(secs => ${(index + 1) / 1_000_000})
        where organization_id = ${organizationId} and id = ${item.id}`.execute(handle.db);
    }
    const newestFirst = [...items].reverse().map((item) => item.id);
    expect(await allPages(organizationId, { limit: 1 })).toEqual(newestFirst);
    expect(await allPages(organizationId, { limit: 4 })).toEqual(newestFirst);
  });

  it("refuses a cursor that names no item of the organization, and never lists another organization's items", async () => {
    const mine = await shop();
    const theirs = await shop();
    const myItem = await seedItem(handle.db, mine.ctx());
    const theirItem = await seedItem(handle.db, theirs.ctx());

    expect(await idsOf(mine.organizationId)).toEqual([myItem.id]);
    for (const cursor of ['itm_missing', theirItem.id]) {
      await expect(list(mine.organizationId, { cursor })).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        details: { issues: [{ path: 'cursor', message: expect.any(String) }] },
      });
    }
  });
});

describe('listItems: filters', () => {
  it('hides archived items unless archived is true; status filters exactly', async () => {
    const { organizationId, ctx } = await shop();
    const active = await seedItem(handle.db, ctx(), { status: 'ACTIVE', sortOrder: 1 });
    const draft = await seedItem(handle.db, ctx(), { status: 'DRAFT', sortOrder: 2 });
    const archived = await seedItem(handle.db, ctx(), { status: 'ACTIVE', sortOrder: 3 });
    await archiveItem(handle.db, ctx(), archived.id);

    expect(await idsOf(organizationId)).toEqual([active.id, draft.id]);
    expect(await idsOf(organizationId, { archived: 'false' })).toEqual([active.id, draft.id]);
    expect(await idsOf(organizationId, { archived: 'YES' })).toEqual([active.id, draft.id, archived.id]);
    expect(await idsOf(organizationId, { archived: '1' })).toEqual([active.id, draft.id, archived.id]);
    expect(await idsOf(organizationId, { status: 'ARCHIVED' })).toEqual([archived.id]);
    expect(await idsOf(organizationId, { status: 'ARCHIVED', archived: 'no' })).toEqual([archived.id]);
    expect(await idsOf(organizationId, { status: 'ACTIVE' })).toEqual([active.id]);
    expect(await idsOf(organizationId, { status: 'ACTIVE', archived: 'true' })).toEqual([active.id]);
    expect(await idsOf(organizationId, { status: 'DRAFT' })).toEqual([draft.id]);
  });

  it('filters by type', async () => {
    const { organizationId, ctx } = await shop();
    const rental = await seedItem(handle.db, ctx(), { type: 'RENTAL', sortOrder: 1 });
    const sale = await seedItem(handle.db, ctx(), { type: 'SALE', sortOrder: 2 });
    const service = await seedItem(handle.db, ctx(), { type: 'SERVICE', sortOrder: 3 });
    expect(await idsOf(organizationId, { type: 'RENTAL' })).toEqual([rental.id]);
    expect(await idsOf(organizationId, { type: 'SALE' })).toEqual([sale.id]);
    expect(await idsOf(organizationId, { type: 'SERVICE' })).toEqual([service.id]);
  });

  it('compositionCandidate true keeps items that are not packages; false keeps only packages', async () => {
    const { organizationId, ctx } = await shop();
    const kit = await seedItem(handle.db, ctx(), { sortOrder: 1, name: 'Camping kit' });
    const tent = await seedItem(handle.db, ctx(), { sortOrder: 2, name: 'Tent' });
    const stove = await seedItem(handle.db, ctx(), { sortOrder: 3, name: 'Stove' });
    const loose = await seedItem(handle.db, ctx(), { sortOrder: 4, name: 'Loose' });
    await handle.db
      .insertInto('item_components')
      .values([
        { organization_id: organizationId, parent_item_id: kit.id, component_item_id: tent.id },
        { organization_id: organizationId, parent_item_id: kit.id, component_item_id: stove.id, quantity: 2 },
      ])
      .execute();

    expect(await idsOf(organizationId, { compositionCandidate: 'true' })).toEqual([
      tent.id,
      stove.id,
      loose.id,
    ]);
    expect(await idsOf(organizationId, { compositionCandidate: 'No' })).toEqual([kit.id]);
    expect(await idsOf(organizationId)).toEqual([kit.id, tent.id, stove.id, loose.id]);
  });

  it('searches name, description and tags by case-insensitive substring', async () => {
    const { organizationId, ctx } = await shop();
    const byName = await seedItem(handle.db, ctx(), { sortOrder: 1, name: 'Harbour Kayak' });
    const byDescription = await seedItem(handle.db, ctx(), {
      sortOrder: 2,
      name: 'Boat',
      description: 'A sea KAYAKING trip',
    });
    const byTag = await seedItem(handle.db, ctx(), { sortOrder: 3, name: 'Paddle', tags: ['kayak-gear'] });
    const unrelated = await seedItem(handle.db, ctx(), { sortOrder: 4, name: 'Bicycle', tags: ['road'] });

    expect(await idsOf(organizationId, { search: 'kayak' })).toEqual([byName.id, byDescription.id, byTag.id]);
    expect(await idsOf(organizationId, { search: 'KaYaK' })).toEqual([byName.id, byDescription.id, byTag.id]);
    expect(await idsOf(organizationId, { search: 'gear' })).toEqual([byTag.id]);
    expect(await idsOf(organizationId, { search: 'our ka' })).toEqual([byName.id]);
    expect(await idsOf(organizationId, { search: 'cyc' })).toEqual([unrelated.id]);
    expect(await idsOf(organizationId, { search: 'submarine' })).toEqual([]);
    expect(await idsOf(organizationId, { search: '  ' })).toHaveLength(4);
    expect(await idsOf(organizationId, { search: 'kayak', limit: 1 })).toEqual([byName.id]);
  });

  it('matches %, _ and \\ literally', async () => {
    const { organizationId, ctx } = await shop();
    const percent = await seedItem(handle.db, ctx(), { sortOrder: 1, name: '100% cotton' });
    const underscore = await seedItem(handle.db, ctx(), { sortOrder: 2, name: 'blend 50_50' });
    const backslash = await seedItem(handle.db, ctx(), { sortOrder: 3, name: 'path a\\b' });
    const plain = await seedItem(handle.db, ctx(), { sortOrder: 4, name: '1000 cotton 5050 ab' });

    expect(await idsOf(organizationId, { search: '%' })).toEqual([percent.id]);
    expect(await idsOf(organizationId, { search: '0% c' })).toEqual([percent.id]);
    expect(await idsOf(organizationId, { search: '_' })).toEqual([underscore.id]);
    expect(await idsOf(organizationId, { search: '0_5' })).toEqual([underscore.id]);
    expect(await idsOf(organizationId, { search: '\\' })).toEqual([backslash.id]);
    expect(await idsOf(organizationId, { search: 'a\\b' })).toEqual([backslash.id]);
    expect(await idsOf(organizationId, { search: 'cotton' })).toEqual([percent.id, plain.id]);
  });

  it('combines search with the other filters and pages the matches', async () => {
    const { organizationId, ctx } = await shop();
    const matches: ItemRead[] = [];
    for (let index = 0; index < 5; index++) {
      matches.push(
        await seedItem(handle.db, ctx(), { name: `Red chair ${index}`, status: 'ACTIVE', type: 'RENTAL' }),
      );
      await seedItem(handle.db, ctx(), { name: `Red table ${index}`, status: 'ACTIVE', type: 'RENTAL' });
      await seedItem(handle.db, ctx(), { name: `Red chair draft ${index}`, status: 'DRAFT', type: 'RENTAL' });
      clock.advance(10);
    }
    const archived = await seedItem(handle.db, ctx(), {
      name: 'Red chair old',
      status: 'ACTIVE',
      type: 'RENTAL',
    });
    await archiveItem(handle.db, ctx(), archived.id);

    const query = { search: 'red chair', status: 'ACTIVE', type: 'RENTAL', limit: 2 };
    expect(await allPages(organizationId, query)).toEqual(merchantOrder(matches));
  });
});

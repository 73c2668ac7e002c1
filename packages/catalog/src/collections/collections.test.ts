import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRows, createTestShop, outcomes, rejectionOf, type TestShop } from '../../test/collections.ts';
import { archiveCollection, restoreCollection } from './archive-collection.ts';
import { createCollection } from './create-collection.ts';
import { getCollection } from './get-collection.ts';
import { listCollections } from './list-collections.ts';
import { reorderCollections } from './reorder-collections.ts';
import {
  type CollectionListQuery,
  type CreateCollectionInput,
  collectionListQuerySchema,
  collectionSchema,
  createCollectionInputSchema,
} from './schemas.ts';
import { updateCollection } from './update-collection.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-24T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

const shop = () => createTestShop(handle.db, clock, 'col');
const query = (input: Record<string, unknown> = {}): CollectionListQuery =>
  collectionListQuerySchema.parse(input);
const create = (owner: TestShop, slug: string, extra: Partial<CreateCollectionInput> = {}) =>
  createCollection(handle.db, owner.ctx(), {
    name: `Collection ${slug}`,
    slug,
    status: 'ACTIVE',
    ...extra,
  });

describe('createCollection', () => {
  it('creates the collection with its fields, no items, and audits it', async () => {
    const owner = await shop();

    const created = await create(owner, 'summer-sale', {
      name: '  Summer sale ',
      description: 'Hot deals',
      status: 'DRAFT',
      sortOrder: 3,
    });

    expect(collectionSchema.parse(created)).toEqual(created);
    expect(created).toEqual({
      id: expect.stringMatching(/^col_/),
      slug: 'summer-sale',
      name: '  Summer sale ',
      description: 'Hot deals',
      status: 'DRAFT',
      sortOrder: 3,
      itemCount: 0,
      archivedAt: null,
      createdAt: '2026-11-24T09:00:00.000Z',
      updatedAt: '2026-11-24T09:00:00.000Z',
    });
    expect(await getCollection(handle.db, owner.id, created.id)).toEqual(created);
    const audit = await auditRows(handle.db, owner.id, 'collection.');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: 'collection.created',
      target_type: 'collection',
      target_id: created.id,
      actor_user_id: 'usr_test_merchant',
      metadata: { slug: 'summer-sale', status: 'DRAFT' },
    });
  });

  it('trims the name and bounds every field at the edge', () => {
    const parse = (body: unknown) => createCollectionInputSchema.safeParse(body);
    const base = { name: 'Sale', slug: 'sale', status: 'ACTIVE' };
    expect(parse({ ...base, name: '  Sale  ' }).data?.name).toBe('Sale');
    expect(parse(base).success).toBe(true);
    expect(parse({ ...base, name: '   ' }).success).toBe(false);
    expect(parse({ ...base, name: 'x'.repeat(201) }).success).toBe(false);
    expect(parse({ ...base, slug: 'x'.repeat(100) }).success).toBe(true);
    expect(parse({ ...base, slug: 'x'.repeat(101) }).success).toBe(false);
    for (const slug of ['Sale', 'sale-', '-sale', 'sa--le', 'sa le', 'sälé', '']) {
      expect(parse({ ...base, slug }).success, slug).toBe(false);
    }
    expect(parse({ ...base, slug: 'summer-2026-sale' }).success).toBe(true);
    expect(parse({ ...base, status: 'ARCHIVED' }).success).toBe(false);
    expect(parse({ ...base, status: 'active' }).success).toBe(false);
    expect(parse({ ...base, description: 'x'.repeat(10_000) }).success).toBe(true);
    expect(parse({ ...base, description: 'x'.repeat(10_001) }).success).toBe(false);
    expect(parse({ ...base, sortOrder: 1.5 }).success).toBe(false);
    expect(parse({ ...base, extra: true }).success).toBe(false);
  });

  it('answers SLUG_TAKEN for a slug the organization already has, archived or not, and allows it elsewhere', async () => {
    const owner = await shop();
    const other = await shop();
    const first = await create(owner, 'taken');
    await archiveCollection(handle.db, owner.ctx(), first.id);

    expect(await rejectionOf(create(owner, 'taken'))).toMatchObject({ code: 'SLUG_TAKEN' });
    expect((await create(other, 'taken')).slug).toBe('taken');
    expect(await auditRows(handle.db, owner.id, 'collection.created')).toHaveLength(1);
  });

  it('gives exactly one collection to concurrent creates of one slug', async () => {
    const owner = await shop();

    const results = await outcomes(Array.from({ length: 8 }, () => create(owner, 'race')));

    expect(results.filter((result) => result === 'ok')).toHaveLength(1);
    expect(results.filter((result) => result === 'SLUG_TAKEN')).toHaveLength(7);
    const rows = await handle.db
      .selectFrom('collections')
      .select('id')
      .where('organization_id', '=', owner.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await auditRows(handle.db, owner.id, 'collection.created')).toHaveLength(1);
  });
});

describe('updateCollection', () => {
  it('changes only the fields sent and audits the names of those that changed', async () => {
    const owner = await shop();
    const created = await create(owner, 'before', { description: 'Old' });
    clock.advance(1000);

    const updated = await updateCollection(handle.db, owner.ctx(), created.id, {
      name: `Collection before`,
      slug: 'after',
      description: null,
      status: 'DRAFT',
    });

    expect(updated).toMatchObject({
      slug: 'after',
      name: 'Collection before',
      description: null,
      status: 'DRAFT',
      sortOrder: 0,
      createdAt: created.createdAt,
      updatedAt: clock.now().toISOString(),
    });
    const audit = await auditRows(handle.db, owner.id, 'collection.updated');
    expect(audit.map((row) => row.metadata)).toEqual([{ fields: ['slug', 'status', 'description'] }]);
  });

  it('writes nothing for a patch that changes nothing', async () => {
    const owner = await shop();
    const created = await create(owner, 'same');
    clock.advance(1000);

    const unchanged = await updateCollection(handle.db, owner.ctx(), created.id, {
      slug: 'same',
      status: 'ACTIVE',
    });

    expect(unchanged).toEqual(created);
    expect(await auditRows(handle.db, owner.id, 'collection.updated')).toHaveLength(0);
  });

  it('answers SLUG_TAKEN for a slug another collection holds, and 404 for another tenant', async () => {
    const owner = await shop();
    const other = await shop();
    await create(owner, 'one');
    const two = await create(owner, 'two');

    expect(
      await rejectionOf(updateCollection(handle.db, owner.ctx(), two.id, { slug: 'one' })),
    ).toMatchObject({
      code: 'SLUG_TAKEN',
    });
    expect(
      await rejectionOf(updateCollection(handle.db, other.ctx(), two.id, { name: 'Mine' })),
    ).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect((await getCollection(handle.db, owner.id, two.id)).slug).toBe('two');
  });

  it('gives the slug to exactly one of concurrent renames', async () => {
    const owner = await shop();
    const collections = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((slug) => create(owner, slug)));

    const results = await outcomes(
      collections.map((collection) =>
        updateCollection(handle.db, owner.ctx(), collection.id, { slug: 'wanted' }),
      ),
    );

    expect(results.filter((result) => result === 'ok')).toHaveLength(1);
    expect(results.filter((result) => result === 'SLUG_TAKEN')).toHaveLength(4);
  });
});

describe('getCollection', () => {
  it('is 404 for an unknown id and for another tenant’s collection', async () => {
    const owner = await shop();
    const other = await shop();
    const created = await create(owner, 'mine');

    expect(await rejectionOf(getCollection(handle.db, other.id, created.id))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(await rejectionOf(getCollection(handle.db, owner.id, 'col_unknown'))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
  });
});

describe('listCollections', () => {
  it('orders by sortOrder, then newest first, pages by cursor and hides archived by default', async () => {
    const owner = await shop();
    const other = await shop();
    const made: Record<string, string> = {};
    for (const [slug, sortOrder] of [
      ['late-low', 0],
      ['early-high', 5],
      ['later-low', 0],
      ['archived', 1],
      ['draft', 2],
    ] as const) {
      clock.advance(1000);
      made[slug] = (
        await create(owner, slug, { sortOrder, status: slug === 'draft' ? 'DRAFT' : 'ACTIVE' })
      ).id;
    }
    await archiveCollection(handle.db, owner.ctx(), made.archived!);
    await create(other, 'foreign');

    const all = await listCollections(handle.db, owner.id, query());
    expect(all.data.map((row) => row.slug)).toEqual(['later-low', 'late-low', 'draft', 'early-high']);
    expect(all.nextCursor).toBeNull();

    const first = await listCollections(handle.db, owner.id, query({ limit: '2' }));
    expect(first.data.map((row) => row.slug)).toEqual(['later-low', 'late-low']);
    expect(first.nextCursor).toBe(made['late-low']);
    const second = await listCollections(
      handle.db,
      owner.id,
      query({ limit: '2', cursor: first.nextCursor }),
    );
    expect(second.data.map((row) => row.slug)).toEqual(['draft', 'early-high']);
    expect(second.nextCursor).toBeNull();

    const withArchived = await listCollections(handle.db, owner.id, query({ archived: 'YES' }));
    expect(withArchived.data.map((row) => row.slug)).toEqual([
      'later-low',
      'late-low',
      'archived',
      'draft',
      'early-high',
    ]);
    expect((await listCollections(handle.db, owner.id, query({ archived: '0' }))).data).toHaveLength(4);
    const drafts = await listCollections(handle.db, owner.id, query({ status: 'DRAFT' }));
    expect(drafts.data.map((row) => row.slug)).toEqual(['draft']);
  });

  it('pages exactly through rows whose createdAt is finer than a millisecond', async () => {
    const owner = await shop();
    for (const micros of ['000001', '000002', '000003']) {
      await handle.db
        .insertInto('collections')
        .values({
          organization_id: owner.id,
          id: `col_micro_${micros}`,
          slug: `micro-${micros}`,
          name: 'Micro',
          status: 'ACTIVE',
          created_at: `2026-11-24T09:00:00.${micros}Z`,
          updated_at: `2026-11-24T09:00:00.${micros}Z`,
        })
        .execute();
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listCollections(
        handle.db,
        owner.id,
        query({ limit: '1', ...(cursor ? { cursor } : {}) }),
      );
      seen.push(...page.data.map((row) => row.id));
      cursor = page.nextCursor;
    } while (cursor !== null && seen.length < 10);
    expect(seen).toEqual(['col_micro_000003', 'col_micro_000002', 'col_micro_000001']);
  });

  it('refuses invalid boolean forms and a cursor of another tenant', async () => {
    const owner = await shop();
    const other = await shop();
    const foreign = await create(other, 'foreign');

    expect(collectionListQuerySchema.safeParse({ archived: 'maybe' }).success).toBe(false);
    expect(collectionListQuerySchema.safeParse({ limit: '201' }).success).toBe(false);
    expect(
      await rejectionOf(listCollections(handle.db, owner.id, query({ cursor: foreign.id }))),
    ).toMatchObject({
      code: 'VALIDATION_FAILED',
    });
  });
});

describe('archiveCollection and restoreCollection', () => {
  it('archive sets archivedAt and keeps status; both are idempotent and audit only real changes', async () => {
    const owner = await shop();
    const created = await create(owner, 'seasonal', { status: 'DRAFT' });
    clock.advance(1000);
    const archivedAt = clock.now().toISOString();

    const archived = await archiveCollection(handle.db, owner.ctx(), created.id);
    clock.advance(1000);
    const again = await archiveCollection(handle.db, owner.ctx(), created.id);

    expect(archived).toMatchObject({ status: 'DRAFT', archivedAt, updatedAt: archivedAt });
    expect(again).toEqual(archived);

    const restored = await restoreCollection(handle.db, owner.ctx(), created.id);
    const restoredAgain = await restoreCollection(handle.db, owner.ctx(), created.id);
    expect(restored).toMatchObject({ status: 'DRAFT', archivedAt: null });
    expect(restoredAgain).toEqual(restored);

    const audit = await auditRows(handle.db, owner.id, 'collection.');
    expect(audit.map((row) => row.action)).toEqual([
      'collection.created',
      'collection.archived',
      'collection.restored',
    ]);
  });

  it('is 404 for another tenant’s collection', async () => {
    const owner = await shop();
    const other = await shop();
    const created = await create(owner, 'mine');
    expect(await rejectionOf(archiveCollection(handle.db, other.ctx(), created.id))).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect((await getCollection(handle.db, owner.id, created.id)).archivedAt).toBeNull();
  });
});

describe('reorderCollections', () => {
  it('assigns sortOrder = index to the complete set of non-archived collections', async () => {
    const owner = await shop();
    const [a, b, c, archived] = await Promise.all(
      ['a', 'b', 'c', 'old'].map((slug) => create(owner, slug, { sortOrder: 7 })),
    );
    await archiveCollection(handle.db, owner.ctx(), archived!.id);

    const answer = await reorderCollections(handle.db, owner.ctx(), [c!.id, a!.id, b!.id]);

    expect(answer).toEqual({ orderedIds: [c!.id, a!.id, b!.id] });
    const list = await listCollections(handle.db, owner.id, query({ archived: 'true' }));
    expect(list.data.map((row) => [row.slug, row.sortOrder])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
      ['old', 7],
    ]);
    expect((await auditRows(handle.db, owner.id, 'collection.reordered')).map((row) => row.metadata)).toEqual(
      [{ count: 3, changed: 3 }],
    );
  });

  it('refuses an incomplete set, a duplicate, an archived or foreign id, changing nothing', async () => {
    const owner = await shop();
    const other = await shop();
    const [a, b] = await Promise.all(['a', 'b'].map((slug) => create(owner, slug, { sortOrder: 4 })));
    const archived = await create(owner, 'gone');
    await archiveCollection(handle.db, owner.ctx(), archived.id);
    const foreign = await create(other, 'foreign');

    const cases: [string[], string[]][] = [
      [[a!.id], ['orderedIds']],
      [[a!.id, b!.id, a!.id], ['orderedIds.2']],
      [[a!.id, b!.id, archived.id], ['orderedIds.2']],
      [[a!.id, b!.id, foreign.id], ['orderedIds.2']],
      [[], ['orderedIds']],
    ];
    for (const [orderedIds, paths] of cases) {
      const error = await rejectionOf(reorderCollections(handle.db, owner.ctx(), orderedIds));
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details?.issues?.map((issue) => issue.path)).toEqual(paths);
    }
    const list = await listCollections(handle.db, owner.id, query());
    expect(list.data.map((row) => row.sortOrder)).toEqual([4, 4]);
    expect(await auditRows(handle.db, owner.id, 'collection.reordered')).toHaveLength(0);
  });

  it('accepts an empty order when there is no live collection', async () => {
    const owner = await shop();
    expect(await reorderCollections(handle.db, owner.ctx(), [])).toEqual({ orderedIds: [] });
  });
});

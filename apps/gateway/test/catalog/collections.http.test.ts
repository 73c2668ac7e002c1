import { newId } from '@commerce/core';
import type { ItemStatus } from '@commerce/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectError, type Harness } from '../support/harness.ts';
import {
  ACTORS,
  type Actor,
  createRoleFixture,
  expectedStatus,
  MEMBER_ACTORS,
  type RoleFixture,
} from '../support/roles.ts';

interface CollectionBody {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  status: 'ACTIVE' | 'DRAFT';
  sortOrder: number;
  itemCount: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
const WRITERS: readonly Actor[] = ['owner', 'admin', 'staffWith'];

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'col-shop', ['catalog:write']);
  // Staff of the other shop holds every group but catalog:write.
  other = await createRoleFixture(h, 'col-other', ['settings:manage', 'content:write', 'orders:operate']);
});
afterAll(async () => {
  await h.close();
});

let sequence = 0;
const nextSlug = (prefix: string) => {
  sequence += 1;
  return `${prefix}-${sequence}`;
};

/** An item row written directly: the item routes belong to another area. */
async function insertItem(fx: RoleFixture, status: ItemStatus = 'ACTIVE'): Promise<string> {
  const at = h.clock.now();
  const id = newId('itm', at);
  await h.database.db
    .insertInto('items')
    .values({
      organization_id: fx.organizationId,
      id,
      slug: nextSlug('item'),
      name: `Item ${id}`,
      type: 'SALE',
      status,
      archived_at: status === 'ARCHIVED' ? at : null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function seedCollection(fx: RoleFixture, body: Record<string, unknown> = {}): Promise<CollectionBody> {
  const response = await fx.call('owner', 'POST', '/merchant/collections', {
    name: 'Seeded',
    slug: nextSlug('seeded'),
    status: 'ACTIVE',
    ...body,
  });
  if (response.status !== 201) throw new Error(`seed: ${response.status} ${await response.text()}`);
  return (await response.json()) as CollectionBody;
}

async function collectionRow(id: string) {
  return h.database.db.selectFrom('collections').selectAll().where('id', '=', id).executeTakeFirst();
}

async function memberIds(collectionId: string): Promise<string[]> {
  const rows = await h.database.db
    .selectFrom('collection_items')
    .select('item_id')
    .where('collection_id', '=', collectionId)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.item_id);
}

async function auditOf(organizationId: string, action: string, targetId: string) {
  return h.database.db
    .selectFrom('audit_logs')
    .select(['actor_user_id', 'target_type', 'target_id', 'metadata'])
    .where('organization_id', '=', organizationId)
    .where('action', '=', action)
    .where('target_id', '=', targetId)
    .execute();
}

async function expectDenied(response: Response, actor: Actor) {
  const status = expectedStatus(actor, [], 0);
  expect(response.status, actor).toBe(status);
  expect((await errorOf(response)).code, actor).toBe(status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
}

describe('POST /merchant/collections', () => {
  it.each(ACTORS)('creates as %s only with catalog:write', async (actor) => {
    const slug = nextSlug(`by-${actor.toLowerCase()}`);
    const response = await shop.call(actor, 'POST', '/merchant/collections', {
      name: `By ${actor}`,
      slug,
      status: 'DRAFT',
      description: 'Made in a test',
    });

    expect(response.status, actor).toBe(expectedStatus(actor, WRITERS, 201));
    const row = await h.database.db
      .selectFrom('collections')
      .selectAll()
      .where('organization_id', '=', shop.organizationId)
      .where('slug', '=', slug)
      .executeTakeFirst();
    if (response.status !== 201) {
      await expectDenied(response, actor);
      expect(row).toBeUndefined();
      return;
    }
    const body = (await response.json()) as CollectionBody;
    expect(body).toEqual({
      id: expect.stringMatching(/^col_/),
      slug,
      name: `By ${actor}`,
      description: 'Made in a test',
      status: 'DRAFT',
      sortOrder: 0,
      itemCount: 0,
      archivedAt: null,
      createdAt: h.clock.now().toISOString(),
      updatedAt: h.clock.now().toISOString(),
    });
    expect(row?.id).toBe(body.id);
    expect(await auditOf(shop.organizationId, 'collection.created', body.id)).toEqual([
      {
        actor_user_id: shop.users[actor as 'owner'].userId,
        target_type: 'collection',
        target_id: body.id,
        metadata: { slug, name: `By ${actor}`, status: 'DRAFT' },
      },
    ]);
  });

  it('answers 409 SLUG_TAKEN for a taken slug, and exactly one 201 to concurrent creates', async () => {
    const existing = await seedCollection(shop);
    await expectError(
      await shop.call('admin', 'POST', '/merchant/collections', {
        name: 'Again',
        slug: existing.slug,
        status: 'ACTIVE',
      }),
      409,
      'SLUG_TAKEN',
    );

    const slug = nextSlug('race');
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        shop.call(index % 2 === 0 ? 'owner' : 'staffWith', 'POST', '/merchant/collections', {
          name: 'Race',
          slug,
          status: 'ACTIVE',
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect((await errorOf(response)).code).toBe('SLUG_TAKEN');
    }
  });

  it('lets another organization use the same slug', async () => {
    const mine = await seedCollection(shop);
    const theirs = await seedCollection(other, { slug: mine.slug });
    expect(theirs.slug).toBe(mine.slug);
    expect(theirs.id).not.toBe(mine.id);
  });

  it('answers 400 for invalid bodies', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'X', slug: 'Bad Slug', status: 'ACTIVE' }, 'slug'],
      [{ name: 'X', slug: 'x'.repeat(101), status: 'ACTIVE' }, 'slug'],
      [{ name: '', slug: 'ok-slug', status: 'ACTIVE' }, 'name'],
      [{ name: 'x'.repeat(201), slug: 'ok-slug', status: 'ACTIVE' }, 'name'],
      [{ name: 'X', slug: 'ok-slug', status: 'active' }, 'status'],
      [{ name: 'X', slug: 'ok-slug', status: 'ACTIVE', description: 'x'.repeat(10_001) }, 'description'],
      [{ name: 'X', slug: 'ok-slug', status: 'ACTIVE', sortOrder: 'first' }, 'sortOrder'],
      [{ name: 'X', slug: 'ok-slug' }, 'status'],
      [{ name: 'X', slug: 'ok-slug', status: 'ACTIVE', archived: true }, ''],
    ];
    for (const [body, path] of cases) {
      const error = await expectError(
        await shop.call('owner', 'POST', '/merchant/collections', body),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const row = await h.database.db
      .selectFrom('collections')
      .select('id')
      .where('organization_id', '=', shop.organizationId)
      .where('slug', '=', 'ok-slug')
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe('merchant collection reads', () => {
  it.each(ACTORS)('list, get and items answer %s when a member', async (actor) => {
    const collection = await seedCollection(shop);
    const item = await insertItem(shop);
    await shop.call('owner', 'POST', `/merchant/collections/${collection.id}/items`, { itemIds: [item] });
    const success = expectedStatus(actor, MEMBER_ACTORS, 200);

    const list = await shop.call(actor, 'GET', '/merchant/collections?limit=200');
    const one = await shop.call(actor, 'GET', `/merchant/collections/${collection.id}`);
    const items = await shop.call(actor, 'GET', `/merchant/collections/${collection.id}/items`);

    for (const response of [list, one, items]) expect(response.status, actor).toBe(success);
    if (success !== 200) {
      for (const response of [list, one, items]) await expectDenied(response, actor);
      return;
    }
    const page = (await list.json()) as { data: CollectionBody[]; nextCursor: string | null };
    expect(page.data.map((row) => row.id)).toContain(collection.id);
    expect(await one.json()).toEqual({ ...collection, itemCount: 1 });
    const members = (await items.json()) as {
      data: { id: string; collectionIds: string[] }[];
      nextCursor: null;
    };
    expect(members.data.map((row) => row.id)).toEqual([item]);
    expect(members.data[0]?.collectionIds).toEqual([collection.id]);
    expect(members.nextCursor).toBeNull();
  });

  it('is 404 for another organization’s collection and for an unknown id', async () => {
    const theirs = await seedCollection(other);
    for (const path of [`/merchant/collections/${theirs.id}`, `/merchant/collections/${theirs.id}/items`]) {
      await expectError(await shop.call('owner', 'GET', path), 404, 'RESOURCE_NOT_FOUND');
    }
    await expectError(
      await shop.call('owner', 'GET', '/merchant/collections/col_nope'),
      404,
      'RESOURCE_NOT_FOUND',
    );
    const list = (await (
      await shop.call('owner', 'GET', '/merchant/collections?limit=200&archived=true')
    ).json()) as {
      data: CollectionBody[];
    };
    expect(list.data.map((row) => row.id)).not.toContain(theirs.id);
  });

  it('filters by archived and status, and refuses bad query values', async () => {
    const archived = await seedCollection(shop, { status: 'DRAFT' });
    await shop.call('owner', 'POST', `/merchant/collections/${archived.id}/archive`);

    const ids = async (query: string) =>
      (
        (await (
          await shop.call('staffWithout', 'GET', `/merchant/collections?limit=200${query}`)
        ).json()) as {
          data: CollectionBody[];
        }
      ).data.map((row) => row.id);
    expect(await ids('')).not.toContain(archived.id);
    expect(await ids('&archived=no')).not.toContain(archived.id);
    expect(await ids('&archived=Yes')).toContain(archived.id);
    expect(await ids('&archived=1&status=DRAFT')).toContain(archived.id);
    expect(await ids('&archived=1&status=ACTIVE')).not.toContain(archived.id);

    for (const query of ['archived=maybe', 'status=ARCHIVED', 'limit=0', 'limit=201', 'cursor=col_unknown']) {
      await expectError(
        await shop.call('owner', 'GET', `/merchant/collections?${query}`),
        400,
        'VALIDATION_FAILED',
      );
    }
  });

  it('pages the list by cursor in the collection order', async () => {
    const fresh = await createRoleFixture(h, 'col-paging', ['catalog:write']);
    const made: string[] = [];
    for (const sortOrder of [2, 1, 1]) {
      h.clock.advance(1000);
      made.push((await seedCollection(fresh, { sortOrder })).id);
    }
    const first = (await (await fresh.call('owner', 'GET', '/merchant/collections?limit=2')).json()) as {
      data: CollectionBody[];
      nextCursor: string;
    };
    expect(first.data.map((row) => row.id)).toEqual([made[2], made[1]]);
    expect(first.nextCursor).toBe(made[1]);
    const second = (await (
      await fresh.call('owner', 'GET', `/merchant/collections?limit=2&cursor=${first.nextCursor}`)
    ).json()) as { data: CollectionBody[]; nextCursor: string | null };
    expect(second).toMatchObject({ data: [{ id: made[0] }], nextCursor: null });
  });
});

describe('PATCH /merchant/collections/{id}', () => {
  it.each(ACTORS)('updates as %s only with catalog:write', async (actor) => {
    const collection = await seedCollection(shop);
    h.clock.advance(1000);
    const response = await shop.call(actor, 'PATCH', `/merchant/collections/${collection.id}`, {
      name: `Renamed by ${actor}`,
      status: 'DRAFT',
    });

    expect(response.status, actor).toBe(expectedStatus(actor, WRITERS, 200));
    const row = await collectionRow(collection.id);
    if (response.status !== 200) {
      await expectDenied(response, actor);
      expect(row?.name).toBe('Seeded');
      return;
    }
    expect(await response.json()).toMatchObject({
      id: collection.id,
      name: `Renamed by ${actor}`,
      status: 'DRAFT',
      updatedAt: h.clock.now().toISOString(),
    });
    expect(row?.name).toBe(`Renamed by ${actor}`);
    expect((await auditOf(shop.organizationId, 'collection.updated', collection.id))[0]?.metadata).toEqual({
      fields: ['name', 'status'],
    });
  });

  it('answers 409 for a taken slug, 404 for another organization’s collection and 400 for unknown keys', async () => {
    const one = await seedCollection(shop);
    const two = await seedCollection(shop);
    const theirs = await seedCollection(other);

    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/collections/${two.id}`, { slug: one.slug }),
      409,
      'SLUG_TAKEN',
    );
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/collections/${theirs.id}`, { name: 'Mine now' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/collections/${two.id}`, { itemCount: 3 }),
      400,
      'VALIDATION_FAILED',
    );
    expect((await collectionRow(theirs.id))?.name).toBe('Seeded');
    expect((await collectionRow(two.id))?.slug).toBe(two.slug);
  });

  it('clears the description with null', async () => {
    const collection = await seedCollection(shop, { description: 'Something' });
    const response = await shop.call('owner', 'PATCH', `/merchant/collections/${collection.id}`, {
      description: null,
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as CollectionBody).description).toBeNull();
  });
});

describe('POST /merchant/collections/{id}/archive and /restore', () => {
  it.each(ACTORS)('archives and restores as %s only with catalog:write', async (actor) => {
    const collection = await seedCollection(shop, { status: 'DRAFT' });
    h.clock.advance(1000);

    const archive = await shop.call(actor, 'POST', `/merchant/collections/${collection.id}/archive`);
    expect(archive.status, actor).toBe(expectedStatus(actor, WRITERS, 201));
    if (archive.status !== 201) {
      await expectDenied(archive, actor);
      expect((await collectionRow(collection.id))?.archived_at).toBeNull();
      // Restore is refused the same way, on an archived collection.
      await shop.call('owner', 'POST', `/merchant/collections/${collection.id}/archive`);
      const restore = await shop.call(actor, 'POST', `/merchant/collections/${collection.id}/restore`);
      await expectDenied(restore, actor);
      expect((await collectionRow(collection.id))?.archived_at).not.toBeNull();
      return;
    }
    const archived = (await archive.json()) as CollectionBody;
    expect(archived).toMatchObject({ status: 'DRAFT', archivedAt: h.clock.now().toISOString() });
    // Idempotent: the second archive answers the same collection.
    const again = await shop.call(actor, 'POST', `/merchant/collections/${collection.id}/archive`);
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(archived);

    const restore = await shop.call(actor, 'POST', `/merchant/collections/${collection.id}/restore`);
    expect(restore.status).toBe(201);
    expect(await restore.json()).toMatchObject({ status: 'DRAFT', archivedAt: null });
    expect((await shop.call(actor, 'POST', `/merchant/collections/${collection.id}/restore`)).status).toBe(
      201,
    );
    expect(await auditOf(shop.organizationId, 'collection.archived', collection.id)).toHaveLength(1);
    expect(await auditOf(shop.organizationId, 'collection.restored', collection.id)).toHaveLength(1);
  });

  it('refuses a body and is 404 for another organization’s collection', async () => {
    const collection = await seedCollection(shop);
    const theirs = await seedCollection(other);
    await expectError(
      await shop.call('owner', 'POST', `/merchant/collections/${collection.id}/archive`, { now: true }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await shop.call('owner', 'POST', `/merchant/collections/${theirs.id}/archive`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect((await collectionRow(theirs.id))?.archived_at).toBeNull();
  });
});

describe('PATCH /merchant/collections/reorder', () => {
  const liveIds = async (fx: RoleFixture) =>
    (
      (await (await fx.call('owner', 'GET', '/merchant/collections?limit=200')).json()) as {
        data: CollectionBody[];
      }
    ).data.map((row) => row.id);

  it.each(ACTORS)('reorders as %s only with catalog:write', async (actor) => {
    const reversed = (await liveIds(shop)).reverse();

    const response = await shop.call(actor, 'PATCH', '/merchant/collections/reorder', {
      orderedIds: reversed,
    });

    expect(response.status, actor).toBe(expectedStatus(actor, WRITERS, 200));
    if (response.status !== 200) {
      await expectDenied(response, actor);
      expect(await liveIds(shop)).not.toEqual(reversed);
      return;
    }
    expect(await response.json()).toEqual({ orderedIds: reversed });
    expect(await liveIds(shop)).toEqual(reversed);
    const sortOrders = await h.database.db
      .selectFrom('collections')
      .select(['id', 'sort_order'])
      .where('organization_id', '=', shop.organizationId)
      .where('id', 'in', reversed)
      .execute();
    for (const row of sortOrders) expect(row.sort_order).toBe(reversed.indexOf(row.id));
  });

  it('answers 400 for an incomplete set, a duplicate, an archived or foreign id', async () => {
    const fresh = await createRoleFixture(h, 'col-reorder', ['catalog:write']);
    const a = await seedCollection(fresh);
    const b = await seedCollection(fresh);
    const gone = await seedCollection(fresh);
    await fresh.call('owner', 'POST', `/merchant/collections/${gone.id}/archive`);
    const theirs = await seedCollection(other);

    for (const orderedIds of [
      [a.id],
      [a.id, b.id, a.id],
      [a.id, b.id, gone.id],
      [a.id, b.id, theirs.id],
      [],
    ]) {
      await expectError(
        await fresh.call('owner', 'PATCH', '/merchant/collections/reorder', { orderedIds }),
        400,
        'VALIDATION_FAILED',
      );
    }
    expect(
      (await fresh.call('owner', 'PATCH', '/merchant/collections/reorder', { orderedIds: [b.id, a.id] }))
        .status,
    ).toBe(200);
    expect(await liveIds(fresh)).toEqual([b.id, a.id]);
  });
});

describe('POST /merchant/collections/{id}/items', () => {
  it.each(ACTORS)('appends as %s only with catalog:write', async (actor) => {
    const collection = await seedCollection(shop);
    const first = await insertItem(shop);
    const second = await insertItem(shop, 'DRAFT');
    await shop.call('owner', 'POST', `/merchant/collections/${collection.id}/items`, { itemIds: [first] });

    const response = await shop.call(actor, 'POST', `/merchant/collections/${collection.id}/items`, {
      itemIds: [second, first],
    });

    expect(response.status, actor).toBe(expectedStatus(actor, WRITERS, 200));
    if (response.status !== 200) {
      await expectDenied(response, actor);
      expect(await memberIds(collection.id)).toEqual([first]);
      return;
    }
    expect(await response.json()).toEqual({ addedItemIds: [second], skippedItemIds: [first], itemCount: 2 });
    expect(await memberIds(collection.id)).toEqual([first, second]);
    const audit = await auditOf(shop.organizationId, 'collection.items_added', collection.id);
    expect(audit.map((row) => row.metadata)).toEqual([{ itemIds: [first] }, { itemIds: [second] }]);
  });

  it('answers 400 for unknown or foreign items and bad arrays, 404 for a foreign collection', async () => {
    const collection = await seedCollection(shop);
    const mine = await insertItem(shop);
    const foreign = await insertItem(other);
    const theirs = await seedCollection(other);

    const error = await expectError(
      await shop.call('owner', 'POST', `/merchant/collections/${collection.id}/items`, {
        itemIds: [mine, foreign, 'itm_unknown'],
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(error.details?.issues?.map((issue) => issue.path)).toEqual(['itemIds.1', 'itemIds.2']);
    for (const itemIds of [[], Array.from({ length: 501 }, () => mine), 'x', [42]]) {
      await expectError(
        await shop.call('owner', 'POST', `/merchant/collections/${collection.id}/items`, { itemIds }),
        400,
        'VALIDATION_FAILED',
      );
    }
    expect(await memberIds(collection.id)).toEqual([]);
    await expectError(
      await shop.call('owner', 'POST', `/merchant/collections/${theirs.id}/items`, { itemIds: [mine] }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('never duplicates an item or a position under concurrent appends', async () => {
    const collection = await seedCollection(shop);
    const items: string[] = [];
    for (let index = 0; index < 12; index++) items.push(await insertItem(shop));

    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        shop.call(
          n % 2 === 0 ? 'admin' : 'staffWith',
          'POST',
          `/merchant/collections/${collection.id}/items`,
          {
            itemIds: [...items.slice(n * 2, n * 2 + 4), items[0]],
          },
        ),
      ),
    );

    expect(responses.map((response) => response.status)).toEqual(Array(6).fill(200));
    const rows = await h.database.db
      .selectFrom('collection_items')
      .select(['item_id', 'position'])
      .where('collection_id', '=', collection.id)
      .execute();
    expect(new Set(rows.map((row) => row.item_id))).toEqual(new Set(items));
    expect(rows).toHaveLength(12);
    expect(new Set(rows.map((row) => row.position)).size).toBe(12);
  });
});

describe('DELETE /merchant/collections/{id}/items/{itemId}', () => {
  it.each(ACTORS)('removes as %s only with catalog:write, idempotently', async (actor) => {
    const collection = await seedCollection(shop);
    const [a, b] = [await insertItem(shop), await insertItem(shop)];
    await shop.call('owner', 'POST', `/merchant/collections/${collection.id}/items`, { itemIds: [a, b] });

    const response = await shop.call(actor, 'DELETE', `/merchant/collections/${collection.id}/items/${a}`);

    expect(response.status, actor).toBe(expectedStatus(actor, WRITERS, 200));
    if (response.status !== 200) {
      await expectDenied(response, actor);
      expect(await memberIds(collection.id)).toEqual([a, b]);
      return;
    }
    expect(await response.json()).toEqual({ removed: 1 });
    const again = await shop.call(actor, 'DELETE', `/merchant/collections/${collection.id}/items/${a}`);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ removed: 0 });
    expect(await memberIds(collection.id)).toEqual([b]);
    expect(
      (await auditOf(shop.organizationId, 'collection.item_removed', collection.id)).map(
        (row) => row.metadata,
      ),
    ).toEqual([{ itemId: a }]);
  });

  it('is 404 for another organization’s collection', async () => {
    const theirs = await seedCollection(other);
    const item = await insertItem(other);
    await other.call('owner', 'POST', `/merchant/collections/${theirs.id}/items`, { itemIds: [item] });
    await expectError(
      await shop.call('owner', 'DELETE', `/merchant/collections/${theirs.id}/items/${item}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect(await memberIds(theirs.id)).toEqual([item]);
  });
});

describe('PATCH /merchant/collections/{id}/items/order', () => {
  it.each(ACTORS)('reorders items as %s only with catalog:write', async (actor) => {
    const collection = await seedCollection(shop);
    const [a, b, c] = [await insertItem(shop), await insertItem(shop), await insertItem(shop)];
    await shop.call('owner', 'POST', `/merchant/collections/${collection.id}/items`, { itemIds: [a, b, c] });

    const response = await shop.call(actor, 'PATCH', `/merchant/collections/${collection.id}/items/order`, {
      itemIds: [c, a, b],
    });

    expect(response.status, actor).toBe(expectedStatus(actor, WRITERS, 200));
    if (response.status !== 200) {
      await expectDenied(response, actor);
      expect(await memberIds(collection.id)).toEqual([a, b, c]);
      return;
    }
    expect(await response.json()).toEqual({ itemIds: [c, a, b] });
    expect(await memberIds(collection.id)).toEqual([c, a, b]);
    const read = (await (
      await shop.call('staffWithout', 'GET', `/merchant/collections/${collection.id}/items`)
    ).json()) as {
      data: { id: string }[];
    };
    expect(read.data.map((item) => item.id)).toEqual([c, a, b]);
  });

  it('answers 400 unless the complete current set is sent, changing nothing', async () => {
    const collection = await seedCollection(shop);
    const [a, b, stranger] = [await insertItem(shop), await insertItem(shop), await insertItem(shop)];
    await shop.call('owner', 'POST', `/merchant/collections/${collection.id}/items`, { itemIds: [a, b] });

    for (const itemIds of [[b], [b, a, a], [b, a, stranger], []]) {
      await expectError(
        await shop.call('owner', 'PATCH', `/merchant/collections/${collection.id}/items/order`, { itemIds }),
        400,
        'VALIDATION_FAILED',
      );
    }
    expect(await memberIds(collection.id)).toEqual([a, b]);
  });
});

import { newId } from '@commerce/core';
import type { ItemStatus } from '@commerce/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'content-shop');
  other = await createRoleFixture(h, 'content-other');
});
afterAll(async () => {
  await h.close();
});

/** An anonymous storefront read of `fx`'s tenant. */
const storefront = (fx: RoleFixture, path: string) =>
  h.app.request(`/api/v1${path}`, { headers: { 'x-organization-slug': fx.slug } });

async function json<T>(response: Response): Promise<T> {
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

let sequence = 0;
const nextSlug = (prefix: string) => {
  sequence += 1;
  return `${prefix}-${sequence}`;
};

async function insertItem(fx: RoleFixture, status: ItemStatus = 'ACTIVE', name = 'Item'): Promise<string> {
  const at = h.clock.now();
  const id = newId('itm', at);
  await h.database.db
    .insertInto('items')
    .values({
      organization_id: fx.organizationId,
      id,
      slug: nextSlug('item'),
      name,
      type: 'SALE',
      status,
      price_in_cents: 2500,
      archived_at: status === 'ARCHIVED' ? at : null,
      created_at: at,
      updated_at: at,
    })
    .execute();
  return id;
}

async function merchant(fx: RoleFixture, method: string, path: string, body?: unknown) {
  const response = await fx.call('owner', method, path, body);
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; slug: string } & Record<string, unknown>;
}

const newCollection = (fx: RoleFixture, body: Record<string, unknown> = {}) => {
  h.clock.advance(1000);
  return merchant(fx, 'POST', '/merchant/collections', {
    name: 'Collection',
    slug: nextSlug('col'),
    status: 'ACTIVE',
    ...body,
  });
};
const newPage = (fx: RoleFixture, body: Record<string, unknown> = {}) => {
  h.clock.advance(1000);
  return merchant(fx, 'POST', '/merchant/pages', {
    title: 'Page',
    slug: nextSlug('page'),
    content: '<p>Body</p>',
    status: 'PUBLISHED',
    ...body,
  });
};

describe('GET /public/collections', () => {
  it('lists ACTIVE, non-archived collections of the tenant only, in collection order', async () => {
    const fresh = await createRoleFixture(h, 'content-list');
    const low = await newCollection(fresh, { sortOrder: 1 });
    const first = await newCollection(fresh, { sortOrder: 0 });
    const newest = await newCollection(fresh, { sortOrder: 0 });
    const draft = await newCollection(fresh, { status: 'DRAFT' });
    const archived = await newCollection(fresh);
    await merchant(fresh, 'POST', `/merchant/collections/${archived.id}/archive`);
    const foreign = await newCollection(other);

    const list = await json<{ id: string; itemCount: number }[]>(
      await storefront(fresh, '/public/collections'),
    );

    expect(Array.isArray(list)).toBe(true);
    expect(list.map((row) => row.id)).toEqual([newest.id, first.id, low.id]);
    for (const hidden of [draft.id, archived.id, foreign.id])
      expect(list.map((row) => row.id)).not.toContain(hidden);
    expect(Object.keys(list[0]!).sort()).toEqual(
      ['createdAt', 'description', 'id', 'itemCount', 'name', 'slug', 'sortOrder', 'updatedAt'].sort(),
    );

    const page1 = await json<{ id: string }[]>(await storefront(fresh, '/public/collections?limit=2'));
    expect(page1.map((row) => row.id)).toEqual([newest.id, first.id]);
    const page2 = await json<{ id: string }[]>(
      await storefront(fresh, `/public/collections?limit=2&cursor=${first.id}`),
    );
    expect(page2.map((row) => row.id)).toEqual([low.id]);

    // A restored ACTIVE collection is public again; a DRAFT turned ACTIVE appears.
    await merchant(fresh, 'POST', `/merchant/collections/${archived.id}/restore`);
    await merchant(fresh, 'PATCH', `/merchant/collections/${draft.id}`, { status: 'ACTIVE' });
    const after = await json<{ id: string }[]>(await storefront(fresh, '/public/collections'));
    expect(after.map((row) => row.id)).toEqual(expect.arrayContaining([archived.id, draft.id]));
  });

  it('needs the tenant header and a known organization, but no credential', async () => {
    await expectError(await h.app.request('/api/v1/public/collections'), 400, 'TENANT_REQUIRED');
    await expectError(
      await h.app.request('/api/v1/public/collections', {
        headers: { 'x-organization-slug': 'no-such-shop' },
      }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(await storefront(shop, '/public/collections?limit=0'), 400, 'VALIDATION_FAILED');
  });
});

describe('GET /public/collections/{slug}', () => {
  it('answers an ACTIVE collection and one neutral 404 for DRAFT, archived, unknown and foreign slugs', async () => {
    const live = await newCollection(shop, { description: 'Best sellers' });
    const draft = await newCollection(shop, { status: 'DRAFT' });
    const archived = await newCollection(shop);
    await merchant(shop, 'POST', `/merchant/collections/${archived.id}/archive`);
    const foreign = await newCollection(other);
    const activeItem = await insertItem(shop);
    const draftItem = await insertItem(shop, 'DRAFT');
    await merchant(shop, 'POST', `/merchant/collections/${live.id}/items`, {
      itemIds: [activeItem, draftItem],
    });

    const read = await json<Record<string, unknown>>(
      await storefront(shop, `/public/collections/${live.slug}`),
    );
    expect(read).toMatchObject({ id: live.id, slug: live.slug, description: 'Best sellers', itemCount: 1 });
    expect(read).not.toHaveProperty('archivedAt');

    const bodies = new Set<string>();
    for (const slug of [draft.slug, archived.slug, 'no-such-collection', foreign.slug]) {
      const error = await expectError(
        await storefront(shop, `/public/collections/${slug}`),
        404,
        'RESOURCE_NOT_FOUND',
      );
      bodies.add(error.message);
    }
    expect(bodies.size).toBe(1);
  });
});

describe('GET /public/collections/{slug}/items', () => {
  it('lists ACTIVE items in the collection order, decorated, and hides DRAFT and archived items', async () => {
    const collection = await newCollection(shop);
    const a = await insertItem(shop, 'ACTIVE', 'A');
    const b = await insertItem(shop, 'ACTIVE', 'B');
    const draft = await insertItem(shop, 'DRAFT', 'Draft');
    const archived = await insertItem(shop, 'ARCHIVED', 'Archived');
    const c = await insertItem(shop, 'ACTIVE', 'C');
    const draftCollection = await newCollection(shop, { status: 'DRAFT' });
    await merchant(shop, 'POST', `/merchant/collections/${collection.id}/items`, {
      itemIds: [a, draft, b, archived, c],
    });
    await merchant(shop, 'POST', `/merchant/collections/${draftCollection.id}/items`, { itemIds: [b] });
    await merchant(shop, 'PATCH', `/merchant/collections/${collection.id}/items/order`, {
      itemIds: [c, archived, a, draft, b],
    });

    const items = await json<Record<string, unknown>[]>(
      await storefront(shop, `/public/collections/${collection.slug}/items`),
    );

    expect(items.map((item) => item.name)).toEqual(['C', 'A', 'B']);
    expect(items[0]).toMatchObject({
      id: c,
      status: 'ACTIVE',
      priceInCents: 2500,
      salePriceInCents: null,
      ratingAverage: null,
      ratingCount: 0,
      collectionIds: [collection.id],
    });
    // The DRAFT collection holding B is not among the collections a shopper sees.
    expect(items[2]?.collectionIds).toEqual([collection.id]);

    const page1 = await json<{ id: string }[]>(
      await storefront(shop, `/public/collections/${collection.slug}/items?limit=2`),
    );
    expect(page1.map((item) => item.id)).toEqual([c, a]);
    const page2 = await json<{ id: string }[]>(
      await storefront(shop, `/public/collections/${collection.slug}/items?limit=2&cursor=${a}`),
    );
    expect(page2.map((item) => item.id)).toEqual([b]);
    await expectError(
      await storefront(shop, `/public/collections/${collection.slug}/items?cursor=itm_nope`),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('answers 200 [] for a DRAFT or archived collection and 404 for an unknown or foreign slug', async () => {
    const item = await insertItem(shop);
    const draft = await newCollection(shop, { status: 'DRAFT' });
    const archived = await newCollection(shop);
    await merchant(shop, 'POST', `/merchant/collections/${draft.id}/items`, { itemIds: [item] });
    await merchant(shop, 'POST', `/merchant/collections/${archived.id}/items`, { itemIds: [item] });
    await merchant(shop, 'POST', `/merchant/collections/${archived.id}/archive`);
    const foreign = await newCollection(other);
    const foreignItem = await insertItem(other);
    await merchant(other, 'POST', `/merchant/collections/${foreign.id}/items`, { itemIds: [foreignItem] });

    for (const slug of [draft.slug, archived.slug]) {
      const response = await storefront(shop, `/public/collections/${slug}/items`);
      expect(response.status, slug).toBe(200);
      expect(await response.json(), slug).toEqual([]);
    }
    for (const slug of ['no-such-collection', foreign.slug]) {
      await expectError(
        await storefront(shop, `/public/collections/${slug}/items`),
        404,
        'RESOURCE_NOT_FOUND',
      );
    }
    // The other tenant sees its own collection's items.
    const theirs = await json<{ id: string }[]>(
      await storefront(other, `/public/collections/${foreign.slug}/items`),
    );
    expect(theirs.map((row) => row.id)).toEqual([foreignItem]);
  });
});

describe('GET /public/pages and /public/pages/{slug}', () => {
  it('serve PUBLISHED, non-archived pages of the tenant; DRAFT, archived, restored and foreign pages are hidden', async () => {
    const fresh = await createRoleFixture(h, 'content-pages');
    const older = await newPage(fresh, { excerpt: 'First' });
    const published = await newPage(fresh, { content: '<p>Hi</p><script>alert(1)</script>' });
    const draft = await newPage(fresh, { status: 'DRAFT' });
    const archived = await newPage(fresh);
    await merchant(fresh, 'POST', `/merchant/pages/${archived.id}/archive`);
    const restored = await newPage(fresh);
    await merchant(fresh, 'POST', `/merchant/pages/${restored.id}/archive`);
    await merchant(fresh, 'POST', `/merchant/pages/${restored.id}/restore`);
    const foreign = await newPage(other);

    const list = await json<Record<string, unknown>[]>(await storefront(fresh, '/public/pages'));
    expect(list.map((row) => row.id)).toEqual([published.id, older.id]);
    expect(list[1]).toEqual({
      id: older.id,
      slug: older.slug,
      title: 'Page',
      excerpt: 'First',
      publishedAt: older.publishedAt,
      createdAt: older.createdAt,
      updatedAt: older.updatedAt,
    });
    const page1 = await json<{ id: string }[]>(await storefront(fresh, '/public/pages?limit=1'));
    expect(page1.map((row) => row.id)).toEqual([published.id]);
    const page2 = await json<{ id: string }[]>(
      await storefront(fresh, `/public/pages?limit=1&cursor=${published.id}`),
    );
    expect(page2.map((row) => row.id)).toEqual([older.id]);

    const read = await json<Record<string, unknown>>(
      await storefront(fresh, `/public/pages/${published.slug}`),
    );
    expect(read).toMatchObject({ id: published.id, content: '<p>Hi</p>' });
    expect(read).not.toHaveProperty('status');
    expect(read).not.toHaveProperty('archivedAt');

    for (const slug of [draft.slug, archived.slug, restored.slug, foreign.slug, 'no-such-page']) {
      await expectError(await storefront(fresh, `/public/pages/${slug}`), 404, 'RESOURCE_NOT_FOUND');
    }

    // Publishing the restored draft serves it again.
    await merchant(fresh, 'PATCH', `/merchant/pages/${restored.id}`, { status: 'PUBLISHED' });
    expect((await storefront(fresh, `/public/pages/${restored.slug}`)).status).toBe(200);
  });
});

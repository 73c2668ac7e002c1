import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

interface PublicItem {
  id: string;
  slug: string;
  status: string;
  metafields: Record<string, unknown>;
  salePriceInCents: number | null;
  ratingAverage: number | null;
  ratingCount: number;
  collectionIds: string[];
}

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
const items: Record<'active' | 'second' | 'draft' | 'archived' | 'foreign', PublicItem> = {} as never;

/** An anonymous storefront request to `fx`'s tenant. */
const storefront = (fx: RoleFixture, path: string, init: RequestInit = {}) =>
  h.app.request(`/api/v1${path}`, {
    ...init,
    headers: { 'x-organization-slug': fx.slug, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });

async function ok<T>(response: Response): Promise<T> {
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function merchant(fx: RoleFixture, method: string, path: string, body?: unknown) {
  const response = await fx.call('owner', method, path, body);
  if (response.status >= 300)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as PublicItem;
}

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'public-items');
  other = await createRoleFixture(h, 'public-items-other');
  items.active = await merchant(shop, 'POST', '/merchant/items', {
    slug: 'trail-tent',
    name: 'Trail tent',
    type: 'RENTAL',
    status: 'ACTIVE',
    sortOrder: 1,
    metafields: { fabric: 'nylon' },
  });
  items.second = await merchant(shop, 'POST', '/merchant/items', {
    slug: 'camp-stove',
    name: 'Camp stove',
    type: 'SALE',
    status: 'ACTIVE',
    sortOrder: 2,
    tags: ['cooking'],
  });
  items.draft = await merchant(shop, 'POST', '/merchant/items', {
    slug: 'draft-lantern',
    name: 'Draft lantern',
    type: 'SALE',
  });
  items.archived = await merchant(shop, 'POST', '/merchant/items', {
    slug: 'old-tent',
    name: 'Old tent',
    type: 'RENTAL',
    status: 'ACTIVE',
  });
  await merchant(shop, 'POST', `/merchant/items/${items.archived.id}/archive`);
  items.foreign = await merchant(other, 'POST', '/merchant/items', {
    slug: 'foreign-tent',
    name: 'Foreign tent',
    type: 'RENTAL',
    status: 'ACTIVE',
  });
  await merchant(shop, 'POST', `/merchant/items/${items.active.id}/variants`, {
    name: 'Two person',
    priceInCents: 5000,
    salePriceInCents: 4000,
  });
});
afterAll(async () => {
  await h.close();
});

describe('GET /public/items', () => {
  it('lists the ACTIVE, unarchived items of the tenant only, as a flat array, without credentials', async () => {
    const list = await ok<PublicItem[]>(await storefront(shop, '/public/items'));
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((item) => item.slug)).toEqual(['trail-tent', 'camp-stove']);
    expect(list[0]).toMatchObject({
      status: 'ACTIVE',
      salePriceInCents: 4000,
      ratingCount: 0,
      ratingAverage: null,
    });
  });

  it('pages by cursor and filters by type, search and collection', async () => {
    const first = await ok<PublicItem[]>(await storefront(shop, '/public/items?limit=1'));
    expect(first.map((item) => item.slug)).toEqual(['trail-tent']);
    const next = await ok<PublicItem[]>(
      await storefront(shop, `/public/items?limit=1&cursor=${first[0]!.id}`),
    );
    expect(next.map((item) => item.slug)).toEqual(['camp-stove']);

    expect(
      (await ok<PublicItem[]>(await storefront(shop, '/public/items?type=RENTAL'))).map((i) => i.slug),
    ).toEqual(['trail-tent']);
    expect(
      (await ok<PublicItem[]>(await storefront(shop, '/public/items?search=COOK'))).map((i) => i.slug),
    ).toEqual(['camp-stove']);
    expect(
      (await ok<PublicItem[]>(await storefront(shop, '/public/items?search=tent'))).map((i) => i.slug),
    ).toEqual(['trail-tent']);
    expect(
      await ok<PublicItem[]>(await storefront(shop, '/public/items?collection=no-such-collection')),
    ).toEqual([]);
    await expectError(await storefront(shop, '/public/items?limit=500'), 400, 'VALIDATION_FAILED');
    await expectError(await storefront(shop, '/public/items?type=rental'), 400, 'VALIDATION_FAILED');
  });

  it('needs the tenant header and a known tenant', async () => {
    await expectError(await h.app.request('/api/v1/public/items'), 400, 'TENANT_REQUIRED');
    await expectError(
      await h.app.request('/api/v1/public/items', { headers: { 'x-organization-slug': 'no-such-shop' } }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});

describe('GET /public/items/{slug}', () => {
  it('answers an ACTIVE item, without the reserved metafields', async () => {
    const item = await ok<PublicItem>(await storefront(shop, '/public/items/trail-tent'));
    expect(item).toMatchObject({
      id: items.active.id,
      metafields: { fabric: 'nylon' },
      salePriceInCents: 4000,
    });
  });

  it('lists the non-archived variants a shopper can buy, with stock as a flag and never a count', async () => {
    const base = `/merchant/items/${items.active.id}/variants`;
    const soldOut = await merchant(shop, 'POST', base, {
      name: 'Four person',
      sku: 'TENT-4',
      inventoryQuantity: 0,
    });
    const stocked = await merchant(shop, 'POST', base, {
      name: 'One person',
      inventoryQuantity: 3,
      sortOrder: 5,
    });
    const gone = await merchant(shop, 'POST', base, { name: 'Retired' });
    await merchant(shop, 'POST', `${base}/${gone.id}/archive`);

    const item = (await ok<PublicItem>(await storefront(shop, '/public/items/trail-tent'))) as PublicItem & {
      variants: { id: string; name: string; sku: string | null; inStock: boolean }[];
    };
    expect(item.variants.map((variant) => [variant.name, variant.inStock])).toEqual([
      ['Two person', true],
      ['Four person', false],
      ['One person', true],
    ]);
    expect(item.variants.map((variant) => variant.id)).not.toContain(gone.id);
    expect(item.variants.find((variant) => variant.id === soldOut.id)?.sku).toBe('TENT-4');
    expect(item.variants.find((variant) => variant.id === stocked.id)).not.toHaveProperty(
      'inventoryQuantity',
    );
  });

  it('answers 404 RESOURCE_NOT_FOUND for a draft, an archived, an unknown and another tenant’s item', async () => {
    for (const slug of ['draft-lantern', 'old-tent', 'nothing-here', 'foreign-tent']) {
      await expectError(await storefront(shop, `/public/items/${slug}`), 404, 'RESOURCE_NOT_FOUND');
    }
  });

  it('hides the reserved metafield keys from shoppers, not from the merchant', async () => {
    await h.database.db
      .updateTable('items')
      .set({ metafields: JSON.stringify({ fabric: 'nylon', __archivedFromStatus: 'ACTIVE' }) })
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', items.active.id)
      .execute();
    const item = await ok<PublicItem>(await storefront(shop, '/public/items/trail-tent'));
    expect(item.metafields).toEqual({ fabric: 'nylon' });
    const merchantRead = await merchant(shop, 'GET', `/merchant/items/${items.active.id}`);
    expect(merchantRead.metafields).toEqual({ fabric: 'nylon', __archivedFromStatus: 'ACTIVE' });
  });
});

describe('POST /public/items/resolve', () => {
  it('answers the public items among the ids, in the order asked, silently leaving out the rest', async () => {
    const response = await storefront(shop, '/public/items/resolve', {
      method: 'POST',
      body: JSON.stringify({
        ids: [
          items.second.id,
          items.draft.id,
          items.archived.id,
          items.foreign.id,
          'itm_unknown',
          items.active.id,
          items.second.id,
        ],
      }),
    });
    const resolved = await ok<PublicItem[]>(response);
    expect(resolved.map((item) => item.id)).toEqual([items.second.id, items.active.id]);
  });

  it('answers 400 for no ids, more than 100 and unknown keys', async () => {
    for (const body of [
      {},
      { ids: [] },
      { ids: Array.from({ length: 101 }, (_, index) => `itm_${index}`) },
      { ids: [items.active.id], extra: true },
    ]) {
      await expectError(
        await storefront(shop, '/public/items/resolve', { method: 'POST', body: JSON.stringify(body) }),
        400,
        'VALIDATION_FAILED',
      );
    }
  });
});

describe('public item rate limit', () => {
  it('answers 429 RATE_LIMIT_EXCEEDED with Retry-After once the budget is spent, on each public item route', async () => {
    const limited = await createHarness({ env: { RATE_LIMIT_PUBLIC_READS_PER_MINUTE: '2' } });
    try {
      await limited.provision('limited-items', 'owner@limited-items.test');
      const read = (path: string, init: RequestInit = {}) =>
        limited.app.request(`/api/v1${path}`, {
          ...init,
          headers: { 'x-organization-slug': 'limited-items', 'content-type': 'application/json' },
        });
      expect((await read('/public/items')).status).toBe(200);
      expect(
        (await read('/public/items/resolve', { method: 'POST', body: JSON.stringify({ ids: ['itm_x'] }) }))
          .status,
      ).toBe(200);
      for (const [path, init] of [
        ['/public/items', {}],
        ['/public/items/anything', {}],
        ['/public/items/resolve', { method: 'POST', body: JSON.stringify({ ids: ['itm_x'] }) }],
      ] as const) {
        const response = await read(path, init);
        expect(response.status, path).toBe(429);
        expect(response.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
        expect((await errorOf(response)).code).toBe('RATE_LIMIT_EXCEEDED');
      }
    } finally {
      await limited.close();
    }
  });
});

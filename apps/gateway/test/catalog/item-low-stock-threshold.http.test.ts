import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, expectJson, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/** The item's `lowStockThreshold` through the merchant API: merchant reads only, never public ones. */
let h: Harness;
let shop: RoleFixture;

interface Item {
  id: string;
  slug: string;
  lowStockThreshold?: number | null;
}

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'low-stock-shop', ['catalog:write']);
});
afterAll(async () => {
  await h.close();
});

const storefront = (path: string) =>
  h.app.request(`/api/v1${path}`, { headers: { 'x-organization-slug': shop.slug } });

let sequence = 0;
async function create(body: Record<string, unknown> = {}): Promise<Item> {
  sequence += 1;
  return expectJson<Item>(
    await shop.call('owner', 'POST', '/merchant/items', {
      slug: `threshold-${sequence}`,
      name: `Threshold lamp ${sequence}`,
      type: 'SALE',
      status: 'ACTIVE',
      ...body,
    }),
    201,
  );
}
const patch = (id: string, body: Record<string, unknown>) =>
  shop.call('owner', 'PATCH', `/merchant/items/${id}`, body);

describe('item lowStockThreshold', () => {
  it('is set on create (null when absent) and shown by every merchant read', async () => {
    const set = await create({ lowStockThreshold: 3 });
    const unset = await create();
    expect(set.lowStockThreshold).toBe(3);
    expect(unset.lowStockThreshold).toBeNull();
    expect((await create({ lowStockThreshold: 0 })).lowStockThreshold).toBe(0);
    expect((await create({ lowStockThreshold: 1_000_000 })).lowStockThreshold).toBe(1_000_000);

    const byId = await expectJson<Item>(await shop.call('owner', 'GET', `/merchant/items/${set.id}`), 200);
    expect(byId.lowStockThreshold).toBe(3);
    const bySlug = await expectJson<Item>(
      await shop.call('owner', 'GET', `/merchant/items/by-slug/${set.slug}`),
      200,
    );
    expect(bySlug.lowStockThreshold).toBe(3);
    // The plain list and the search (whose first pass re-selects the item columns) both carry it.
    for (const query of ['?limit=200', '?search=threshold%20lamp&limit=200']) {
      const list = await expectJson<{ data: Item[] }>(
        await shop.call('owner', 'GET', `/merchant/items${query}`),
        200,
      );
      expect(list.data.find((item) => item.id === set.id)?.lowStockThreshold, query).toBe(3);
      expect(list.data.find((item) => item.id === unset.id)?.lowStockThreshold, query).toBeNull();
    }
  });

  it('PATCH sets it, leaves it when absent and clears it with null', async () => {
    const item = await create();
    expect(
      (await expectJson<Item>(await patch(item.id, { lowStockThreshold: 12 }), 200)).lowStockThreshold,
    ).toBe(12);
    expect(
      (await expectJson<Item>(await patch(item.id, { name: 'Renamed lamp' }), 200)).lowStockThreshold,
    ).toBe(12);
    expect(
      (await expectJson<Item>(await patch(item.id, { lowStockThreshold: null }), 200)).lowStockThreshold,
    ).toBeNull();
    const read = await expectJson<Item>(await shop.call('owner', 'GET', `/merchant/items/${item.id}`), 200);
    expect(read.lowStockThreshold).toBeNull();
  });

  it('refuses a negative, fractional, too large or non-number value with 400 on create and PATCH', async () => {
    const item = await create({ lowStockThreshold: 4 });
    for (const bad of [-1, 1.5, '3', 1_000_001, true]) {
      const onCreate = await expectError(
        await shop.call('owner', 'POST', '/merchant/items', {
          slug: 'refused-threshold',
          name: 'Refused',
          type: 'SALE',
          lowStockThreshold: bad,
        }),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        onCreate.details?.issues?.map((issue) => issue.path),
        String(bad),
      ).toEqual(['lowStockThreshold']);
      const onPatch = await expectError(
        await patch(item.id, { lowStockThreshold: bad }),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        onPatch.details?.issues?.map((issue) => issue.path),
        String(bad),
      ).toEqual(['lowStockThreshold']);
    }
    const read = await expectJson<Item>(await shop.call('owner', 'GET', `/merchant/items/${item.id}`), 200);
    expect(read.lowStockThreshold).toBe(4);
  });

  it('is never in a public read: the list, the search, the item page and resolve', async () => {
    const item = await create({ lowStockThreshold: 7 });
    const list = await expectJson<Record<string, unknown>[]>(
      await storefront('/public/items?limit=100'),
      200,
    );
    const searched = await expectJson<Record<string, unknown>[]>(
      await storefront('/public/items?limit=100&search=threshold%20lamp'),
      200,
    );
    const page = await expectJson<Record<string, unknown>>(
      await storefront(`/public/items/${item.slug}`),
      200,
    );
    const resolved = await expectJson<Record<string, unknown>[]>(
      await h.app.request('/api/v1/public/items/resolve', {
        method: 'POST',
        headers: { 'x-organization-slug': shop.slug, 'content-type': 'application/json' },
        body: JSON.stringify({ ids: [item.id] }),
      }),
      200,
    );
    expect(resolved.map((row) => row.id)).toEqual([item.id]);
    const listed = list.find((row) => row.id === item.id);
    const found = searched.find((row) => row.id === item.id);
    expect(listed).toBeDefined();
    expect(found).toBeDefined();
    for (const read of [listed!, found!, page, resolved[0]!]) {
      expect(read).not.toHaveProperty('lowStockThreshold');
      expect(read).not.toHaveProperty('low_stock_threshold');
    }
  });
});
